"""Who meets whom in a round: everyone (round robin), Swiss, or a ladder's placement.

Swiss pairs players of like score who have not met, as CodeCup did. The pairing is a
maximum-weight matching on the graph of pairs (Edmonds' blossom algorithm, from
networkx), which is how pairing programs avoid the dead ends of pairing top-down by
hand: a pair that already met is left out while a pairing without rematches exists,
and among those the one with the smallest score differences (squared, so one large
gap costs more than two small ones) is taken, the leaders meeting each other. Every
pairing plays both colours, so colours need no balancing. With an odd number of
players, the lowest-placed who has had the fewest byes sits out and is credited a
win (Swiss practice).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations

import networkx as nx


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
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(order)
    rank = {p: i for i, p in enumerate(order)}
    spread = max(scores.get(p, 0.0) for p in order) - min(scores.get(p, 0.0) for p in order)
    worst = (spread + 1) ** 2 * len(order) + 1  # more than every score gap together
    for a, b in combinations(order, 2):
        gap = (scores.get(a, 0.0) - scores.get(b, 0.0)) ** 2
        rematch = met.get(frozenset((a, b)), 0)
        # the weight: no rematch first, then small gaps; among equals, neighbours in
        # the standings (a tiny term) so the order of the table decides ties
        weight = 1e6 * worst * (rematch == 0) + worst - gap - abs(rank[a] - rank[b]) * 1e-6
        graph.add_edge(a, b, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = [(a, b) if rank[a] < rank[b] else (b, a) for a, b in matching]
    return sorted(pairs, key=lambda p: rank[p[0]]), bye


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
