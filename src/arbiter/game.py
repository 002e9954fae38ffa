"""The contract every rules engine meets, and the values shared by all games.

A game is a set of pure functions over immutable states (as in pgx): nothing is
mutated, so states can be shared between threads, processes and search trees.
``apply`` is the trusted fast path (it assumes the move came from
``legal_moves``); :func:`play` is the checked path, written once here.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from arbiter.errors import IllegalMove, Reason

__all__ = ["Game", "Outcome", "Player", "Reason", "play"]

Player = int
"""A seat: 0 moves first, 1 moves second. Not a colour name."""

S = TypeVar("S")
M = TypeVar("M", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the winner (``None`` for a draw), why, and any detail.

    >>> Outcome(0, Reason.CONNECTED).points(0)
    1.0
    >>> Outcome(None, Reason.MOVE_LIMIT).points(1)
    0.5
    """

    winner: Player | None
    reason: Reason
    detail: str = ""

    def points(self, p: Player) -> float:
        """Returns 1, 0.5 or 0: what seat ``p`` scores from this outcome."""
        return 0.5 if self.winner is None else float(self.winner == p)

    def result(self) -> str:
        """Returns ``1-0``, ``0-1`` or ``1/2-1/2`` from the first mover's side."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == 0 else "0-1"


class Game(Protocol[S, M]):
    """A two-player game as pure functions over immutable states ``S`` and moves ``M``."""

    name: str
    num_players: int

    def initial(self) -> S:
        """Returns the start position."""
        ...

    def to_move(self, s: S) -> Player:
        """Returns the seat whose turn it is in ``s``."""
        ...

    def legal_moves(self, s: S) -> Sequence[M]:
        """Returns the legal moves in ``s`` in a deterministic (sorted) order."""
        ...

    def apply(self, s: S, m: M) -> S:
        """Returns the position after ``m``; ``m`` must come from ``legal_moves(s)``."""
        ...

    def outcome(self, s: S) -> Outcome | None:
        """Returns how the game ended in ``s``, or ``None`` while it goes on."""
        ...

    def position_key(self, s: S) -> Hashable:
        """Returns a compact key of the position (pieces and side to move) for tables."""
        ...


def play(game: Game[S, M], s: S, m: M) -> S:
    """Returns the position after ``m``, checking it first.

    :raises IllegalMove: if the game is over or ``m`` is not among the legal moves.
    """
    if game.outcome(s) is not None:
        raise IllegalMove(f"{m} cannot be played in {game.name}: the game is over")
    if m not in game.legal_moves(s):
        raise IllegalMove(f"{m} is not legal in this {game.name} position")
    return game.apply(s, m)
