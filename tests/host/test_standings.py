"""The standings and rating histories are computed once for each change and shared:
a page or a stream asking again between two pieces of news costs nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arbiter.host import standings
from arbiter.host.db import Database
from arbiter.host.rounds import (
    RatingPoint,
    finish_round_if_done,
    make_round,
    rating_histories,
    rating_history,
)
from arbiter.host.standings import Board
from tests.host.contests import play_round, seeded


def test_the_standings_are_computed_once_per_piece_of_news(tmp_path: Path) -> None:
    db, config = seeded(tmp_path, f"sqlite:///{tmp_path / 'cup.db'}", ("alice", "bob", "carol"))
    news = [0]
    board = Board(config, db.session, lambda: news[0])
    assert board.cached() is None
    first = board.payload()
    for _ in range(5):
        assert board.payload() == first and board.cached() == first
    assert board.computed == 1
    with db.session() as s:
        make_round(s, config)
    play_round(db, config)
    assert json.loads(board.payload())["games"] == 0  # no news yet: the old table
    news[0] += 1
    assert board.cached() is None
    assert json.loads(board.payload())["games"] > 0 and board.computed == 2
    data = board.data()
    data["rows"] = []  # a caller's copy: the shared payload is untouched
    assert json.loads(board.payload())["rows"]


def test_rating_histories_are_fitted_once_per_set_of_finished_rounds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, config = seeded(
        tmp_path, f"sqlite:///{tmp_path / 'cup.db'}", ("alice", "bob", "carol"), kind="round-robin"
    )
    fits = []

    def counted(*args: Any) -> dict[str, list[RatingPoint]]:
        fits.append(args)
        return rating_histories(*args)

    monkeypatch.setattr(standings, "rating_histories", counted)
    board = Board(config, db.session, lambda: 0)
    assert board.history("alice") == []
    with db.session() as s:
        make_round(s, config)
    play_round(db, config)
    with db.session() as s:
        assert finish_round_if_done(s, 1)
        expected = rating_history(s, config, "alice")
    assert len(expected) == 1
    for name in ("alice", "bob", "alice", "carol"):  # many pages, one fit
        board.history(name)
    assert board.history("alice") == expected and len(fits) == 2


def test_a_page_computes_in_its_own_session_and_never_waits_for_a_second(
    tmp_path: Path,
) -> None:
    """With every connection of the pool held by a page (here the pool's only one),
    the standings and ratings still come: a page never asks the pool for more."""
    from sqlalchemy import create_engine
    from sqlalchemy.orm import sessionmaker

    _, config = seeded(tmp_path, f"sqlite:///{tmp_path / 'cup.db'}", ("alice", "bob"))
    engine = create_engine(
        f"sqlite:///{tmp_path / 'cup.db'}", pool_size=1, max_overflow=0, pool_timeout=1
    )
    sessions = sessionmaker(engine)
    board = Board(config, sessions, lambda: 0)
    with sessions() as page:
        page.connection()  # the page's request holds the pool's one connection
        assert board.data(page)["games"] == 0
        assert board.history("alice", page) == []
    engine.dispose()


def test_while_the_table_is_refitted_a_page_gets_the_previous_one_at_once(tmp_path: Path) -> None:
    import threading

    _, config = seeded(tmp_path, f"sqlite:///{tmp_path / 'cup.db'}", ("alice", "bob"))
    db = Database(config.database)
    news = [0]
    board = Board(config, db.session, lambda: news[0])
    first = board.latest()
    news[0] += 1
    got: list[tuple[int, str]] = []
    with board._lock:  # another thread is refitting the table of news 1
        asking = threading.Thread(target=lambda: got.append(board.latest()))
        asking.start()
        asking.join(timeout=10)
        assert not asking.is_alive(), "a page queued behind the refit"
    assert got == [first] and first[0] == 0  # the previous table, saying so
    assert board.latest()[0] == 1  # and the fresh one once the refit is done
