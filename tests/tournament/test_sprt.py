"""The SPRT against hand-computed ratios and on synthetic results."""

from __future__ import annotations

import math
import random

import pytest

from arbiter.errors import ConfigError
from arbiter.tournament.sprt import Sprt, expected_score


def test_the_ratio_is_the_normal_approximation_over_pairs() -> None:
    test = Sprt(0.0, 10.0)
    # 2000 pairs, half scoring 1/2 and half 3/4: mean 0.625, variance 1/64 (the
    # prior's half pair a cell hardly moves them)
    s0, s1 = 0.5, expected_score(10.0)
    expected = 2000 * (s1 - s0) * (2 * 0.625 - s0 - s1) / (2 / 64)
    assert test.llr((0, 0, 1000, 1000, 0)) == pytest.approx(expected, rel=2e-2)
    assert test.llr((0, 0, 0, 0, 0)) == 0.0
    assert test.llr((0, 1000, 0, 1000, 0)) == pytest.approx(
        2000 * (s1 - s0) * (1.0 - s0 - s1) / (2 / 16), rel=2e-2
    )
    # a single pair decides nothing
    assert test.decision((0, 0, 0, 0, 1)) is None


def simulate(test: Sprt, pair_scores: list[float], weights: list[float], seed: int) -> tuple:
    rng = random.Random(seed)
    counts = [0] * 5
    for n in range(1, 100_000):
        counts[int(rng.choices(range(5), weights)[0])] += 1
        decision = test.decision(counts)
        if decision is not None:
            return decision, n
    return None, n


def test_a_clearly_stronger_agent_is_accepted_soon() -> None:
    decision, pairs = simulate(Sprt(0, 10), [], [1, 4, 10, 20, 10], seed=1)
    assert decision == "H1" and pairs < 300


def test_equal_agents_are_rejected_as_often_as_beta_allows() -> None:
    decisions = [simulate(Sprt(0, 10), [], [1, 4, 10, 4, 1], seed=s)[0] for s in range(40)]
    assert None not in decisions
    assert decisions.count("H1") <= 6  # alpha is 5%: about 2 of 40 wrongly accepted


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("5", "expected elo0,elo1"),
        ("10,0", "below elo1"),
        ("5,5", "below elo1"),  # one hypothesis twice: nothing to tell apart
        ("0,5,0.7,0.05", "between 0 and 0.5"),
    ],
)
def test_bad_sprt_text_is_named(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Sprt.parse(text)


def test_wald_bounds_by_value_when_alpha_and_beta_differ() -> None:
    """Sprt(0, 5, alpha 0.01, beta 0.1): accept H0 at log(0.1 / 0.99) = -2.29253,
    accept H1 at log(0.9 / 0.01) = log 90 = 4.49981 (swapping the rates would give
    -4.49981 and 2.29253, the same bounds only when they are equal)."""
    test = Sprt.parse("0,5,0.01,0.1")
    assert test == Sprt(0, 5, 0.01, 0.1)
    lower, upper = test.bounds
    assert lower == pytest.approx(-2.29253, abs=1e-5)
    assert upper == pytest.approx(4.49981, abs=1e-5)
    # a ratio of 3.6 decides nothing yet (it would accept H1 with the rates swapped),
    # and one of -3.6 accepts H0 (it would decide nothing with them swapped)
    ahead, behind = (0, 0, 100, 28, 0), (0, 22, 100, 0, 0)
    assert test.llr(ahead) == pytest.approx(3.565, abs=1e-3)
    assert test.decision(ahead) is None
    assert test.llr(behind) == pytest.approx(-3.614, abs=1e-3)
    assert test.decision(behind) == "H0"


@pytest.mark.parametrize(("side", "decision"), [(1, "H1"), (0, "H0")])
def test_a_ratio_exactly_at_a_bound_decides(
    monkeypatch: pytest.MonkeyPatch, side: int, decision: str
) -> None:
    """Wald's rule stops when the ratio reaches a bound, not only once past it (as
    fishtest's does): a test that played on at the bound would play pairs for nothing."""
    test = Sprt(0, 5)
    at = test.bounds[side]
    monkeypatch.setattr(Sprt, "llr", lambda self, counts: at)
    assert test.decision((0, 0, 1, 0, 0)) == decision
    nudged = math.nextafter(at, 0.0)  # a hair inside: play on
    monkeypatch.setattr(Sprt, "llr", lambda self, counts: nudged)
    assert test.decision((0, 0, 1, 0, 0)) is None
