"""Who meets whom in a round: everyone (round robin), Swiss, or a ladder's placement.

Swiss pairs players of like score who have not met, as CodeCup did. The pairing is a
maximum-weight matching (Edmonds' blossom algorithm, rustworkx's: the algorithm
networkx has, compiled, forty times faster on these graphs), which is how pairing
programs avoid the dead ends of pairing top-down by hand, on a sparse graph:
each player is joined to the :data:`WINDOW` players nearest it in score order either
way whom it has not met (late in a long contest, when most near neighbours have met,
the graph still has a few edges a player). Among the pairings of that graph that pair everyone,
the one with the smallest score differences (squared, so one large gap costs more
than two small ones) is taken, then the one pairing neighbours in the standings (the
leaders meeting each other). A field the window cannot pair without a rematch is
paired on a window twice as wide, and so on up to every pair not yet met; only when
no pairing of the whole field avoids a rematch are rematches allowed, as few as can
be. A dense matching of everyone with everyone, as before, took a minute at 200
entrants; the sparse one takes a few hundredths of a second even after a hundred
rounds, when half the field has met, and the widening keeps
its promise: no pair meets twice while a pairing without it exists. Weights are
whole numbers, so the matching is exact. Every pairing plays both colours (an even
number of games), so colours need no balancing. With an odd number of players, the
lowest-placed who has had the fewest byes sits out and is credited a win (Swiss
practice).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations

import rustworkx as rx

WINDOW = 8
"""How many players not yet met, either way in score order, a player is first joined
to."""


def round_robin(players: Sequence[int]) -> list[tuple[int, int]]:
    """Every pair once."""
    return list(combinations(players, 2))


def swiss(
    players: Sequence[int],
    scores: Mapping[int, float],
    met: Mapping[frozenset[int], int],
    byes: Mapping[int, int],
) -> tuple[list[tuple[int, int]], int | None]:
    """The pairs of a Swiss round and the player with the bye (or None).

    ``players`` are in standing order, best first; ``met`` counts the games each pair
    already played; ``byes`` the byes each player had.

    >>> swiss([1, 2, 3, 4], {1: 2, 2: 2, 3: 0, 4: 0}, {frozenset((1, 2)): 2}, {})
    ([(1, 3), (2, 4)], None)
    """
    order = list(players)
    bye = None
    if len(order) % 2:
        rank = {p: i for i, p in enumerate(order)}
        bye = min(order, key=lambda p: (byes.get(p, 0), scores.get(p, 0.0), -rank[p]))
        order.remove(bye)
    if not order:
        return [], bye
    rank = {p: i for i, p in enumerate(order)}
    by_score = sorted(order, key=lambda p: (-scores.get(p, 0.0), rank[p]))
    cost = _Costs(order, scores, rank)
    window = WINDOW
    while True:
        edges = [
            (a, b, cost.top - cost(a, b))
            for i, a in enumerate(by_score)
            for b in _nearest_unmet(by_score, i, window, met)
        ]
        matching = _matching(order, edges)
        if 2 * len(matching) == len(order):
            break
        if window >= len(order):  # no pairing of everyone avoids a rematch
            matching = _fewest_rematches(order, met, cost)
            break
        window *= 2
    pairs = [(a, b) if rank[a] < rank[b] else (b, a) for a, b in matching]
    return sorted(pairs, key=lambda p: rank[p[0]]), bye


def _nearest_unmet(
    by_score: Sequence[int], at: int, window: int, met: Mapping[frozenset[int], int]
) -> list[int]:
    """The ``window`` players nearest below and the ``window`` nearest above the one
    at ``at`` in score order that it has not met."""
    player = by_score[at]
    found: list[int] = []
    for step in (1, -1):
        taken = 0
        j = at + step
        while 0 <= j < len(by_score) and taken < window:
            other = by_score[j]
            if not met.get(frozenset((player, other)), 0):
                found.append(other)
                taken += 1
            j += step
    return found


class _Costs:
    """What pairing two players costs, in whole numbers: the square of their score
    difference first (in half points, so it is whole), the square of their distance
    in the standings second (never more, over a whole round, than one unit of the
    first; squared, so within a score group the leaders meet each other and the
    top half meets the bottom half when they have met)."""

    def __init__(
        self, order: Sequence[int], scores: Mapping[int, float], rank: Mapping[int, int]
    ) -> None:
        self.scores = {p: round(2 * scores.get(p, 0.0)) for p in order}  # half points
        self.rank = rank
        self.unit = len(order) ** 3
        spread = max(self.scores.values()) - min(self.scores.values())
        self.top = (spread**2 + 1) * self.unit + 1  # more than any one pair's cost

    def __call__(self, a: int, b: int) -> int:
        gap = self.scores[a] - self.scores[b]
        apart = self.rank[a] - self.rank[b]
        return gap * gap * self.unit + apart * apart


def _fewest_rematches(
    order: Sequence[int], met: Mapping[frozenset[int], int], cost: _Costs
) -> set[tuple[int, int]]:
    """A pairing of everyone with the fewest rematches, then the smallest costs: every
    pair joined, a rematch weighing less than all other pairs of a round together."""
    fresh = cost.top * len(order)
    edges = [
        (a, b, (0 if met.get(frozenset((a, b)), 0) > 0 else fresh) + cost.top - cost(a, b))
        for a, b in combinations(order, 2)
    ]
    return _matching(order, edges)


def _matching(order: Sequence[int], edges: Sequence[tuple[int, int, int]]) -> set[tuple[int, int]]:
    """The maximum-weight matching among those of most pairs, of the players ``order``
    joined by ``edges`` (two players and a whole-number weight)."""
    graph: rx.PyGraph[int, int] = rx.PyGraph()
    graph.add_nodes_from(order)
    index = {p: i for i, p in enumerate(order)}
    graph.add_edges_from([(index[a], index[b], weight) for a, b, weight in edges])
    found = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda w: w)
    return {(order[i], order[j]) for i, j in found}


def placement(newcomer: int, rated: Sequence[int], games: int) -> list[tuple[int, int]]:
    """A ladder's placement games for a new version: against the entries nearest the
    middle of the table (``rated``, best first), two games (both colours) each, until
    ``games`` are scheduled.

    >>> placement(9, [1, 2, 3, 4, 5], 4)
    [(9, 3), (9, 2)]
    >>> placement(9, [1, 2, 3], 1)  # one game asked: still an opponent
    [(9, 2)]
    """
    if not rated:
        return []
    middle = len(rated) // 2
    order = sorted(range(len(rated)), key=lambda i: (abs(i - middle), i))
    return [(newcomer, rated[i]) for i in order[: max(1, games // 2)]]
