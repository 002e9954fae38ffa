"""What an agent is, and the budget it is given for one move."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Protocol, TypeVar

from arbiter.game import Game, Player

S = TypeVar("S")
M = TypeVar("M", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Limit:
    """What an agent may spend on one move (python-chess ``Limit``).

    ``time`` is a fixed budget for this move; the clock fields describe a whole-game
    clock when the contest has one (``moves_left`` 0: no moves until a new period,
    the agent estimates how many remain). ``wall`` says the contest charges wall
    time, so a search measures its budget on the wall clock rather than in CPU time
    (on a busy machine the two differ). All times are seconds.
    """

    time: float | None = None
    depth: int | None = None
    nodes: int | None = None
    my_clock: float | None = None
    their_clock: float | None = None
    increment: float = 0.0
    moves_left: int = 0
    wall: bool = False

    def budget(self, moves_to_go: int = 30) -> float | None:
        """Returns the seconds to aim for on this move, or ``None`` for no time limit.

        On a clock, the time left is shared over ``moves_left`` moves, or over
        ``moves_to_go`` (the agent's estimate of the moves still to play) in sudden
        death, with 80% of the increment; never more than half of the time left goes
        on one move before the increment, nor more than 80% of it with the increment.

        >>> Limit(time=2.0).budget()
        2.0
        >>> Limit(my_clock=60.0, moves_left=10).budget()
        6.0
        >>> Limit(my_clock=30.0).budget(moves_to_go=1)
        15.0
        """
        if self.time is not None:
            return self.time
        if self.my_clock is None:
            return None
        clock = max(0.0, self.my_clock)
        moves = max(1, self.moves_left or moves_to_go)
        return min(min(clock / moves, clock / 2) + self.increment * 0.8, clock * 0.8)


class Agent(Protocol[S, M]):
    """Chooses moves for one seat of one game; never sees protocols, text or processes."""

    name: str

    def reset(self, game: Game[S, M], seat: Player, seed: int) -> None:
        """Prepares for a new game played from ``seat``; ``seed`` makes choices repeatable."""
        ...

    def choose(self, s: S, limit: Limit) -> M:
        """Returns a legal move for the side to move in ``s`` within ``limit``."""
        ...

    def observe(self, s: S, m: M) -> None:
        """Learns that the opponent played ``m`` in ``s``; may do nothing."""
        ...

    def note(self) -> str:
        """Says what the last ``choose`` did, for onlookers (a search's depth and
        score), or nothing."""
        ...

    def halt(self) -> None:
        """Asks a ``choose`` running in another thread to return at once (its game is
        over, or its time is); a no-op for an agent that never runs long."""
        ...
