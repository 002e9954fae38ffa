"""One-pile Nim, the toy game that proves a new game is one folder: a pile of stones,
each player in turn takes one, two or three, and whoever takes the last stone wins
(the player left with no stone to take has no move and loses).

A move is a plain integer, the stones left after it: the platform asks nothing of
a move but that it can be hashed and compared."""

from __future__ import annotations

from dataclasses import dataclass

from arbiter.errors import ConfigError
from arbiter.game import Outcome, Player, Reason

MOST_STONES = 60
"""The biggest pile the board shows."""


@dataclass(frozen=True, slots=True)
class State:
    """``pile`` stones left, ``to_move`` the seat to take next, ``ply`` moves made."""

    pile: int
    to_move: Player
    ply: int = 0


class Nim:
    """The rules engine: ``stones`` in the pile at the start."""

    name = "nim"
    num_players = 2

    def __init__(self, stones: int = 21, max_plies: int = 1000) -> None:
        if stones > MOST_STONES:
            raise ConfigError(f"a pile of {stones} stones: at most {MOST_STONES}")
        self.stones = stones
        self.max_plies = max_plies

    def initial(self) -> State:
        return State(self.stones, 0)

    def to_move(self, s: State) -> Player:
        return s.to_move

    def legal_moves(self, s: State) -> list[int]:
        if self.outcome(s) is not None:
            return []
        return sorted(s.pile - take for take in (1, 2, 3) if take <= s.pile)

    def apply(self, s: State, m: int) -> State:
        return State(m, 1 - s.to_move, s.ply + 1)

    def outcome(self, s: State) -> Outcome | None:
        if s.pile == 0:
            return Outcome(1 - s.to_move, Reason.NO_MOVES, "took the last stone")
        if s.ply >= self.max_plies:
            return Outcome(None, Reason.MOVE_LIMIT)
        return None

    def position_key(self, s: State) -> tuple[int, int]:
        return s.pile, s.to_move
