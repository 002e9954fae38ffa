"""Tournament ratings against hand-computed cases."""

from __future__ import annotations

import math

import pytest

from arbiter.tournament.bradley_terry import ELO, fit, pentanomial
from arbiter.tournament.ratings import elo_difference


def test_two_agents_at_75_percent_are_400_log10_3_apart_with_the_binomial_interval() -> None:
    results = [(0, 1, 1.0)] * 75 + [(0, 1, 0.0)] * 25
    a, b = fit(2, results, prior=0.0)
    assert a.elo - b.elo == pytest.approx(400 * math.log10(3), abs=0.01)  # 190.85
    assert a.elo == pytest.approx(-b.elo)
    # the variance of the log-strength difference is 1 / (n p q); each agent carries
    # half of the difference against the mean of the two
    half_difference = math.sqrt(1 / (100 * 0.75 * 0.25)) / 2
    assert a.error == pytest.approx(1.959964 * ELO * half_difference, rel=1e-6)  # 39.3
    assert (a.games, a.points, b.points) == (100, 75.0, 25.0)
    # the same point estimate as the match's own Elo difference
    assert a.elo - b.elo == pytest.approx(elo_difference(75, 0, 25).elo, abs=0.01)


def test_draws_count_half_and_an_even_score_is_zero() -> None:
    results = [(0, 1, 0.5)] * 10 + [(1, 0, 1.0), (0, 1, 1.0)]
    a, b = fit(2, results, prior=0.0)
    assert a.elo == pytest.approx(0.0, abs=1e-6) == b.elo


def test_three_agents_in_a_chain_are_ordered_and_centred() -> None:
    # 0 beats 1 at 75%, 1 beats 2 at 75%, 0 and 2 never meet
    results = ([(0, 1, 1.0)] * 3 + [(0, 1, 0.0)] + [(1, 2, 1.0)] * 3 + [(1, 2, 0.0)]) * 10
    ratings = fit(3, results, prior=0.0)
    assert sum(r.elo for r in ratings) == pytest.approx(0.0, abs=1e-6)
    assert ratings[0].elo - ratings[1].elo == pytest.approx(400 * math.log10(3), abs=0.01)
    assert ratings[1].elo - ratings[2].elo == pytest.approx(400 * math.log10(3), abs=0.01)
    # the middle agent, who met both, is placed most surely
    assert ratings[1].error < ratings[0].error and ratings[1].error < ratings[2].error


def test_a_clean_sweep_stays_finite_with_the_prior() -> None:
    a, b = fit(2, [(0, 1, 1.0)] * 10)  # one virtual draw
    assert math.isfinite(a.elo) and a.elo > 200
    assert a.elo - b.elo == pytest.approx(400 * math.log10(10.5 / 0.5), abs=0.01)


def test_pentanomial_counts_pairs_by_their_total() -> None:
    assert pentanomial([(0, 0), (0, 0.5), (0.5, 0.5), (1, 0), (1, 0.5), (1, 1)]) == (
        1,
        1,
        2,
        1,
        1,
    )
