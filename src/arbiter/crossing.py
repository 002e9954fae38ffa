"""The rules engine shared by the crossing games (Chinese checkers, Halma): each side's
pieces are one bitboard, a move takes one piece from ``origin`` to ``target``, and a
side wins by filling the other's home. What differs (the start, the moves, how a
crossing is decided) is each game's own; what they share is here once: the state
packed for the compiled kernel, applying a move, the outcome (decided by the game,
then no legal move), and the position key.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import ClassVar, Generic, Protocol, TypeVar

from arbiter import core
from arbiter.game import Outcome, Player, Reason

_TAIL = struct.Struct("<iiii")


class Position(Protocol):
    """What the shared engine reads of a crossing game's position."""

    @property
    def pieces(self) -> tuple[int, int]: ...
    @property
    def to_move(self) -> Player: ...
    @property
    def ply(self) -> int: ...


class Step(Protocol):
    """What the shared engine reads of a crossing game's move."""

    @property
    def origin(self) -> int: ...
    @property
    def target(self) -> int: ...


S = TypeVar("S", bound=Position)
M = TypeVar("M", bound=Step)


class CrossingRules(Generic[S, M]):
    """A crossing game's engine, less what is the game's own: ``name`` (its kernel's
    too), ``BOARD_BYTES`` (a side's bitboard in the kernel's state), ``position``
    (makes a state from pieces, side to move and ply), ``code`` (a move as the
    kernel's code), and the methods ``initial``, ``legal_moves``, ``_decided`` (the
    result before the no-move test) and ``_can_move`` (the pure path's no-move test).

    Made where the compiled core is in use (:mod:`arbiter.core`), the move lists and
    the no-move test come from C and ``compiled`` lets the search and perft run there
    whole; otherwise every rule is the game's Python.
    """

    name: str
    num_players = 2
    BOARD_BYTES: ClassVar[int]
    position: Callable[[tuple[int, int], Player, int], S]

    @staticmethod
    def code(m: M) -> int:
        """``m`` as the compiled kernel's code."""
        raise NotImplementedError

    def __init__(self, max_plies: int = 1000) -> None:
        self.max_plies = max_plies
        self.compiled = core.compiled_rules(self.name, self.pack, self.code, self.unpack)

    def pack(self, s: S) -> bytes:
        """``s`` as the compiled kernel's state."""
        width = self.BOARD_BYTES
        return (
            s.pieces[0].to_bytes(width, "little")
            + s.pieces[1].to_bytes(width, "little")
            + _TAIL.pack(s.to_move, s.ply, core.ply_cap(self.max_plies), 0)
        )

    def unpack(self, data: bytes) -> S:
        """The state :meth:`pack` made ``data`` of.

        :raises struct.error: if ``data`` is not a packed state's size.
        """
        width = self.BOARD_BYTES
        to_move, ply, _, _ = _TAIL.unpack_from(data, 2 * width)
        first = int.from_bytes(data[:width], "little")
        second = int.from_bytes(data[width : 2 * width], "little")
        return self.position((first, second), to_move, ply)

    def to_move(self, s: S) -> Player:
        return s.to_move

    def apply(self, s: S, m: M) -> S:
        """Returns the position after the (trusted) legal move ``m``."""
        p = s.to_move
        moved = s.pieces[p] & ~(1 << m.origin) | (1 << m.target)
        pieces = (moved, s.pieces[1]) if p == 0 else (s.pieces[0], moved)
        return type(self).position(pieces, 1 - p, s.ply + 1)

    def _decided(self, s: S) -> Outcome | None:
        """The result by the game's own rules and the ply cap, before the no-move test."""
        raise NotImplementedError

    def _can_move(self, s: S) -> bool:
        """True when the side to move has a legal move (the pure path's test)."""
        raise NotImplementedError

    def outcome(self, s: S) -> Outcome | None:
        """Returns the result once decided: by the game's rules (a crossing, the ply
        cap), or no legal move for the side to move (it loses)."""
        decided = self._decided(s)
        if decided is not None:
            return decided
        stuck = self.compiled.lost(s) if self.compiled is not None else not self._can_move(s)
        return Outcome(1 - s.to_move, Reason.NO_MOVES) if stuck else None

    def position_key(self, s: S) -> tuple[int, int, int]:
        """Returns (seat 0's pieces, seat 1's, side to move): equal keys, equal futures
        up to the ply cap."""
        return (s.pieces[0], s.pieces[1], s.to_move)
