"""Match scores and Elo estimates."""

from __future__ import annotations

import math

import pytest

from arbiter.errors import Reason
from arbiter.game import Outcome
from arbiter.tournament.ratings import elo_difference
from arbiter.tournament.score import MatchScore


def test_records_per_agent_and_seat() -> None:
    score = MatchScore(("a", "b"))
    score.add(Outcome(0, Reason.CONNECTED), first=0)  # a wins as first mover
    score.add(Outcome(None, Reason.MOVE_LIMIT), first=1)  # draw, b first
    score.add(Outcome(1, Reason.TIME, "2.0s > 1.0s"), first=1)  # a wins as second
    assert score.points == (2.5, 0.5)
    assert score.record(0) == (2, 1, 0) and score.record(1) == (0, 1, 2)
    assert score.record(0, seat=0) == (1, 0, 0) and score.record(0, seat=1) == (1, 1, 0)
    lines = score.summary(("black", "white"))
    assert lines[0] == "a: 2 wins, 1 draws, 0 losses (as black 1-0-0, as white 1-1-0)"
    assert lines[-1] == "Reasons: connected 1, move limit 1, time 1"


def test_elo_is_symmetric_and_zero_at_even_score() -> None:
    assert elo_difference(10, 0, 10).elo == pytest.approx(0)
    up, down = elo_difference(30, 5, 5), elo_difference(5, 5, 30)
    assert up.elo == pytest.approx(-down.elo)
    assert up.low < up.elo < up.high


def test_interval_narrows_with_more_games() -> None:
    few, many = elo_difference(6, 2, 2), elo_difference(60, 20, 20)
    assert few.elo == pytest.approx(many.elo)
    assert many.high - many.low < few.high - few.low


def test_all_wins_give_a_lower_bound_only() -> None:
    e = elo_difference(40, 0, 0)
    assert math.isinf(e.elo) and e.low > 500
    assert str(e).startswith("inf (score 1.000, at least +")


def test_an_even_score_prints_as_plus_zero() -> None:
    # a score a hair under one half rounds to zero Elo: never "-0 ± ..."
    assert str(elo_difference(2, 1, 2)).startswith("+0 ± ")
    assert str(elo_difference(1000, 1, 1001)).startswith("+0 ± ")
