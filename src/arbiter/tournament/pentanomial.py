"""Match statistics from game pairs, as fastchess and fishtest print them.

Games are played in pairs (one opening, seats swapped); a pair scores 0, ¼, ½, ¾ or 1
for the first agent, and the five counts (``LL, LD, DD+WL, WD, WW``) are the
pentanomial. Pairs, not games, are the independent trials: an opening that favours one
seat adds to both games of its pair and cancels, so the pentanomial variance is the
honest one (often smaller than the trinomial's, never spuriously so).

With ``N`` pairs, ``p_i`` each count's share and ``s_i`` its score:

- the score ``mu = sum p_i s_i`` and its variance ``var = sum p_i (s_i - mu)**2``,
  so the score's standard error is ``sqrt(var / N)``;
- Elo ``-400 log10(1/mu - 1)``, its 95% interval the Elo of ``mu ± 1.96 sqrt(var/N)``
  (the error printed is half that interval's width);
- normalised Elo (nElo) ``(mu - 0.5) / sqrt(2 var) * 800 / ln 10``: the difference in
  units of its own noise, which does not depend on the draw rate;
- LOS, the likelihood of superiority ``Phi((mu - 0.5) / sqrt(var / N))``;
- the draw ratio, the share of pairs scoring 1-1 (``DD+WL``).

>>> s = PairStats((1, 3, 10, 4, 2))
>>> s.pairs, s.score, round(s.variance, 8)
(20, 0.5375, 0.05796875)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
Z95 = 1.959963984540054


def _elo(score: float) -> float:
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # never -0.0


@dataclass(frozen=True, slots=True)
class PairStats:
    """The statistics of the pentanomial ``counts`` (the first agent's pairs scoring
    0, ¼, ½, ¾ and 1)."""

    counts: tuple[int, int, int, int, int]

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    @property
    def score(self) -> float:
        """The first agent's mean score (0.5 with no pairs)."""
        n = self.pairs
        if n == 0:
            return 0.5
        return sum(c * s for c, s in zip(self.counts, PAIR_SCORES, strict=True)) / n

    @property
    def variance(self) -> float:
        """The variance of one pair's score."""
        n, mu = self.pairs, self.score
        if n == 0:
            return 0.0
        return sum(c * (s - mu) ** 2 for c, s in zip(self.counts, PAIR_SCORES, strict=True)) / n

    def _bounds(self) -> tuple[float, float]:
        half = Z95 * math.sqrt(self.variance / self.pairs) if self.pairs else math.inf
        return self.score - half, self.score + half

    def elo(self) -> tuple[float, float]:
        """The Elo difference and the half-width of its 95% interval."""
        low, high = self._bounds()
        half = (_elo(high) - _elo(low)) / 2
        return _elo(self.score), half if math.isfinite(half) else math.inf

    def nelo(self) -> tuple[float, float]:
        """The normalised Elo difference and the half-width of its 95% interval
        (without spread, every pair scoring alike: 0, or ±inf off an even score)."""
        if self.variance == 0.0:
            return (
                0.0 if self.score == 0.5 else math.copysign(math.inf, self.score - 0.5)
            ), math.inf
        scale = 800.0 / math.log(10) / math.sqrt(2 * self.variance)
        low, high = self._bounds()
        return (self.score - 0.5) * scale, (high - low) / 2 * scale

    def los(self) -> float:
        """The likelihood that the first agent is the stronger (0.5 without spread)."""
        if self.pairs == 0 or self.variance == 0.0:
            return 0.5 if self.score == 0.5 else float(self.score > 0.5)
        z = (self.score - 0.5) / math.sqrt(self.variance / self.pairs)
        return 0.5 * math.erfc(-z / math.sqrt(2))

    def draw_ratio(self) -> float:
        """The share of pairs that scored 1-1."""
        return self.counts[2] / self.pairs if self.pairs else 0.0

    def lines(self, first: str, second: str) -> list[str]:
        """The statistics as a match's summary prints them."""
        if not self.pairs:
            return ["Pentanomial: no complete pair of games yet"]
        elo, err = self.elo()
        nelo, nerr = self.nelo()

        def show(x: float, half: float) -> str:
            if math.isinf(x):
                return f"{'+' if x > 0 else '-'}inf"
            return f"{x:+.1f} ± " + ("inf" if math.isinf(half) else f"{half:.1f}")

        return [
            f"Pentanomial [0, ¼, ½, ¾, 1] for {first}: {list(self.counts)} ({self.pairs} pairs)",
            f"Elo {first} - {second}: {show(elo, err)}, nElo {show(nelo, nerr)} (95%, pentanomial)",
            f"LOS {100 * self.los():.1f}%, draw ratio {100 * self.draw_ratio():.1f}% of pairs",
        ]
