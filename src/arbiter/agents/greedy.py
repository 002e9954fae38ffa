"""The greedy agent: the best move one ply deep by the game's evaluation."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from arbiter.agents.base import Limit
from arbiter.game import Game, Player


class GreedyAgent:
    """Plays a winning move if there is one, else the move whose result scores best.

    ``evaluate(s)`` scores a position for the side to move in ``s``; ties are broken
    by the seeded random generator, so a seed makes play repeatable.
    """

    name = "greedy"

    def __init__(self, evaluate: Callable[[Any], int]) -> None:
        self._evaluate = evaluate
        self._game: Game[Any, Any] | None = None
        self._seat: Player = 0
        self._rng = random.Random(0)

    def reset(self, game: Game[Any, Any], seat: Player, seed: int) -> None:
        self._game = game
        self._seat = seat
        self._rng = random.Random(seed)

    def _score(self, s: Any, m: Any) -> float:
        assert self._game is not None
        game = self._game
        child = game.apply(s, m)
        out = game.outcome(child)
        me = game.to_move(s)
        if out is not None:
            if out.winner is None:
                return 0.0
            return float("inf") if out.winner == me else float("-inf")
        value = self._evaluate(child)
        return float(value if game.to_move(child) == me else -value)

    def choose(self, s: Any, limit: Limit) -> Any:
        assert self._game is not None, "reset() must be called before choose()"
        moves = list(self._game.legal_moves(s))
        self._rng.shuffle(moves)
        return max(moves, key=lambda m: self._score(s, m))

    def observe(self, s: Any, m: Any) -> None:
        pass
