"""The random agent: a uniformly random legal move, repeatable for a given seed."""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Generic, TypeVar

from arbiter.clock import Limit
from arbiter.game import Game, Player

S = TypeVar("S")
M = TypeVar("M", bound=Hashable)


class RandomAgent(Generic[S, M]):
    """Plays a uniformly random legal move; the same seed gives the same choices."""

    name = "random"

    def __init__(self) -> None:
        self._game: Game[S, M] | None = None
        self._rng = random.Random(0)

    def reset(self, game: Game[S, M], seat: Player, seed: int) -> None:
        self._game = game
        self._rng = random.Random(seed)

    def choose(self, s: S, limit: Limit) -> M:
        assert self._game is not None, "reset() must be called before choose()"
        return self._rng.choice(self._game.legal_moves(s))

    def observe(self, s: S, m: M) -> None:
        pass

    def note(self) -> str:
        return ""

    def halt(self) -> None:
        pass
