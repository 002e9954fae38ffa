"""The browser's API for stored games: a record file replayed position by position, a
tournament database's standings with its games under way and each game's replay, and
the clear 4xx answers to bad records and unknown names."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from arbiter.cli import main
from arbiter.record import GameRecord
from arbiter.tournament.store import Store
from arbiter.web.app import create_app


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished alquerque tournament of two agents, two rounds: four games. The
    clock is far beyond what either needs (neither thinks to it), so a loaded machine
    cannot end a game on time before the moves these tests replay."""
    path = tmp_path_factory.mktemp("stored") / "cup.db"
    argv = ["tournament", "alquerque", "--agent", "random", "--agent", "greedy"]
    argv += ["--rounds", "2", "--move-time", "1", "--db", str(path), "--name", "cup"]
    assert main(argv) == 0
    return path


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(str(db))) as c:
        yield c


def records(db: Path) -> list[GameRecord]:
    with Store(db) as store:
        t = store.find("cup")
        assert t is not None
        return [g.record for g in store.games(t.id)]


def test_a_tournament_is_listed_with_its_standings_and_recent_games(
    client: TestClient, db: Path
) -> None:
    assert client.get("/api/tournaments").json() == [
        {"name": "cup", "game": "alquerque", "agents": ["random", "greedy"], "played": 4}
    ]
    data = client.get("/api/tournaments/cup").json()
    assert (data["planned"], data["remaining"], data["running"]) == (4, 0, [])
    lines = {line["name"]: line for line in data["lines"]}
    assert lines["random"]["games"] == lines["greedy"]["games"] == 4
    assert lines["random"]["points"] + lines["greedy"]["points"] == 4
    assert lines["random"]["rating"]["elo"] == pytest.approx(-lines["greedy"]["rating"]["elo"])
    assert [g["number"] for g in data["recent"]] == [4, 3, 2, 1]  # newest first
    assert data["recent"][-1]["players"] == ["random", "greedy"]
    assert data["recent"][-2]["players"] == ["greedy", "random"]  # colours swapped


def test_games_under_way_are_shown_until_they_are_stored(client: TestClient, db: Path) -> None:
    from arbiter.tournament.schedule import round_robin

    with Store(db) as store:
        t = store.find("cup")
        assert t is not None
        extra = round_robin(2, 3)[4]  # a fifth game, as a third round would play it
        store.begin(t.id, extra)
        store.progress(t.id, extra.number, 12)
        try:
            running = client.get("/api/tournaments/cup").json()["running"]
            assert [(g["number"], g["players"], g["plies"]) for g in running] == [
                (5, ["random", "greedy"], 12)
            ]
        finally:
            store.db.execute("DELETE FROM running")


def test_a_tournament_game_replays_every_move(client: TestClient, db: Path) -> None:
    record = records(db)[1]
    data = client.get("/api/tournaments/cup/games/2").json()
    assert data["players"] == list(record.players)
    assert [f["text"] for f in data["frames"][1:]] == list(record.moves)
    assert data["result"]["reason"] == str(record.reason)
    assert data["frames"][0]["pieces"] != data["frames"][-1]["pieces"]
    assert all(f["last"] for f in data["frames"][1:])  # each move's cells, to highlight
    # each frame names the seat that played its move: the first seat's first, in turn
    assert [f["seat"] for f in data["frames"][1:]] == [i % 2 for i in range(len(record.moves))]


def test_a_record_file_replays_and_a_bad_one_is_named_by_line(client: TestClient, db: Path) -> None:
    lines = [r.to_json() for r in records(db)]
    games = client.post("/api/replays", json={"text": "\n".join(lines[:2])}).json()
    assert [len(g["frames"]) - 1 for g in games] == [len(r.moves) for r in records(db)[:2]]

    # a broken line is left out and named; the good ones still replay
    broken = json.loads(lines[0])
    broken["moves"][2] = "a1-a1"
    r = client.post("/api/replays", json={"text": lines[1] + "\n" + json.dumps(broken)})
    assert r.status_code == 200 and len(r.json()) == 1
    assert r.json()[0]["skipped"][0].startswith("line 2: move 3 ('a1-a1') does not replay")
    r = client.post("/api/replays", json={"text": lines[0] + '\n{"game": "votey", "players'})
    skipped = r.json()[0]["skipped"]
    assert skipped == ["line 2: not JSON at column 19: Unterminated string starting"]
    # nothing good: refused, naming the first broken line
    r = client.post("/api/replays", json={"text": "{not json\n" + json.dumps(broken)})
    assert r.status_code == 422 and r.json()["error"].startswith("line 1: not JSON at column 2")
    r = client.post("/api/replays", json={"text": "\n\n"})
    assert r.status_code == 422 and r.json()["error"] == "no game records in the text"


def test_unknown_tournaments_and_games_are_404(client: TestClient, db: Path) -> None:
    r = client.get("/api/tournaments/nope")
    assert r.status_code == 404 and "no tournament 'nope'" in r.json()["error"]
    r = client.get("/api/tournaments/cup/games/99")
    assert r.status_code == 404 and r.json()["error"] == "tournament 'cup' has no finished game 99"


def test_a_server_without_a_database_lists_no_tournaments() -> None:
    with TestClient(create_app()) as c:
        assert c.get("/api/tournaments").json() == []
        assert c.get("/api/tournaments/cup").status_code == 404
