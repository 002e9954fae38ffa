"""The greedy agent: one ply of look-ahead, made safe against what it can see at once.

A plain one-ply greedy player walks into captures: in checkers it moves a man next
to an enemy man and loses it the next move, and so scores below random play. This
one looks one ply ahead and then settles the position: it plays out the forced
moves the game's evaluation lists (compulsory captures, each side taking its best)
before it scores, and it never makes a move after which the opponent wins at once
if it has any other. So it sees every exchange it starts or allows, and nothing
deeper: a step between random play and alpha-beta search.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Generic, TypeVar

from arbiter.clock import Limit
from arbiter.contract import Evaluation
from arbiter.game import Game, Player

S = TypeVar("S")
M = TypeVar("M", bound=Hashable)

WIN = 1_000_000
SETTLE_PLIES = 8
"""The most forced moves played out before a position is scored."""


class GreedyAgent(Generic[S, M]):
    """Plays a winning move if there is one, else the move whose settled result scores
    best, avoiding moves that let the opponent win at once; ties are broken by the
    seeded random generator, so a seed makes play repeatable."""

    name = "greedy"

    def __init__(self, evaluation: Evaluation[S, M]) -> None:
        self._ev = evaluation
        self._game: Game[S, M] | None = None
        self._rng = random.Random(0)

    def reset(self, game: Game[S, M], seat: Player, seed: int) -> None:
        self._game = game
        self._rng = random.Random(seed)

    def _settled(self, s: S, plies: int) -> int:
        """Scores ``s`` for its side to move after the forced moves are played out."""
        game = self._game
        assert game is not None
        out = game.outcome(s)
        if out is not None:
            if out.winner is None:
                return self._ev.draw_value(s)
            return WIN if out.winner == game.to_move(s) else -WIN
        forced = self._ev.noisy_moves(s)
        if not forced or plies == 0:
            return self._ev.evaluate(s)
        return max(-self._settled(game.apply(s, m), plies - 1) for m in forced)

    def _loses_at_once(self, s: S) -> bool:
        """True when the side to move in ``s`` can win with one move."""
        game = self._game
        assert game is not None
        me = game.to_move(s)
        for m in game.legal_moves(s):
            out = game.outcome(game.apply(s, m))
            if out is not None and out.winner == me:
                return True
        return False

    def _score(self, s: S, m: M) -> float:
        game = self._game
        assert game is not None
        child = game.apply(s, m)
        out = game.outcome(child)
        me = game.to_move(s)
        if out is not None:
            if out.winner is None:
                value = self._ev.draw_value(child)
                return float(value if game.to_move(child) == me else -value)
            return float("inf") if out.winner == me else float("-inf")
        value = self._settled(child, SETTLE_PLIES)
        return float(value if game.to_move(child) == me else -value)

    def choose(self, s: S, limit: Limit) -> M:
        game = self._game
        assert game is not None, "reset() must be called before choose()"
        moves = list(game.legal_moves(s))
        self._rng.shuffle(moves)
        ranked = sorted(moves, key=lambda m: self._score(s, m), reverse=True)
        for m in ranked:
            child = game.apply(s, m)
            if game.outcome(child) is not None or not self._loses_at_once(child):
                return m
        return ranked[0]

    def observe(self, s: S, m: M) -> None:
        pass

    def note(self) -> str:
        return ""

    def halt(self) -> None:
        pass
