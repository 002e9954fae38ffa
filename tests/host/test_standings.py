"""The standings are computed away from requests and shared: a page or a stream
takes the latest table at once, and only a refresh (the server's background work,
after news) computes one, from the tallies, its fit started from the last."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from arbiter.host.models import Setting
from arbiter.host.rounds import finish_round_if_done, make_round
from arbiter.host.standings import Board
from tests.host.contests import play_round, seeded


def test_pages_read_the_latest_table_and_only_a_refresh_computes_one(tmp_path: Path) -> None:
    db, config = seeded(tmp_path, f"sqlite:///{tmp_path / 'cup.db'}", ("alice", "bob", "carol"))
    board = Board(config, db.session)
    first = board.latest()  # a server's first table, before any refresh
    for _ in range(5):
        assert board.latest() == first and board.payload() == first[1]
    assert board.computed == 1 and json.loads(first[1])["games"] == 0
    with db.session() as s:
        make_round(s, config)
    play_round(db, config)
    assert board.latest() == first  # no refresh yet: the old table, at once
    number, text = board.refresh()
    assert number == first[0] + 1 and json.loads(text)["games"] > 0
    assert board.latest() == (number, text) and board.computed == 2
    data = board.data()
    data["rows"] = []  # a caller's copy: the shared payload is untouched
    assert json.loads(board.payload())["rows"]


def test_a_page_gets_the_last_table_at_once_while_one_is_computed(tmp_path: Path) -> None:
    db, config = seeded(tmp_path, f"sqlite:///{tmp_path / 'cup.db'}", ("alice", "bob"))
    board = Board(config, db.session)
    first = board.refresh()
    got: list[tuple[int, str]] = []
    with board._lock:  # a refresh under way
        asking = threading.Thread(target=lambda: got.append(board.latest()))
        asking.start()
        asking.join(timeout=10)
        assert not asking.is_alive(), "a page queued behind the refresh"
    assert got == [first]


def test_a_frozen_table_is_what_the_organiser_froze(tmp_path: Path) -> None:
    db, config = seeded(tmp_path, f"sqlite:///{tmp_path / 'cup.db'}", ("alice", "bob"))
    board = Board(config, db.session)
    with db.session() as s:
        make_round(s, config)
    play_round(db, config)
    with db.session() as s:
        finish_round_if_done(s, 1)
        s.merge(Setting(key="frozen", value=json.dumps({"rows": [], "games": 0})))
        s.commit()
    assert json.loads(board.refresh()[1]) == {"rows": [], "games": 0, "frozen": True}
    with db.session() as s:
        s.delete(s.get(Setting, "frozen"))
        s.commit()
    assert json.loads(board.refresh()[1])["games"] == 2
