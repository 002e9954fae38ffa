"""The results database: games stored once, settings guarded, damage reported."""

from __future__ import annotations

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
            store.add(t.id, p, record(p.round, 0), record(p.round, 0).to_json())
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
        store.progress(t.id, games[1].round, 17)
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
        with pytest.raises(ConfigError, match="is of votey, not checkers"):
            store.open("cup", "checkers", SETTINGS, AGENTS)
        # another name is another tournament in the same file
        other = store.open("cup-2", "votey", {**SETTINGS, "tc": "st=2"}, AGENTS)
        assert store.played(other.id) == set()


def test_a_file_that_is_not_a_database_is_a_config_error(tmp_path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("these are my notes, not a database\n" * 100)
    with pytest.raises(ConfigError, match="not an arbiter results database"):
        Store(path)


def test_a_damaged_record_is_named(tmp_path) -> None:
    with Store(tmp_path / "results.db") as store:
        t = store.open("cup", "votey", SETTINGS, AGENTS)
        store.add(t.id, round_robin(2)[0], record(1, 0), "{not json")
        with pytest.raises(ConfigError, match="game 1 is damaged"):
            list(store.games(t.id))
