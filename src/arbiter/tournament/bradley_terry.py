"""Ratings for a whole tournament: a maximum-likelihood Bradley-Terry fit over every
game, as Ordo and BayesElo do, with a 95% interval per agent.

Agent ``i`` has log-strength ``t_i``; it scores against ``j`` with probability
``1 / (1 + exp(t_j - t_i))``, a draw counting half a win for each. The fit works on
the games each two agents played and what they scored (:class:`Meeting`), so its
cost follows the pairs that met, never the games: a contest of 100,000 games
between 200 entrants is a few thousand meetings. It is Newton's method on the
log-likelihood, which is concave, with a halving line search, so it reaches its
tolerance in a handful of steps on any graph of meetings, a sparse Swiss one
included (the minorise-maximise iteration it replaces crawled there: thousands of
sweeps without converging); a fit ``start``-ed from the previous table (one result
later) takes one or two. An agent that won or lost every game has no finite
estimate; ``prior`` virtual draws per pair that met (BayesElo's device) keep every
estimate finite, and are reported. Ratings are in Elo (``400 log10 p``), centred on
the agents' mean (each group's own mean, for groups that never met each other).
Intervals come from the Fisher information at the fit, under the same centring
(the pseudo-inverse of the information matrix), so they say how well each agent is
placed against the field; agents in groups that never met have none (infinite).

>>> r = fit(2, [(0, 1, 1.0)] * 75 + [(0, 1, 0.0)] * 25, prior=0.0)
>>> [round(x.elo, 1) for x in r]
[95.4, -95.4]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from threadpoolctl import ThreadpoolController

ELO = 400.0 / math.log(10.0)
"""Elo points per unit of natural log-strength."""
Z95 = 1.959964
LIMIT = 40.0
"""The largest log-strength a fit gives (about 7,000 Elo): without a prior, an agent
that won every game has no finite estimate, and stops here."""


_BLAS: list[ThreadpoolController] = []
"""The process's linear-algebra libraries, found at the first fit."""


def _one_thread() -> AbstractContextManager[object]:
    """A context in which the linear algebra runs in this thread alone: a fit's
    systems are a few hundred unknowns, and a threaded BLAS spinning its threads
    in a server's thread cost three times the fit's own work."""
    if not _BLAS:
        _BLAS.append(ThreadpoolController())
    limited: AbstractContextManager[object] = _BLAS[0].limit(limits=1, user_api="blas")
    return limited


@dataclass(frozen=True, slots=True)
class Rating:
    """One agent's rating: Elo against the field's mean and its 95% half-width."""

    elo: float
    error: float
    games: int
    points: float

    def __str__(self) -> str:
        return f"{round(self.elo) or 0:+d} ± {self.error:.0f}"


@dataclass(frozen=True, slots=True)
class Meeting:
    """What two agents played against each other: ``games`` between ``a`` and ``b``,
    of which ``a`` scored ``score`` (a win 1, a draw ½)."""

    a: int
    b: int
    games: float
    score: float


@dataclass(frozen=True, slots=True)
class Fit:
    """A fit's ratings (by agent number), its log-strengths (to start the next fit
    from), the Newton steps it took and whether it reached its tolerance."""

    ratings: list[Rating]
    strengths: list[float]
    steps: int
    converged: bool


def fit(
    agents: int,
    results: Iterable[tuple[int, int, float]],
    *,
    prior: float = 1.0,
    tolerance: float = 1e-10,
) -> list[Rating]:
    """Fits ratings to ``results``: (agent a, agent b, a's score 1, 0.5 or 0).

    ``prior`` virtual draws are added between every two agents that met.

    >>> fit(0, [])
    []
    """
    met: dict[tuple[int, int], list[float]] = {}
    for a, b, points in results:
        if a > b:
            a, b, points = b, a, 1 - points
        held = met.setdefault((a, b), [0.0, 0.0])
        held[0] += 1
        held[1] += points
    meetings = [Meeting(a, b, n, s) for (a, b), (n, s) in met.items()]
    return fit_meetings(agents, meetings, prior=prior, tolerance=tolerance).ratings


def fit_meetings(
    agents: int,
    meetings: Sequence[Meeting],
    *,
    prior: float = 1.0,
    start: Sequence[float] | None = None,
    tolerance: float = 1e-10,
    steps: int = 200,
) -> Fit:
    """Fits ratings to ``meetings`` (each two agents' games and score; a pair may
    come more than once, or in either order), from the log-strengths ``start``
    (the previous fit's, say) or from even; at most ``steps`` Newton steps, until no
    log-strength moves by ``tolerance``.

    :raises ValueError: for a ``start`` of another length than ``agents``.
    """
    a = np.fromiter((m.a for m in meetings), dtype=np.intp, count=len(meetings))
    b = np.fromiter((m.b for m in meetings), dtype=np.intp, count=len(meetings))
    n = np.fromiter((m.games for m in meetings), dtype=float, count=len(meetings))
    s = np.fromiter((m.score for m in meetings), dtype=float, count=len(meetings))
    return fit_arrays(
        agents, (a, b, n, s), prior=prior, start=start, tolerance=tolerance, steps=steps
    )


def fit_arrays(
    agents: int,
    meetings: tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.float64], NDArray[np.float64]],
    *,
    prior: float = 1.0,
    start: Sequence[float] | None = None,
    tolerance: float = 1e-10,
    steps: int = 200,
) -> Fit:
    """:func:`fit_meetings` of meetings given as arrays: each meeting's two agents,
    its games and the first agent's score.

    :raises ValueError: for a ``start`` of another length than ``agents``.
    """
    with _one_thread():
        return _fit(agents, meetings, prior, start, tolerance, steps)


def _fit(
    agents: int,
    meetings: tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.float64], NDArray[np.float64]],
    prior: float,
    start: Sequence[float] | None,
    tolerance: float,
    steps: int,
) -> Fit:
    if agents == 0:
        return Fit([], [], 0, True)
    a, b, n, s = meetings
    played = np.bincount(a, n, agents) + np.bincount(b, n, agents)
    earned = np.bincount(a, s, agents) + np.bincount(b, n - s, agents)
    if len(a) and prior:  # prior virtual draws per pair that met, however listed
        key = np.minimum(a, b) * agents + np.maximum(a, b)
        pairs, first = np.unique(key, return_index=True)
        a, b = np.concatenate([a, a[first]]), np.concatenate([b, b[first]])
        n = np.concatenate([n, np.full(len(pairs), prior)])
        s = np.concatenate([s, np.full(len(pairs), prior / 2)])
    groups = _groups(agents, a, b)
    theta = np.zeros(agents) if start is None else np.array(start, dtype=float)
    if theta.shape != (agents,):
        raise ValueError(f"start has {theta.shape[0]} strengths for {agents} agents")
    theta = _centred(theta, groups)
    shift = (groups > 0) @ groups.T  # fixes each group's mean: its members' J/size
    taken, converged = 0, False
    likelihood = _likelihood(theta, a, b, n, s)
    while taken < steps:
        p = 1.0 / (1.0 + np.exp(theta[b] - theta[a]))
        gradient = np.bincount(a, s - n * p, agents) - np.bincount(b, s - n * p, agents)
        step = np.linalg.solve(_information(agents, a, b, n * p * (1 - p)) + shift, gradient)
        taken += 1
        size = 1.0
        while True:  # halve until the likelihood does not fall (a concave function)
            trial = _centred(np.clip(theta + size * step, -LIMIT, LIMIT), groups)
            value = _likelihood(trial, a, b, n, s)
            if value >= likelihood - 1e-12 * abs(likelihood) or size < 1e-6:
                break
            size /= 2
        moved = float(np.max(np.abs(trial - theta)))
        theta, likelihood = trial, value
        if moved < tolerance:
            converged = True
            break
    p = 1.0 / (1.0 + np.exp(theta[b] - theta[a]))
    spread = _errors(_information(agents, a, b, n * p * (1 - p)), groups.shape[1])
    ratings = [
        Rating(ELO * float(theta[i]), Z95 * ELO * spread[i], int(played[i]), float(earned[i]))
        for i in range(agents)
    ]
    return Fit(ratings, [float(x) for x in theta], taken, converged)


def _groups(agents: int, a: NDArray[np.intp], b: NDArray[np.intp]) -> NDArray[np.float64]:
    """The groups of agents that met among themselves (connected by games): an
    agents-by-groups matrix whose columns are each group's mean (a member's entry is
    one over its group's size). Labels spread along the meetings, each taking the
    least of its neighbours', until none changes: as many passes as the graph is
    wide, each over every meeting at once."""
    labels = np.arange(agents)
    while True:
        low = np.minimum(labels[a], labels[b])
        spread = labels.copy()
        np.minimum.at(spread, a, low)
        np.minimum.at(spread, b, low)
        spread = spread[spread]  # a label's own label: paths halve each pass
        if np.array_equal(spread, labels):
            break
        labels = spread
    _, group = np.unique(labels, return_inverse=True)
    member = np.zeros((agents, int(group.max()) + 1))
    member[np.arange(agents), group] = 1.0
    means: NDArray[np.float64] = member / member.sum(axis=0)
    return means


def _centred(theta: NDArray[np.float64], groups: NDArray[np.float64]) -> NDArray[np.float64]:
    """``theta`` less its mean over each group."""
    centred: NDArray[np.float64] = theta - (groups > 0) @ (groups.T @ theta)
    return centred


def _likelihood(
    theta: NDArray[np.float64],
    a: NDArray[np.intp],
    b: NDArray[np.intp],
    n: NDArray[np.float64],
    s: NDArray[np.float64],
) -> float:
    gap = theta[a] - theta[b]
    return float(np.sum(s * gap - n * np.logaddexp(0.0, gap)))


def _information(
    agents: int, a: NDArray[np.intp], b: NDArray[np.intp], w: NDArray[np.float64]
) -> NDArray[np.float64]:
    """The Fisher information of the log-strengths: the Laplacian of the meetings,
    each weighted by ``w`` (its games times p q)."""
    flat: NDArray[np.float64] = np.bincount(a * agents + b, w, agents * agents).astype(float)
    flat += np.bincount(b * agents + a, w, agents * agents)
    info: NDArray[np.float64] = -flat.reshape(agents, agents)
    info[np.diag_indices(agents)] = flat.reshape(agents, agents).sum(axis=1)
    return info


def _errors(info: NDArray[np.float64], groups: int) -> list[float]:
    """Standard errors of the centred log-strengths: the pseudo-inverse of the
    information under centring, ``(I + J/n)^-1 - J/n``; none (infinite) when the
    agents are in groups that never met."""
    agents = info.shape[0]
    if groups > 1:
        return [math.inf] * agents
    shifted = info + 1.0 / agents
    try:
        inverse = np.linalg.inv(shifted)
    except np.linalg.LinAlgError:
        return [math.inf] * agents
    return [math.sqrt(max(float(inverse[i, i]) - 1.0 / agents, 0.0)) for i in range(agents)]


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
