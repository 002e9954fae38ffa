"""A sixth game is one folder and one registry line: the toy game in ``tests/nim`` (no
compiled kernel, no notation corpus, no probes, openings or kits), registered by the
conftest's one line in ``ARBITER_GAMES``, is played by every part of the platform as
the contests' games are: ``match`` (built-ins and programs), a tournament,
``check-agent``, the browser's API (its browser test is in tests/web) and ``replay``."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from arbiter.cli import main
from arbiter.errors import ConfigError
from arbiter.games import GAMES_VARIABLE, find_game, game_names, outside_games
from arbiter.web.app import create_app
from tests.web.test_api import wait_for

PROGRAM = f"{sys.executable} -m arbiter.cli agent nim"


def test_the_game_is_found_by_its_one_line() -> None:
    assert outside_games() == {"nim": "tests.nim", "connect4": "tests.connect4"}
    assert "nim" in game_names()
    spec = find_game("nim")
    assert spec.title == "Nim" and spec.board is not None
    assert getattr(spec.make(), "compiled", None) is None  # its rules run in Python


def test_a_registry_name_is_kept_as_commands_spell_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # lower case, a dash for an underscore, as the five games' names are written
    monkeypatch.setenv(GAMES_VARIABLE, " Nim_Misere = tests.nim ,")
    assert outside_games() == {"nim-misere": "tests.nim"}


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("nim", "ARBITER_GAMES: 'nim' is not NAME=PACKAGE"),
        ("go=tests.nowhere", "cannot import the game package 'tests.nowhere'"),
        ("go=tests.runs", "the game package 'tests.runs' has no SPEC"),
    ],
)
def test_a_wrong_registry_line_is_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], value: str, message: str
) -> None:
    monkeypatch.setenv(GAMES_VARIABLE, value)
    with pytest.raises(ConfigError, match=message):
        find_game("go" if "=" in value else "nim")


def test_a_registry_line_that_cannot_load_is_one_line_from_the_command_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # the parser loads the games a command may name: a broken line stops it there
    monkeypatch.setenv(GAMES_VARIABLE, "go=tests.nowhere")
    assert main(["match", "go", "random", "random"]) == 2
    err = capsys.readouterr().err
    assert err == "arbiter: error: cannot import the game package 'tests.nowhere': " + (
        "No module named 'tests.nowhere'\n"
    )


def test_a_match_of_programs_and_built_ins_is_played_and_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "games.jsonl"
    argv = ["match", "nim", PROGRAM, "random", "--games", "2", "--record", str(record)]
    assert main(argv) == 0
    assert "Reasons: no moves 2" in capsys.readouterr().out
    # its own rule option, on built-ins (a program is told no options: it plays 21)
    argv = ["match", "nim", "alphabeta", "random", "--games", "2", "--record", str(record)]
    assert main([*argv, "--stones", "13"]) == 0
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert [r["options"].get("stones") for r in lines] == [None, None, 13, 13]
    assert all(r["reason"] == "no moves" for r in lines)
    # 21 and 13 stones: the first seat wins with perfect play, as the search plays it
    assert lines[0]["winner"] == 0 and lines[2]["winner"] == 0
    assert main(["replay", str(record)]) == 0
    assert "4 of 4 records verified" in capsys.readouterr().out


def test_a_program_playing_badly_loses_by_the_contests_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = f"{PROGRAM} --engine random --fault illegal --fault-ply 1"
    record = tmp_path / "games.jsonl"
    assert main(["match", "nim", bad, "random", "--games", "1", "--record", str(record)]) == 0
    line = json.loads(record.read_text())
    assert (line["winner"], line["reason"]) == (1, "illegal move")


def test_a_tournament_of_the_toy_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "cup.db"
    argv = ["tournament", "nim", "--agent", "alphabeta", "--agent", "random"]
    argv += ["--agent", PROGRAM, "--db", str(db), "--move-time", "0.2"]
    assert main(argv) == 0
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT count(*) FROM games").fetchone()[0] == 6
    capsys.readouterr()
    assert main(["report", str(db), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 6 and sum(line["points"] for line in report["lines"]) == 6


def test_check_agent_passes_the_built_in_and_fails_a_bad_program(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check-agent", "nim", PROGRAM, "--move-time", "1", "--no-burners"]) == 0
    assert "all checks passed" in capsys.readouterr().out
    bad = f"{PROGRAM} --engine random --fault illegal --fault-ply 1"
    assert main(["check-agent", "nim", bad, "--move-time", "1", "--no-burners"]) == 1
    assert "by illegal move" in capsys.readouterr().out


def test_the_browser_api_plays_it_through_its_board() -> None:
    with TestClient(create_app()) as client:
        assert "nim" in [g["name"] for g in client.get("/api/games").json()]
        assert client.get("/api/games/nim/board").status_code == 200
        body = {"game": "nim", "engine": "alphabeta", "move_time": 0.1, "position": "5 1"}
        snap = client.post("/api/sessions", json=body).json()
        sid = snap["id"]
        # the stones a move may start from: leaving 4, 3 or 2 of 5
        assert snap["origins"] == [2, 3, 4] and snap["forced"] is None
        refused = client.post(f"/api/sessions/{sid}/move", json={"clicks": [0]})
        assert refused.status_code == 422 and "not a legal move" in refused.json()["error"]
        client.post(f"/api/sessions/{sid}/move", json={"clicks": [4]})  # leave 4: winning
        after = wait_for(client, sid, lambda s: s["your_turn"] or s["result"])
        assert after["moves"][0]["text"] == "4"
        left = len(after["pieces"])
        assert 1 <= left <= 3 and after["position"] == f"{left} 1"
        assert 0 in after["origins"]  # every stone left can be taken
        client.post(f"/api/sessions/{sid}/move", json={"clicks": [0]})
        after = wait_for(client, sid, lambda s: s["result"] is not None)
        assert after["result"]["winner"] == 0  # the person took the last stone


def test_perft_of_the_toy_game_counts_from_the_position_itself() -> None:
    # a game with no kernel is counted by the Python walk: one sequence of no moves
    from arbiter.perft import perft

    game = find_game("nim").make({"stones": 21})
    assert [perft(game, game.initial(), d) for d in range(4)] == [1, 3, 9, 27]


@pytest.mark.parametrize("package", ["tests.nowhere", "tests.runs"])
def test_a_game_folder_that_is_no_package_is_named(package: str) -> None:
    from arbiter.contract import GameSpec

    nim = find_game("nim")
    with pytest.raises(ConfigError, match=f"no game package '{package}'"):
        GameSpec.of_folder(
            package,
            name="go",
            title="Go",
            seat_names=("black", "white"),
            rules=nim.rules,
            notation=nim.notation,
            contest=nim.contest,
            evaluation=nim.evaluation,
        )
