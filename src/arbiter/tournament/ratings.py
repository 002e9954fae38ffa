"""Elo differences with error bars from game scores.

>>> e = elo_difference(30, 5, 5)
>>> round(e.elo), e.games
(255, 40)
"""

from __future__ import annotations

import math
from dataclasses import dataclass


def _elo(score: float) -> float:
    return -400.0 * math.log10(1.0 / score - 1.0)


@dataclass(frozen=True, slots=True)
class EloEstimate:
    """An Elo difference and its 95% confidence interval (``low``, ``high``)."""

    elo: float
    low: float
    high: float
    score: float
    games: int

    def __str__(self) -> str:
        if self.games == 0:
            return "no games"

        def show(x: float) -> str:
            if math.isinf(x):
                return "+inf" if x > 0 else "-inf"
            return f"{round(x) or 0:+d}"

        if math.isinf(self.elo):
            return (
                f"{show(self.elo)} (score {self.score:.3f}, at least {show(self.low)})"
                if (self.elo > 0)
                else f"{show(self.elo)} (score {self.score:.3f}, at most {show(self.high)})"
            )
        half = (self.high - self.low) / 2
        elo = round(self.elo) or 0  # never "-0"
        return f"{elo:+d} ± {half:.0f}"


def elo_difference(wins: int, draws: int, losses: int, z: float = 1.959964) -> EloEstimate:
    """Returns the Elo difference implied by a score, with a ``z`` confidence interval.

    The interval comes from the per-game variance of the score (trinomial model),
    mapped through the logistic Elo curve; at a 0% or 100% score the point
    estimate is infinite and only one bound is finite.
    """
    n = wins + draws + losses
    if n == 0:
        return EloEstimate(0.0, -math.inf, math.inf, 0.5, 0)
    mu = (wins + 0.5 * draws) / n
    var = (wins * (1 - mu) ** 2 + draws * (0.5 - mu) ** 2 + losses * mu**2) / n
    se = math.sqrt(var / n)
    # keep the bounds inside (0, 1): with an all-win score use a one-game pseudo-count
    eps = 1.0 / (2 * n + 2)
    lo_s = min(max(mu - z * se, eps), 1 - eps)
    hi_s = min(max(mu + z * se, eps), 1 - eps)
    if mu >= 1.0:
        return EloEstimate(math.inf, _elo(1 - eps), math.inf, mu, n)
    if mu <= 0.0:
        return EloEstimate(-math.inf, -math.inf, _elo(eps), mu, n)
    return EloEstimate(_elo(mu), _elo(lo_s), _elo(hi_s), mu, n)
