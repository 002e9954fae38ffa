"""How much of its time the search spends: a fixed time per move, which is lost when
not spent, to its deadline; a game clock's budget with a reserve, stopping new
iterations that are unlikely to finish, since what it saves it spends later. The
clock here is a fake that runs on at every look, so nothing depends on the
machine's load."""

from __future__ import annotations

import pytest

from arbiter.agents import alphabeta
from arbiter.agents.registry import make_agent
from arbiter.clock import Limit
from arbiter.games import find_game


class SteadyClock:
    """A ``time`` module for a thread that always has its core: CPU and wall time both
    run on ``step`` seconds at every look."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def thread_time(self) -> float:
        self.now += self.step
        return self.now

    perf_counter = thread_time


def spent(monkeypatch: pytest.MonkeyPatch, limit: Limit) -> float:
    """The seconds the Python search of Votey's opening spends under ``limit``."""
    clock = SteadyClock(step=0.002)
    monkeypatch.setattr(alphabeta, "time", clock)
    spec = find_game("votey")
    game = spec.make()
    engine = make_agent(spec, "alphabeta:pure=1")
    engine.reset(game, 0, 0)
    engine.choose(game.initial(), limit)
    return clock.now


def test_a_fixed_time_per_move_is_spent_to_its_deadline(monkeypatch) -> None:
    used = spent(monkeypatch, Limit(time=1.0))
    deadline = alphabeta.FIXED_SAFETY - alphabeta.RESERVE
    assert deadline - 0.01 <= used <= deadline + 0.01


def test_a_game_clocks_budget_is_spent_with_a_reserve(monkeypatch) -> None:
    # 30 s over 30 moves: a budget of 1 s, as above
    used = spent(monkeypatch, Limit(my_clock=30.0, moves_left=30))
    assert used <= 0.8
