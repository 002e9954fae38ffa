"""Which core runs the rules and the search: the compiled extension or pure Python.

``pip install`` builds ``arbiter._core`` from ``src/arbiter/csrc`` when a C compiler
is present; without one the install still succeeds and everything runs on the
pure-Python rules, which stay the readable reference. ``ARBITER_PURE=1`` in the
environment forces the pure path. A rules engine chooses its kernel when it is
made (``compiled()`` then), so both paths can be built and compared in one process:
:func:`forced_pure` is how tests make the pure one.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Generic, TypeVar

CSRC = Path(__file__).parent / "csrc"
"""The compiled core's sources."""


def sources_digest() -> str | None:
    """The digest of the compiled core's sources beside this module (``setup.py``
    builds the same digest into the extension), or ``None`` where they are not there."""
    try:
        files = sorted(p for p in CSRC.iterdir() if p.suffix in (".c", ".h"))
        h = hashlib.sha256()
        for p in files:
            h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    except OSError:
        return None
    return h.hexdigest()[:16]


_loaded: ModuleType | None
try:
    from arbiter import _core

    _loaded = _core
    _missing = ""
    _built_from = getattr(_core, "SOURCES", "unknown")
    if (here := sources_digest()) is not None and _built_from != here:
        # a build older (or newer) than the sources: its rules may not be these
        _loaded = None
        _missing = (
            f"it was built from other sources ({_built_from}) than these ({here}): "
            "rebuild it with pip install -e ."
        )
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
    if (built := compiled()) is not None:
        # the processor's instructions it was built to use: popcnt (setup.py)
        return "compiled core (C" + "".join(f", {f}" for f in built.FEATURES) + ")"
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
    the kernel's bytes), ``code`` (a move as the kernel's code) and ``unpack`` (the
    kernel's bytes as a state: the learning environments step in the kernel and make
    the rules' position only when it is asked for)."""

    core: ModuleType
    name: str
    pack: Callable[[S], bytes]
    code: Callable[[M], int]
    unpack: Callable[[bytes], S]

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
    name: str, pack: Callable[[S], bytes], code: Callable[[M], int], unpack: Callable[[bytes], S]
) -> CompiledRules[S, M] | None:
    """The kernel ``name`` of the compiled core for a rules engine being made, or None
    on the pure path."""
    kernel = compiled()
    return None if kernel is None else CompiledRules(kernel, name, pack, code, unpack)


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


MIRRORS: dict[str, tuple[tuple[str, str], ...]] = {
    "votey.c": (
        ("votey_init", "votey.rules._build_tables"),
        ("spread", "votey.rules.spread"),
        ("connected", "votey.rules.connected"),
        ("groups", "votey.rules.groups"),
        ("moves_from", "votey.rules.moves_from"),
        ("line_sets", "votey.rules.count_moves"),
        ("count_on", "votey.rules.count_moves"),
        ("count_moves", "votey.rules.count_moves"),
        ("has_move", "votey.rules.has_move"),
        ("v_gen", "votey.rules.Votey.legal_moves"),
        ("v_count", "votey.rules.count_moves"),
        ("v_over", "votey.rules.Votey.outcome"),
        ("v_apply", "votey.rules.Votey.apply"),
        ("v_outcome", "votey.rules.Votey.outcome"),
        ("v_hash", "votey.rules.Votey.position_key"),
        ("shape", "votey.evaluate._shape"),
        ("mobility", "votey.evaluate._mobility"),
        ("v_evaluate", "votey.evaluate.evaluate"),
        ("v_hint", "votey.evaluate.order_hint"),
        ("v_squares", "votey.board.VIEW.pieces"),
        ("v_path", "votey.board.VIEW.clicks.legs"),
        ("v_to_move", "votey.rules.Votey.to_move"),
    ),
    "checkers.c": (
        ("checkers_init", "checkers.rules._tables"),
        ("cell_at", "checkers.rules._cell_at"),
        ("jumps", "checkers.rules._jumps"),
        ("jumpers", "checkers.rules.captures_of"),
        ("captures", "checkers.rules.captures_of"),
        ("step_dirs", "checkers.rules.steps_of"),
        ("steps", "checkers.rules.steps_of"),
        ("has_step", "checkers.rules.has_step"),
        ("moves", "checkers.rules.Checkers.legal_moves"),
        ("c_gen", "checkers.rules.Checkers.legal_moves"),
        ("c_count", "checkers.rules.Checkers.legal_moves"),
        ("ended", "checkers.rules.Checkers._ended"),
        ("repetitions", "checkers.rules.Checkers._by_count"),
        ("by_count", "checkers.rules.Checkers._by_count"),
        ("c_apply", "checkers.rules.Checkers.apply"),
        ("c_outcome", "checkers.rules.Checkers.outcome"),
        ("c_hash", "checkers.rules.Checkers.position_key"),
        ("side_score", "checkers.evaluate._side"),
        ("mobility", "checkers.evaluate._mobility"),
        ("c_evaluate", "checkers.evaluate.evaluate"),
        ("c_hint", "checkers.evaluate.order_hint"),
        ("c_noisy", "checkers.evaluate.noisy_moves"),
        ("c_squares", "checkers.board.VIEW.pieces"),
        ("c_path", "checkers.board.VIEW.clicks.legs"),
        ("c_to_move", "checkers.rules.Checkers.to_move"),
    ),
    "alquerque.c": (
        ("alquerque_init", "alquerque.rules._tables"),
        ("chains", "alquerque.rules._chains"),
        ("captures", "alquerque.rules.captures_of"),
        ("step_dirs", "alquerque.rules.steps_of"),
        ("goes_back", "alquerque.rules.steps_of"),
        ("steps", "alquerque.rules.steps_of"),
        ("has_move", "alquerque.rules.has_move"),
        ("moves", "alquerque.rules.Alquerque._moves"),
        ("a_gen", "alquerque.rules.Alquerque.legal_moves"),
        ("a_count", "alquerque.rules.Alquerque.legal_moves"),
        ("over", "alquerque.rules.Alquerque.outcome"),
        ("a_apply", "alquerque.rules.Alquerque.apply"),
        ("a_outcome", "alquerque.rules.Alquerque.outcome"),
        ("a_hash", "alquerque.rules.Alquerque.position_key"),
        ("side", "alquerque.evaluate._side"),
        ("pressure", "alquerque.evaluate.pressure"),
        ("a_evaluate", "alquerque.evaluate.evaluate"),
        ("a_hint", "alquerque.evaluate.order_hint"),
        ("a_noisy", "alquerque.evaluate.noisy_moves"),
        ("a_draw_value", "alquerque.evaluate.draw_value"),
        ("a_squares", "alquerque.board.VIEW.pieces"),
        ("a_path", "alquerque.board.VIEW.clicks.legs"),
        ("a_to_move", "alquerque.rules.Alquerque.to_move"),
    ),
    "chinese_checkers.c": (
        ("chinese_checkers_init", "chinese_checkers.rules._hop_table"),
        ("lines_of", "chinese_checkers.rules.hops_from"),
        ("hops_from", "chinese_checkers.rules.hops_from"),
        ("steps_from", "chinese_checkers.rules.steps_from"),
        ("targets_from", "chinese_checkers.rules.targets_from"),
        ("x_gen", "chinese_checkers.rules.ChineseCheckers.legal_moves"),
        ("x_count", "chinese_checkers.rules.ChineseCheckers._moves"),
        ("x_apply", "chinese_checkers.rules.ChineseCheckers.apply"),
        ("decided", "chinese_checkers.rules.ChineseCheckers._decided"),
        ("x_outcome", "chinese_checkers.rules.ChineseCheckers.outcome"),
        ("x_hash", "chinese_checkers.rules.ChineseCheckers.position_key"),
        ("side", "chinese_checkers.evaluate._side"),
        ("x_evaluate", "chinese_checkers.evaluate.evaluate"),
        ("x_hint", "chinese_checkers.evaluate.order_hint"),
        ("x_squares", "chinese_checkers.board.VIEW.pieces"),
        ("x_path", "chinese_checkers.board.VIEW.clicks.legs"),
        ("x_to_move", "chinese_checkers.rules.ChineseCheckers.to_move"),
    ),
    "halma.c": (
        ("halma_init", "halma.rules._further"),
        ("steps_from", "halma.rules.steps_from"),
        ("hop_chains", "halma.rules.hop_paths"),
        ("hop_table", "halma.rules.hops_from"),
        ("hops_from", "halma.rules.hops_from"),
        ("allowed", "halma.rules.allowed"),
        ("reach", "halma.rules.reach"),
        ("destinations", "halma.rules.destinations"),
        ("has_crossed", "halma.rules.has_crossed"),
        ("decided", "halma.rules.Halma._decided"),
        ("h_gen", "halma.rules.Halma.legal_moves"),
        ("h_count", "halma.rules.destinations"),
        ("h_apply", "halma.rules.Halma.apply"),
        ("h_outcome", "halma.rules.Halma.outcome"),
        ("h_hash", "halma.rules.Halma.position_key"),
        ("side", "halma.evaluate._side"),
        ("h_evaluate", "halma.evaluate.evaluate"),
        ("h_hint", "halma.evaluate.order_hint"),
        ("h_squares", "halma.board.VIEW.pieces"),
        ("h_path", "halma.board.VIEW.clicks.legs"),
        ("h_to_move", "halma.rules.Halma.to_move"),
    ),
}
"""Which function of each game's compiled kernel (``csrc/GAME.c``) mirrors which
Python function (under ``arbiter.games``): a change to one is a change to both, and
``tests/test_core.py`` holds the two to each other along random games, long games
and rare positions. Every function of a kernel file is here or in :data:`PLUMBING`
(a test checks that both names exist)."""

PLUMBING: dict[str, tuple[str, ...]] = {
    "votey.c": (
        "popcount",
        "read_board",
        "read_sides",
        "py_moves_from",
        "py_has_move",
        "py_connected",
    ),
    "checkers.c": ("pop32", "cells_before"),
    "alquerque.c": ("shift",),
    "chinese_checkers.c": ("cell_at", "pop128", "low128"),
    "halma.c": (
        "band",
        "bor",
        "bandnot",
        "count",
        "pop_low",
        "clear",
        "empty",
        "has",
        "set",
        "shift_by",
        "py_halma_moves",
    ),
}
"""Kernel functions with no Python twin: bit arithmetic on wide boards, and the
bindings that hand Python a kernel's helpers."""
