"""Race: a small test game whose second seat numbers the board from its own side.

Ten cells in a row, 0..9. The first seat's two tokens start on 0 and 1 and race
up to 8 and 9; the second seat's start on 8 and 9 and race down to 0 and 1. A
move takes one token one or two cells forward onto an empty cell. A player whose
tokens both stand on its target cells wins; a player with no move loses; the ply
cap draws. It exists to prove the platform's per-seat paths (numbering, clocks,
files) before Chinese checkers and Halma use them.
"""

from __future__ import annotations

from dataclasses import dataclass

from arbiter.game import Outcome, Player, Reason

CELLS = 10
START = (0b11, 0b11 << 8)
TARGET = (START[1], START[0])
FORWARD = (1, -1)


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """A token from cell ``origin`` to cell ``target``."""

    origin: int
    target: int


@dataclass(frozen=True, slots=True)
class State:
    """``pieces[p]``: seat ``p``'s cells as bits."""

    pieces: tuple[int, int]
    to_move: Player
    ply: int = 0


class Race:
    """The rules engine of the test game."""

    name = "race"
    num_players = 2

    def __init__(self, max_plies: int = 1000) -> None:
        self.max_plies = max_plies

    def initial(self) -> State:
        return State(START, 0)

    def to_move(self, s: State) -> Player:
        return s.to_move

    def legal_moves(self, s: State) -> list[Move]:
        if self.outcome(s) is not None:
            return []
        return _moves(s)

    def apply(self, s: State, m: Move) -> State:
        p = s.to_move
        pieces = list(s.pieces)
        pieces[p] ^= (1 << m.origin) | (1 << m.target)
        return State((pieces[0], pieces[1]), 1 - p, s.ply + 1)

    def outcome(self, s: State) -> Outcome | None:
        for p in (0, 1):
            if s.pieces[p] == TARGET[p]:
                return Outcome(p, Reason.ALL_HOME)
        if s.ply >= self.max_plies:
            return Outcome(None, Reason.MOVE_LIMIT, f"{s.ply} plies")
        if not _moves(s):
            return Outcome(1 - s.to_move, Reason.NO_MOVES)
        return None

    def position_key(self, s: State) -> tuple[int, int, int]:
        return (s.pieces[0], s.pieces[1], s.to_move)


def _moves(s: State) -> list[Move]:
    p = s.to_move
    taken = s.pieces[0] | s.pieces[1]
    out = []
    for cell in range(CELLS):
        if not (s.pieces[p] >> cell) & 1:
            continue
        for step in (1, 2):
            to = cell + step * FORWARD[p]
            if 0 <= to < CELLS and not (taken >> to) & 1:
                out.append(Move(cell, to))
    return sorted(out)
