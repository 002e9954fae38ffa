"""The greedy agent: one ply of look-ahead, made safe against what it can see at once.

A plain one-ply greedy player walks into captures: in checkers it moves a man next
to an enemy man and loses it the next move, and so scores below random play. This
one looks one ply ahead and then settles the position: it plays out the forced
moves the game's evaluation lists (compulsory captures, each side taking its best)
before it scores, and it never makes a move after which the opponent wins at once
if it has any other. So it sees every exchange it starts or allows, and nothing
deeper: a step between random play and alpha-beta search.

Settling can take long (Alquerque's capture chains branch at every ply: half a
second for one move on an idle machine), so the agent keeps to its time: given a
budget it scores the moves in its shuffled order until half the budget is spent,
measured on the clock the contest charges, and plays the best of those it scored.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from arbiter.clock import Limit
from arbiter.contract import Evaluation
from arbiter.game import Game, Player

S = TypeVar("S")
M = TypeVar("M", bound=Hashable)

WIN = 1_000_000
SETTLE_PLIES = 8
"""The most forced moves played out before a position is scored."""

SAFETY = 0.5
"""The share of its budget a move may take: the rest is for what the agent cannot
see (the referee's message and its reply waiting for the scheduler on a busy
machine)."""
WALL_SAFETY = 0.4
"""The share when the move is charged by the wall clock, which runs on while the
agent's thread waits for a core."""


class _OutOfTime(Exception):
    """Raised inside the scoring when the move's time is spent."""


class GreedyAgent(Generic[S, M]):
    """Plays a winning move if there is one, else the move whose settled result scores
    best, avoiding moves that let the opponent win at once; ties are broken by the
    seeded random generator, so a seed makes play repeatable."""

    name = "greedy"

    def __init__(self, evaluation: Evaluation[S, M]) -> None:
        self._ev = evaluation
        self._game: Game[S, M] | None = None
        self._rng = random.Random(0)
        self._now: Callable[[], float] = time.perf_counter
        self._deadline: float | None = None
        self._wall_deadline: float | None = None

    def _tick(self) -> None:
        """Raises _OutOfTime once the move's time is spent, or the referee's wall stop
        is near (its thread starved on a busy machine)."""
        if self._deadline is not None and self._now() >= self._deadline:
            raise _OutOfTime
        if self._wall_deadline is not None and time.perf_counter() >= self._wall_deadline:
            raise _OutOfTime

    def reset(self, game: Game[S, M], seat: Player, seed: int) -> None:
        self._game = game
        self._rng = random.Random(seed)

    def _settled(self, s: S, plies: int) -> int:
        """Scores ``s`` for its side to move after the forced moves are played out."""
        game = self._game
        assert game is not None
        self._tick()
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
            self._tick()
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
        """The best-scored move that does not let the opponent win at once; with a
        time budget, the best of the moves scored within :data:`SAFETY` of it
        (:data:`WALL_SAFETY` on a wall clock)."""
        game = self._game
        assert game is not None, "reset() must be called before choose()"
        self._now = time.perf_counter if limit.wall else time.thread_time
        budget = limit.budget()
        share = WALL_SAFETY if limit.wall else SAFETY
        self._deadline = None if budget is None else self._now() + budget * share
        stop = limit.answer_by()
        self._wall_deadline = None if stop is None else time.perf_counter() + stop
        moves = list(game.legal_moves(s))
        self._rng.shuffle(moves)
        scored: list[tuple[float, M]] = []
        try:
            for m in moves:
                scored.append((self._score(s, m), m))
        except _OutOfTime:
            if not scored:
                return moves[0]
        # a stable sort: equal scores keep the shuffled order, so a seed decides ties
        ranked = [m for _, m in sorted(scored, key=lambda x: x[0], reverse=True)]
        try:
            for m in ranked:
                child = game.apply(s, m)
                if game.outcome(child) is not None or not self._loses_at_once(child):
                    return m
        except _OutOfTime:
            pass
        return ranked[0]

    def observe(self, s: S, m: M) -> None:
        pass

    def note(self) -> str:
        return ""

    def halt(self) -> None:
        pass
