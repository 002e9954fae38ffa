"""The standings computed from stored games, on hand-made games whose every column
can be worked out by hand."""

from __future__ import annotations

from arbiter.errors import Reason
from arbiter.record import GameRecord
from arbiter.tournament.report import standings
from arbiter.tournament.store import StoredGame


def game(number: int, seats: tuple[int, int], winner: int | None, score) -> StoredGame:
    reason = Reason.NO_PIECES if winner is not None else Reason.MOVE_LIMIT
    record = GameRecord("alquerque", ("x", "y"), (), (), winner, reason, score=score)
    return StoredGame(number, (number + 1) // 2, seats, record)


def test_contest_points_go_to_the_agent_in_the_seat_that_scored_them() -> None:
    # agent 0 and agent 1 meet twice, seats swapped; CodeCup ties score unevenly
    games = [
        game(1, (0, 1), None, (4.0, 1.0)),  # 0 first: 4 points, 1 second: 1 point
        game(2, (1, 0), None, (6.0, 2.0)),  # 1 first: 6 points, 0 second: 2 points
        game(3, (0, 1), 0, (12.0, 0.0)),  # 0 first wins
    ]
    table = standings("t", "alquerque", ["zero", "one"], games)
    lines = {s.name: s for s in table.lines}
    assert table.contest_scored
    assert lines["zero"].contest_points == 4.0 + 2.0 + 12.0
    assert lines["one"].contest_points == 1.0 + 6.0
    assert (lines["zero"].points, lines["one"].points) == (2.0, 1.0)
    assert (lines["zero"].games, lines["one"].games) == (3, 3)
    assert table.crosstable == ((0.0, 2.0), (1.0, 0.0))
    assert table.meetings == ((0, 3), (3, 0))  # each game counted once, for both
    assert table.reasons == {"move limit": 2, "no pieces": 1}


def test_each_two_agents_pairs_are_counted_from_the_first_named_side() -> None:
    # pairs (1, 2): 0 wins both; (3, 4): split; (5, 6) 2 against 0: 2 wins one, draws one
    games = [
        game(1, (0, 1), 0, None),
        game(2, (1, 0), 1, None),
        game(3, (1, 0), 0, None),
        game(4, (0, 1), 0, None),
        game(5, (2, 0), 0, None),
        game(6, (0, 2), None, None),
        game(7, (1, 2), 0, None),  # a pair not yet complete: left out
    ]
    table = standings("t", "alquerque", ["zero", "one", "two"], games)
    duels = {(d.first, d.second): d.pairs for d in table.duels}
    # zero against one: a pair won 2-0 (score 1) and a pair split 1-1 (½)
    assert duels[("zero", "one")] == (0, 0, 1, 0, 1)
    # zero against two: zero lost one and drew one, ¼
    assert duels[("zero", "two")] == (0, 1, 0, 0, 0)
    assert ("one", "two") not in duels
    stats = table.duels[0].stats
    assert stats.score == 0.75 and stats.draw_ratio() == 0.5
