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
    assert str(e).startswith("+inf (score 1.000, at least +")
    # and a side that scored nothing is minus infinity, not "inf"
    assert str(elo_difference(0, 0, 40)).startswith("-inf (score 0.000, at most -")


def test_an_even_score_prints_as_plus_zero() -> None:
    # a score a hair under one half rounds to zero Elo: never "-0 ± ..."
    assert str(elo_difference(2, 1, 2)).startswith("+0 ± ")
    assert str(elo_difference(1000, 1, 1001)).startswith("+0 ± ")


def test_the_interval_with_draws_is_the_trinomial_one_by_value() -> None:
    """20 wins, 10 draws, 10 losses, computed by hand: the score is 25/40 = 0.625;
    the per-game variance (20 * 0.375^2 + 10 * 0.125^2 + 10 * 0.625^2) / 40 =
    6.875 / 40 = 0.171875, its standard error sqrt(0.171875 / 40) = 0.0655506; the
    score's interval 0.625 -/+ 1.959964 * 0.0655506 = 0.496522 .. 0.753478, and in Elo
    -400 log10(1/s - 1): +88.74 for the score, -2.42 .. +194.08. Without the draws'
    term the variance would be 6.71875 / 40 and the interval -1.40 .. +192.71."""
    e = elo_difference(20, 10, 10)
    assert e.score == 0.625 and e.games == 40
    assert e.elo == pytest.approx(88.74, abs=0.01)
    assert e.low == pytest.approx(-2.42, abs=0.01)
    assert e.high == pytest.approx(194.08, abs=0.01)
    assert str(e) == "+89 ± 98"
