"""CodeCup's ranking: by contest points, irregular losses (games lost by a fault) as
the first tie-break, then rating; a Swiss bye credited as games won without play in
game points and in contest points alike; disqualified entrants marked; the rule named
on the page. ``rank_by`` chooses game points or rating instead.

The games are made by hand (Alquerque: a win scores 12-0, a drawn game 7 less the
opponent's men each), so every figure below is computed by hand."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from arbiter.errors import ConfigError, Reason
from arbiter.host.config import ContestConfig, from_dict
from arbiter.host.models import Account, Bye, Round
from arbiter.host.ranking import win_without_play
from arbiter.host.standings import standings_data
from tests.host.contests import seeded, stored_game

WIN = (12.0, 0.0)

GAMES = [
    ("alice", "dave", 0, Reason.NO_PIECES, WIN),
    ("alice", "dave", 0, Reason.NO_PIECES, WIN),
    ("alice", "carol", 1, Reason.ILLEGAL_MOVE, (0.0, 12.0)),  # alice's fault
    ("bob", "dave", 0, Reason.NO_PIECES, WIN),
    ("bob", "dave", None, Reason.MOVE_LIMIT, (7.0, 3.0)),
    ("bob", "dave", None, Reason.MOVE_LIMIT, (7.0, 2.0)),
    ("carol", "dave", 0, Reason.NO_MOVES, WIN),
    ("carol", "dave", None, Reason.MOVE_LIMIT, (1.0, 5.0)),
]
"""alice 2 wins 1 loss (irregular): 2 points, 24 contest points; bob 1 win 2 draws: 2
points, 26; carol 2 wins 1 draw: 2.5 points, 25, and a bye of one game: 3.5 points, 37;
dave (disqualified) 0.5 points, 10; erin, a bye of 2 games and no game: 2 points, 24."""


@pytest.fixture
def contest(tmp_path: Path) -> Any:
    names = ("alice", "bob", "carol", "dave", "erin")
    db, config = seeded(tmp_path, f"sqlite:///{tmp_path / 'cup.db'}", names)
    with db.session() as s:
        accounts = {a.name: a for a in s.scalars(select(Account))}
        accounts["dave"].disqualified = True
        rnd = Round(number=1, kind="swiss", state="done")
        s.add(rnd)
        s.flush()
        s.add(Bye(round_id=rnd.id, account_id=accounts["erin"].id, points=2.0))
        s.add(Bye(round_id=rnd.id, account_id=accounts["carol"].id, points=1.0))
        for number, (first, second, winner, reason, score) in enumerate(GAMES, 1):
            stored_game(s, rnd, number, (first, second), winner, reason, score)
        s.commit()
    return db, config


def ranked(contest: Any, rank_by: str) -> dict[str, Any]:
    db, config = contest
    with db.session() as s:
        return standings_data(s, replace(config, rank_by=rank_by))


def contest_file(**settings: Any) -> ContestConfig:
    return from_dict(
        {"game": "alquerque", **settings}, base=Path("."), stem="cup", where="cup.toml"
    )


def test_the_ranking_is_read_from_the_contest_file_and_a_wrong_one_named() -> None:
    assert contest_file().rank_by == "contest"  # CodeCup's, unless the file says
    assert contest_file(rank_by="rating").rank_by == "rating"
    with pytest.raises(ConfigError, match="rank_by"):
        contest_file(rank_by="elo")


def test_a_bye_is_worth_a_win_without_play_in_contest_points() -> None:
    assert win_without_play(contest_file().game) == 12.0  # Alquerque's 12-0


def test_contest_points_rank_first_and_irregular_losses_break_ties(contest: Any) -> None:
    data = ranked(contest, "contest")
    rows = {r["name"]: r for r in data["rows"]}
    assert [r["name"] for r in data["rows"]] == ["carol", "bob", "erin", "alice", "dave"]
    assert (rows["carol"]["contest_points"], rows["carol"]["points"]) == (37.0, 3.5)
    assert rows["bob"]["contest_points"] == 26.0
    # erin and alice both have 24: erin's bye (2 games x 12) has no irregular loss
    assert (rows["erin"]["contest_points"], rows["erin"]["points"]) == (24.0, 2.0)
    assert (rows["alice"]["contest_points"], rows["alice"]["faults"]) == (24.0, 1)
    assert rows["dave"]["disqualified"] and not rows["alice"]["disqualified"]
    assert data["ranking"] == {
        "by": "contest",
        "rule": "contest points, then fewer irregular losses, then rating",
    }
    assert data["contest_scored"]


def test_game_points_rank_when_asked_with_the_same_tie_break(contest: Any) -> None:
    names = [r["name"] for r in ranked(contest, "points")["rows"]]
    assert names[0] == "carol"
    assert names.index("alice") == 3  # 2 points like bob and erin, and 1 irregular loss
    assert names[-1] == "dave"


def test_rating_ranks_when_asked(contest: Any) -> None:
    rows = ranked(contest, "rating")["rows"]
    elos = [r["elo_exact"] for r in rows]
    assert elos == sorted(elos, reverse=True)
    assert ranked(contest, "rating")["ranking"]["rule"].startswith("rating")
