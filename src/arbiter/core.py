"""Which core runs the rules and the search: the compiled extension or pure Python.

``pip install`` builds ``arbiter._core`` from ``src/arbiter/csrc`` when a C compiler
is present; without one the install still succeeds and everything runs on the
pure-Python rules, which stay the readable reference. ``ARBITER_PURE=1`` in the
environment forces the pure path. A rules engine chooses its kernel when it is
made (``compiled()`` then), so both paths can be built and compared in one process:
:func:`forced_pure` is how tests make the pure one.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType
from typing import Generic, TypeVar

_loaded: ModuleType | None
try:
    from arbiter import _core

    _loaded = _core
    _missing = ""
except ImportError as e:  # no compiler at install time: the pure path
    _loaded = None
    _missing = str(e)

_forced_pure = False

S = TypeVar("S")
M = TypeVar("M")


def compiled() -> ModuleType | None:
    """The compiled core, or None when it is not built or the pure path is asked for."""
    if _forced_pure or os.environ.get("ARBITER_PURE", "") not in ("", "0"):
        return None
    return _loaded


def available() -> bool:
    """Whether the compiled core was built (whatever ``ARBITER_PURE`` says)."""
    return _loaded is not None


def describe() -> str:
    """Which core is in use, and why, in words (``arbiter --version`` prints it)."""
    if compiled() is not None:
        return "compiled core (C)"
    if _loaded is None:
        return f"pure-Python core (the compiled core is not built: {_missing})"
    return "pure-Python core (asked for)"


@contextmanager
def forced_pure() -> Iterator[None]:
    """Rules engines and searches made inside the block take the pure-Python path."""
    global _forced_pure
    before, _forced_pure = _forced_pure, True
    try:
        yield
    finally:
        _forced_pure = before


LOST = 2
"""The kernels' outcome code for "the side to move has lost" (``OUT_LOSS`` in
``csrc/core.h``)."""


def ply_cap(max_plies: int) -> int:
    """A game's ply cap as the kernels' 32-bit field: a larger cap is past any real
    game's length, so it is clamped."""
    return min(max_plies, 2**31 - 1)


@dataclass(frozen=True, slots=True)
class CompiledRules(Generic[S, M]):
    """A rules engine's way into its compiled kernel, for its own hot functions, the
    compiled search and perft: the kernel's ``name`` in the core, ``pack`` (a state as
    the kernel's bytes) and ``code`` (a move as the kernel's code)."""

    core: ModuleType
    name: str
    pack: Callable[[S], bytes]
    code: Callable[[M], int]

    def legal(self, s: S) -> list[int]:
        """The codes of the legal moves of ``s``, in the Python engine's order."""
        codes: list[int] = self.core.legal(self.name, self.pack(s))
        return codes

    def lost(self, s: S) -> bool:
        """Whether the kernel finds the side to move lost in ``s`` (no legal move)."""
        return bool(self.core.outcome(self.name, self.pack(s)) == LOST)

    def perft(self, s: S, depth: int) -> int:
        """The move sequences of ``depth`` plies from ``s``, counted in the kernel."""
        return int(self.core.perft(self.name, self.pack(s), depth))


def compiled_rules(
    name: str, pack: Callable[[S], bytes], code: Callable[[M], int]
) -> CompiledRules[S, M] | None:
    """The kernel ``name`` of the compiled core for a rules engine being made, or None
    on the pure path."""
    kernel = compiled()
    return None if kernel is None else CompiledRules(kernel, name, pack, code)


class DecodedMoves(Generic[M]):
    """Moves made from kernel codes, each made once and kept (a game meets the same
    few thousand again and again); the store is emptied past ``limit`` entries, so
    it stays bounded over any number of games."""

    def __init__(self, decode: Callable[[int], M], limit: int = 1 << 16) -> None:
        self._decode = decode
        self._limit = limit
        self._known: dict[int, M] = {}

    def __call__(self, codes: list[int]) -> list[M]:
        known = self._known
        if len(known) > self._limit:
            known.clear()
        out = []
        for c in codes:
            m = known.get(c)
            if m is None:
                m = known[c] = self._decode(c)
            out.append(m)
        return out
