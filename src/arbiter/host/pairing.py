"""Who meets whom in a round: everyone (round robin), Swiss, or a ladder's placement.

Swiss pairs players of like score who have not met, as CodeCup did. The pairing is a
maximum-weight matching (Edmonds' blossom algorithm, from networkx), which is how
pairing programs avoid the dead ends of pairing top-down by hand, on a sparse graph:
each player is joined to the players near it in score order (:data:`WINDOW` places
either way) whom it has not met. Among the pairings of that graph that pair everyone,
the one with the smallest score differences (squared, so one large gap costs more
than two small ones) is taken, then the one pairing neighbours in the standings (the
leaders meeting each other). A field the window cannot pair without a rematch is
paired on a window twice as wide, and so on up to every pair not yet met; only when
no pairing of the whole field avoids a rematch are rematches allowed, as few as can
be. A dense matching of everyone with everyone, as before, took a minute at 200
entrants; the sparse one takes a few hundredths of a second, and the widening keeps
its promise: no pair meets twice while a pairing without it exists. Weights are
whole numbers, so the matching is exact. Every pairing plays both colours (an even
number of games), so colours need no balancing. With an odd number of players, the
lowest-placed who has had the fewest byes sits out and is credited a win (Swiss
practice).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations

import networkx as nx

WINDOW = 8
"""How many places either way in score order a player is first joined to."""


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
        graph: nx.Graph[int] = nx.Graph()
        graph.add_nodes_from(order)
        for i, a in enumerate(by_score):
            for b in by_score[i + 1 : i + 1 + window]:
                if not met.get(frozenset((a, b)), 0):
                    graph.add_edge(a, b, weight=cost.top - cost(a, b))
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if 2 * len(matching) == len(order):
            break
        if window >= len(order):  # no pairing of everyone avoids a rematch
            matching = _fewest_rematches(order, met, cost)
            break
        window *= 2
    pairs = [(a, b) if rank[a] < rank[b] else (b, a) for a, b in matching]
    return sorted(pairs, key=lambda p: rank[p[0]]), bye


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
    graph: nx.Graph[int] = nx.Graph()
    fresh = cost.top * len(order)
    for a, b in combinations(order, 2):
        again = met.get(frozenset((a, b)), 0) > 0
        graph.add_edge(a, b, weight=(0 if again else fresh) + cost.top - cost(a, b))
    found: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
    return found


def placement(newcomer: int, rated: Sequence[int], games: int) -> list[tuple[int, int]]:
    """A ladder's placement games for a new version: against the entries nearest the
    middle of the table (``rated``, best first), two games (both colours) each, until
    ``games`` are scheduled.

    >>> placement(9, [1, 2, 3, 4, 5], 4)
    [(9, 3), (9, 2)]
    """
    if not rated:
        return []
    middle = len(rated) // 2
    order = sorted(range(len(rated)), key=lambda i: (abs(i - middle), i))
    return [(newcomer, rated[i]) for i in order[: max(1, games // 2)]]
