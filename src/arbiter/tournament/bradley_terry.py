"""Ratings for a whole tournament: a maximum-likelihood Bradley-Terry fit over every
game, as Ordo and BayesElo do, with a 95% interval per agent.

Agent ``i`` has strength ``p_i``; it scores against ``j`` with probability
``p_i / (p_i + p_j)``, a draw counting half a win for each. The fit is Hunter's
minorise-maximise iteration (2004), which converges from any start when every
agent has both scored and conceded something. An agent that won or lost every
game has no finite estimate; ``prior`` virtual draws per pair that met (BayesElo's
device) keep every estimate finite, and are reported. Ratings are in Elo
(``400 log10 p``), centred on the agents' mean. Intervals come from the Fisher
information at the fit, under the same centring (the pseudo-inverse of the
information matrix), so they say how well each agent is placed against the field.

>>> r = fit(2, [(0, 1, 1.0)] * 75 + [(0, 1, 0.0)] * 25, prior=0.0)
>>> [round(x.elo, 1) for x in r]
[95.4, -95.4]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

ELO = 400.0 / math.log(10.0)
"""Elo points per unit of natural log-strength."""
Z95 = 1.959964


@dataclass(frozen=True, slots=True)
class Rating:
    """One agent's rating: Elo against the field's mean and its 95% half-width."""

    elo: float
    error: float
    games: int
    points: float

    def __str__(self) -> str:
        return f"{round(self.elo) or 0:+d} ± {self.error:.0f}"


def fit(
    agents: int,
    results: Iterable[tuple[int, int, float]],
    *,
    prior: float = 1.0,
    iterations: int = 10_000,
    tolerance: float = 1e-10,
) -> list[Rating]:
    """Fits ratings to ``results``: (agent a, agent b, a's score 1, 0.5 or 0).

    ``prior`` virtual draws are added between every two agents that met.

    >>> fit(0, [])
    []
    """
    if agents == 0:
        return []
    games = [[0.0] * agents for _ in range(agents)]
    score = [[0.0] * agents for _ in range(agents)]
    for a, b, points in results:
        games[a][b] += 1
        games[b][a] += 1
        score[a][b] += points
        score[b][a] += 1 - points
    played = [sum(row) for row in games]
    earned = [sum(row) for row in score]
    for a in range(agents):
        for b in range(agents):
            if a != b and games[a][b]:
                games[a][b] += prior
                score[a][b] += prior / 2
    wins = [sum(row) for row in score]
    strength = [1.0] * agents
    for _ in range(iterations):
        new = []
        for i in range(agents):
            denominator = sum(
                games[i][j] / (strength[i] + strength[j]) for j in range(agents) if games[i][j]
            )
            new.append(wins[i] / denominator if denominator and wins[i] else 1e-12)
        mean_log = sum(math.log(x) for x in new) / agents
        new = [x / math.exp(mean_log) for x in new]
        change = max(abs(math.log(x / y)) for x, y in zip(new, strength, strict=True))
        strength = new
        if change < tolerance:
            break
    logs = [math.log(x) for x in strength]
    spread = _errors(games, strength)
    return [
        Rating(ELO * logs[i], Z95 * ELO * spread[i], int(played[i]), earned[i])
        for i in range(agents)
    ]


def _errors(games: Sequence[Sequence[float]], strength: Sequence[float]) -> list[float]:
    """Standard errors of the centred log-strengths, from the Fisher information."""
    n = len(strength)
    info = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j and games[i][j]:
                pi, pj = strength[i], strength[j]
                w = games[i][j] * pi * pj / (pi + pj) ** 2
                info[i][j] -= w
                info[i][i] += w
    # pseudo-inverse of a Laplacian-like matrix under centring: (L + J/n)^-1 - J/n
    shifted = [[info[i][j] + 1.0 / n for j in range(n)] for i in range(n)]
    inverse = _invert(shifted)
    if inverse is None:
        return [math.inf] * n
    return [math.sqrt(max(inverse[i][i] - 1.0 / n, 0.0)) for i in range(n)]


def _invert(matrix: Sequence[Sequence[float]]) -> list[list[float]] | None:
    """The inverse by Gauss-Jordan elimination with partial pivoting, or ``None`` when
    singular (agents in two groups that never met)."""
    n = len(matrix)
    a = [[*row, *(1.0 if i == j else 0.0 for j in range(n))] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            return None
        a[col], a[pivot] = a[pivot], a[col]
        lead = a[col][col]
        a[col] = [x / lead for x in a[col]]
        for r in range(n):
            if r != col and a[r][col]:
                factor = a[r][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col], strict=True)]
    return [row[n:] for row in a]


PENTANOMIAL = (0.0, 0.5, 1.0, 1.5, 2.0)


def pentanomial(pairs: Iterable[tuple[float, float]]) -> tuple[int, int, int, int, int]:
    """Counts game pairs by one agent's total over the two games: 0, 0.5, 1, 1.5, 2
    (fishtest's pentanomial counts, LL, LD, DD or WL, WD, WW).

    >>> pentanomial([(1, 1), (1, 0.5), (0, 1), (0.5, 0.5)])
    (0, 0, 2, 1, 1)
    """
    counts = [0] * 5
    for first, second in pairs:
        counts[round(2 * (first + second))] += 1
    return counts[0], counts[1], counts[2], counts[3], counts[4]
