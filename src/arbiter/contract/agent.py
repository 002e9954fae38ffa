"""What an agent is: it chooses moves for one seat within a :class:`~arbiter.clock.Limit`."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Protocol, TypeVar

from arbiter.clock import Limit
from arbiter.game import Game, Player

S = TypeVar("S")
M = TypeVar("M", bound=Hashable)


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
