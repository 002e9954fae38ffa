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


def test_the_fit_converges_on_a_sparse_swiss_graph_to_the_maximum_likelihood() -> None:
    """200 entrants, 9 Swiss-like rounds of random pairs (each met at most 9 of 199
    others): the fit reaches its tolerance in a few Newton steps and agrees with a
    reference optimiser (SciPy's L-BFGS on the same likelihood, prior included) to
    within 0.1 Elo; started from its own answer it stops at once."""
    import random

    import numpy as np
    from scipy.optimize import minimize

    from arbiter.tournament.bradley_terry import Meeting, fit_meetings

    rng = random.Random(7)
    n = 200
    true = [rng.gauss(0, 1) for _ in range(n)]
    met: dict[tuple[int, int], list[float]] = {}
    order = list(range(n))
    for _ in range(9):
        rng.shuffle(order)
        for i in range(0, n, 2):
            a, b = sorted(order[i : i + 2])
            p = 1 / (1 + math.exp(true[b] - true[a]))
            for _ in range(2):
                x = rng.random()
                held = met.setdefault((a, b), [0.0, 0.0])
                held[0] += 1
                held[1] += 1.0 if x < 0.8 * p else 0.5 if x < 0.8 * p + 0.2 else 0.0
    meetings = [Meeting(a, b, g, s) for (a, b), (g, s) in met.items()]
    fitted = fit_meetings(n, meetings)
    assert fitted.converged and fitted.steps <= 12
    a = np.array([m.a for m in meetings] * 2)
    b = np.array([m.b for m in meetings] * 2)
    games = np.array([m.games for m in meetings] + [1.0] * len(meetings))  # the prior
    score = np.array([m.score for m in meetings] + [0.5] * len(meetings))

    def loss(t: np.ndarray) -> float:
        gap = t[a] - t[b]
        return float(-np.sum(score * gap - games * np.logaddexp(0, gap)))

    def gradient(t: np.ndarray) -> np.ndarray:
        r = score - games / (1 + np.exp(t[b] - t[a]))
        return -(np.bincount(a, r, n) - np.bincount(b, r, n))

    reference = minimize(
        loss, np.zeros(n), jac=gradient, method="L-BFGS-B", options={"ftol": 1e-15, "gtol": 1e-10}
    ).x
    reference -= reference.mean()
    elo = np.array([r.elo for r in fitted.ratings])
    assert np.max(np.abs(elo - ELO * reference)) < 0.1
    again = fit_meetings(n, meetings, start=fitted.strengths)
    assert again.steps == 1 and again.converged
    assert [r.elo for r in again.ratings] == pytest.approx(list(elo), abs=1e-6)


def test_groups_that_never_met_are_each_centred_and_have_no_interval() -> None:
    ratings = fit(5, [(0, 1, 1.0)] * 3 + [(3, 2, 1.0)] * 3 + [(2, 4, 0.5)] * 2)
    assert ratings[0].elo > 0 and ratings[0].elo + ratings[1].elo == pytest.approx(0, abs=1e-6)
    assert sum(r.elo for r in ratings[2:]) == pytest.approx(0, abs=1e-6)
    assert ratings[3].elo > ratings[4].elo  # 4 drew with 2, whom 3 beat: level with 2
    assert ratings[4].elo == pytest.approx(ratings[2].elo, abs=1e-6)
    assert all(math.isinf(r.error) for r in ratings)  # placed against no common field
