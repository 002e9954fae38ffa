"""A sequential probability ratio test over game pairs, as fishtest runs it.

Each pair of games (the same start, seats swapped) scores 0, ¼, ½, ¾ or 1 for the
tested agent (the pentanomial counts). Hypotheses are logistic Elo differences:
H0 ``elo0``, H1 ``elo1``. The log-likelihood ratio is the generalised SPRT's normal
approximation (Van den Bergh's, used by fishtest and cutechess):

    LLR = N (s1 - s0) (2 m - s0 - s1) / (2 v)

with ``N`` pairs, ``m`` and ``v`` the mean and variance of the pair scores, and
``s0``, ``s1`` the scores the two hypotheses expect. The test stops at Wald's bounds
``log(beta / (1 - alpha))`` (accept H0) and ``log((1 - beta) / alpha)`` (accept H1).

>>> test = Sprt.parse("0,10")
>>> [round(b, 3) for b in test.bounds]
[-2.944, 2.944]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from arbiter.errors import ConfigError

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
PRIOR = 0.5
"""Pseudo-pairs added to every count: a few pairs alone give a variance near zero and
would end the test at once."""


def expected_score(elo: float) -> float:
    """The score a logistic Elo difference predicts."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


@dataclass(frozen=True, slots=True)
class Sprt:
    """The test: H0 ``elo0`` against H1 ``elo1``, error rates ``alpha`` and ``beta``."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @classmethod
    def parse(cls, text: str) -> Sprt:
        """Reads ``elo0,elo1[,alpha,beta]``.

        :raises ConfigError: naming the text, unless elo0 < elo1 and 0 < alpha, beta < 0.5.
        """
        parts = text.split(",")
        try:
            values = [float(p) for p in parts]
        except ValueError:
            values = []
        if len(values) not in (2, 4) or not all(map(math.isfinite, values)):
            raise ConfigError(f"invalid SPRT {text!r}: expected elo0,elo1[,alpha,beta]")
        test = cls(*values)
        if test.elo0 >= test.elo1:
            raise ConfigError(f"invalid SPRT {text!r}: elo0 must be below elo1")
        if not (0 < test.alpha < 0.5 and 0 < test.beta < 0.5):
            raise ConfigError(f"invalid SPRT {text!r}: alpha and beta lie between 0 and 0.5")
        return test

    @property
    def bounds(self) -> tuple[float, float]:
        """(accept-H0 bound, accept-H1 bound) of the log-likelihood ratio."""
        return (
            math.log(self.beta / (1 - self.alpha)),
            math.log((1 - self.beta) / self.alpha),
        )

    def llr(self, counts: Sequence[int]) -> float:
        """The log-likelihood ratio of the pentanomial ``counts`` (pairs scoring 0, ¼, ½,
        ¾ and 1 for the tested agent)."""
        pairs = sum(counts)
        if pairs == 0:
            return 0.0
        weights = [c + PRIOR for c in counts]
        total = sum(weights)
        mean = sum(w * s for w, s in zip(weights, PAIR_SCORES, strict=True)) / total
        var = sum(w * (s - mean) ** 2 for w, s in zip(weights, PAIR_SCORES, strict=True)) / total
        s0, s1 = expected_score(self.elo0), expected_score(self.elo1)
        return pairs * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)

    def standing(self, counts: Sequence[int]) -> str:
        """``SPRT [elo0, elo1]: LLR x (lower, upper)``: where the test stands after
        ``counts``."""
        lower, upper = self.bounds
        return (
            f"SPRT [{self.elo0:g}, {self.elo1:g}]: LLR {self.llr(counts):.2f} "
            f"({lower:.2f}, {upper:.2f})"
        )

    def decision(self, counts: Sequence[int]) -> str | None:
        """``"H1"`` (the agent is at least ``elo1`` better), ``"H0"`` (not better than
        ``elo0``), or ``None`` to play on."""
        llr = self.llr(counts)
        lower, upper = self.bounds
        if llr >= upper:
            return "H1"
        if llr <= lower:
            return "H0"
        return None
