"""The results database: games stored once, settings guarded, damage reported."""

from __future__ import annotations

import re

import pytest

from arbiter.errors import ConfigError, Reason
from arbiter.record import GameRecord
from arbiter.tournament.schedule import round_robin
from arbiter.tournament.store import Store

AGENTS = [("alpha", "alphabeta:depth=2"), ("rand", "random")]
SETTINGS = {"format": "round-robin", "rounds": 1, "tc": "st=1", "seed": 0, "openings": 4}


def record(number: int, winner: int | None) -> GameRecord:
    return GameRecord(
        "votey",
        ("alpha", "rand"),
        ("1434", "8171"),
        (0.1, 0.2),
        winner,
        Reason.CONNECTED if winner is not None else Reason.MOVE_LIMIT,
        round=number,
        score=(1.0, 0.0) if winner == 0 else (0.0, 1.0) if winner == 1 else (0.5, 0.5),
    )


def test_games_are_stored_once_and_read_back_after_reopening(tmp_path) -> None:
    path = tmp_path / "results.db"
    games = round_robin(2, 2)
    with Store(path) as store:
        t = store.open("cup", "votey", SETTINGS, AGENTS)
        for p in games[:3]:
            store.add(t.id, p, record(p.number, 0), record(p.number, 0).to_json())
        store.add(t.id, games[0], record(1, 1), record(1, 1).to_json())  # again: ignored
    with Store(path) as store:
        t = store.open("cup", "votey", SETTINGS, AGENTS)
        assert store.played(t.id) == {1, 2, 3}
        stored = list(store.games(t.id))
        assert [g.number for g in stored] == [1, 2, 3]
        assert stored[0].record.winner == 0 and stored[1].seats == (1, 0)
        assert t.agents == ("alpha", "rand")
        assert [x.name for x in store.tournaments()] == ["cup"]


def test_games_under_way_are_noted_until_stored_and_forgotten_on_reopening(tmp_path) -> None:
    path = tmp_path / "results.db"
    games = round_robin(2, 2)
    with Store(path) as store:
        t = store.open("cup", "votey", SETTINGS, AGENTS)
        store.begin(t.id, games[0])
        store.begin(t.id, games[1])
        store.progress(t.id, games[1].number, 17)
        running = store.running(t.id)
        assert [(g.number, g.seats, g.plies) for g in running] == [(1, (0, 1), 0), (2, (1, 0), 17)]
        store.add(t.id, games[0], record(1, 0), record(1, 0).to_json())
        assert [g.number for g in store.running(t.id)] == [2]
    with Store(path) as store:  # a run stopped with game 2 under way, resumed
        t = store.open("cup", "votey", SETTINGS, AGENTS)
        assert store.running(t.id) == [] and store.played(t.id) == {1}


def test_a_changed_setting_or_agent_is_refused_by_name(tmp_path) -> None:
    path = tmp_path / "results.db"
    with Store(path) as store:
        store.open("cup", "votey", SETTINGS, AGENTS)
        with pytest.raises(ConfigError, match=r"started with tc 'st=1', not 'st=2'"):
            store.open("cup", "votey", {**SETTINGS, "tc": "st=2"}, AGENTS)
        with pytest.raises(ConfigError, match="agent 2 was 'rand'"):
            store.open("cup", "votey", SETTINGS, [AGENTS[0], ("greedy", "greedy")])
        said = f"tournament 'cup' in {str(path)!r} is of votey, not checkers"
        with pytest.raises(ConfigError, match=re.escape(said)):
            store.open("cup", "checkers", SETTINGS, AGENTS)
        # a setting one of the two runs has and the other has not is a change too
        with pytest.raises(ConfigError, match=r"started with sprt None, not '0,5'"):
            store.open("cup", "votey", {**SETTINGS, "sprt": "0,5"}, AGENTS)
        with pytest.raises(ConfigError, match=r"started with openings 4, not None"):
            store.open(
                "cup", "votey", {k: v for k, v in SETTINGS.items() if k != "openings"}, AGENTS
            )
        # another name is another tournament in the same file
        other = store.open("cup-2", "votey", {**SETTINGS, "tc": "st=2"}, AGENTS)
        assert store.played(other.id) == set()


def test_a_file_that_is_not_a_database_is_a_config_error(tmp_path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("these are my notes, not a database\n" * 100)
    with pytest.raises(ConfigError, match="not an arbiter results database"):
        Store(path)


def test_a_damaged_record_is_named_and_the_others_are_read(tmp_path) -> None:
    with Store(tmp_path / "results.db") as store:
        t = store.open("cup", "votey", SETTINGS, AGENTS)
        first, second = round_robin(2)[:2]
        store.add(t.id, first, record(1, 0), "{not json")
        store.add(t.id, second, record(2, 1), record(2, 1).to_json())
        assert [g.number for g in store.games(t.id)] == [second.number]
        note = store.damage_note()
        assert note is not None and f"game {first.number} (" in note


def test_a_damaged_database_gives_up_what_it_still_holds(tmp_path) -> None:
    import os
    import subprocess
    import sys

    from arbiter.cli import main

    db = tmp_path / "cup.db"
    argv = ["tournament", "votey", "--agent", "random", "--agent", "random", "--db", str(db)]
    assert main([*argv, "--move-time", "0.01", "--rounds", "8"]) == 0  # 16 games
    size = db.stat().st_size
    with open(db, "r+b") as f:  # garbage in the middle of the file
        f.seek(size // 2)
        f.write(os.urandom(3000))
    for command in (["report", str(db)], ["export", str(db), "-o", str(tmp_path / "g.jsonl")]):
        done = subprocess.run(
            [sys.executable, "-m", "arbiter.cli", *command], capture_output=True, text=True
        )
        assert "Traceback" not in done.stderr, done.stderr
        assert done.returncode == 1 and "is damaged:" in done.stderr and "game " in done.stderr
    salvaged = (tmp_path / "g.jsonl").read_text().splitlines()
    assert 0 < len(salvaged) < 16


def test_a_locked_database_is_said_to_be_locked(tmp_path, monkeypatch) -> None:
    import sqlite3

    from arbiter.errors import ConfigError
    from arbiter.tournament import store

    path = tmp_path / "cup.db"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE x (y)")
    holder.execute("BEGIN EXCLUSIVE")  # another program holds it (not in WAL mode yet)
    monkeypatch.setattr(store, "LOCK_WAIT", 0.2)
    with pytest.raises(ConfigError, match="is locked by another process"):
        store.Store(path)
    holder.rollback()
    holder.close()
