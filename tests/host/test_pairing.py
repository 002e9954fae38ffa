"""Swiss pairing: no pair meets twice while another pairing exists, players of like
score meet, the bye goes to the lowest-placed with the fewest byes."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.host import pairing
from arbiter.host.pairing import placement, round_robin, swiss


def test_leaders_meet_each_other_when_they_have_not_met() -> None:
    scores = {1: 4, 2: 4, 3: 2, 4: 2, 5: 0, 6: 0}
    pairs, bye = swiss([1, 2, 3, 4, 5, 6], scores, {}, {})
    assert pairs == [(1, 2), (3, 4), (5, 6)] and bye is None


def test_half_points_from_draws_part_score_groups_whatever_the_standings_order() -> None:
    """The standings order by rating, which need not follow points: the two players on
    half a point (a draw each) meet, and so do the two on none, though the ratings put
    each half-point player beside a pointless one."""
    scores = {1: 0.5, 2: 0.0, 3: 0.5, 4: 0.0}
    pairs, bye = swiss([1, 2, 3, 4], scores, {}, {})
    assert sorted(map(sorted, pairs)) == [[1, 3], [2, 4]] and bye is None


def test_no_rematch_while_a_pairing_without_one_exists() -> None:
    scores = {1: 4, 2: 4, 3: 2, 4: 2}
    met = {frozenset((1, 2)): 2, frozenset((3, 4)): 2}
    pairs, _ = swiss([1, 2, 3, 4], scores, met, {})
    assert not any(frozenset(p) in met for p in pairs)
    assert len(pairs) == 2


def test_the_bye_goes_to_the_lowest_placed_without_a_bye_yet() -> None:
    scores = {1: 4, 2: 2, 3: 0}
    _, bye = swiss([1, 2, 3], scores, {}, {})
    assert bye == 3
    _, bye = swiss([1, 2, 3], scores, {}, {3: 1})
    assert bye == 2


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 14).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.integers(0, 6), min_size=n, max_size=n),
            st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))),
        )
    )
)
def test_every_player_plays_once_and_rematches_are_fewest(
    case: tuple[int, list[int], set[tuple[int, int]]],
) -> None:
    n, points, met_pairs = case
    players = sorted(range(n), key=lambda p: -points[p])
    met = {frozenset(p): 1 for p in met_pairs if p[0] != p[1]}
    pairs, bye = swiss(players, dict(enumerate(points)), met, {})
    seen = Counter(p for pair in pairs for p in pair)
    assert all(count == 1 for count in seen.values())
    assert len(seen) + (bye is not None) == n
    # no pairing of the same players has fewer rematches (brute force on small fields)
    if n <= 8 and bye is None:
        rematches = sum(frozenset(p) in met for p in pairs)
        assert rematches <= min(
            sum(frozenset(p) in met for p in m) for m in _perfect_matchings(players)
        )


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 4), st.data())
def test_score_groups_come_before_standing_distance_over_the_whole_round(
    half: int, data: st.DataObject
) -> None:
    """Pairing joins like scores first: no pairing of the same field (without
    rematches to avoid) has smaller score gaps in all, however far apart in the
    standings its pairs sit. (The standing distance only orders pairings of equal
    gaps: over a whole round it must never outweigh one half point of gap.)"""
    n = 2 * half
    points = data.draw(st.lists(st.integers(0, 6).map(lambda p: p / 2), min_size=n, max_size=n))
    players = data.draw(st.permutations(list(range(n))))  # any standings order

    def gaps(pairs: list[tuple[int, int]]) -> float:
        return sum((points[a] - points[b]) ** 2 for a, b in pairs)

    pairs, bye = swiss(players, dict(enumerate(points)), {}, {})
    assert bye is None
    assert gaps(pairs) == min(gaps(m) for m in _perfect_matchings(players))


def _perfect_matchings(players: list[int]) -> list[list[tuple[int, int]]]:
    if not players:
        return [[]]
    first, rest = players[0], players[1:]
    out = []
    for other in rest:
        left = [p for p in rest if p != other]
        out += [[(first, other), *m] for m in _perfect_matchings(left)]
    return out


def test_round_robin_and_placement() -> None:
    assert round_robin([1, 2, 3]) == list(combinations([1, 2, 3], 2))
    assert placement(9, [], 4) == []
    assert [b for _, b in placement(9, [1, 2, 3, 4, 5, 6], 6)] == [4, 3, 5]


def test_a_window_that_cannot_avoid_a_rematch_is_widened_before_one_is_allowed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Six players in score order, each joined first to the one nearest above and
    below it has not met: 0-4, 1-2, 2-4, 3-4, 4-5, a star on 4 that cannot pair all
    six; yet pairings without a rematch exist, and the widened window finds one."""
    monkeypatch.setattr(pairing, "WINDOW", 1)
    players = list(range(6))
    scores = {p: 6 - p for p in players}
    met = {frozenset(p): 2 for p in ((0, 1), (0, 2), (0, 3), (1, 3), (1, 4), (1, 5), (2, 3))}
    pairs, _ = swiss(players, scores, met, {})
    assert len(pairs) == 3 and not any(frozenset(p) in met for p in pairs)


@settings(max_examples=40, deadline=None)
@given(st.integers(10, 40), st.integers(0, 2**32 - 1))
def test_a_large_field_has_no_more_rematches_than_the_dense_matching(n: int, seed: int) -> None:
    import random

    rng = random.Random(seed)
    players = list(range(n))
    scores = {p: rng.randint(0, 8) / 2 for p in players}
    met = {frozenset(rng.sample(players, 2)): 2 for _ in range(n * 3)}
    pairs, bye = swiss(players, scores, met, {})
    seen = Counter(p for pair in pairs for p in pair)
    assert all(c == 1 for c in seen.values()) and len(seen) + (bye is not None) == n
    field = [p for p in players if p != bye]
    rank = {p: i for i, p in enumerate(field)}
    dense = pairing._fewest_rematches(field, met, pairing._Costs(field, scores, rank))
    assert sum(frozenset(p) in met for p in pairs) == sum(frozenset(p) in met for p in dense)


def test_a_player_is_offered_the_nearest_unmet_on_each_side() -> None:
    by_score = [10, 11, 12, 13, 14, 15, 16]  # best first
    met = {frozenset((13, 14)): 1}  # 13 has met 14: passed over
    assert pairing._nearest_unmet(by_score, 3, 2, met) == [15, 16, 12, 11]
    assert pairing._nearest_unmet(by_score, 0, 2, {}) == [11, 12]  # the leader: below only
