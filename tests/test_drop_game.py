"""A game of another shape than arbiter's five, from the contract alone: Connect Four
(``tests/connect4``, registered by the conftest's one line), whose moves are columns
and whose cell depends on the position (a drop), and whose full board is an ending of
its own. Every part plays it: ``match`` with built-ins and a program behind the walls,
``tournament``, ``check-agent``, ``replay``, the browser's API through
:class:`~arbiter.contract.layout.Drops`, and the learning environments
(tests/test_envs.py runs every registered game with a board)."""

from __future__ import annotations

import dataclasses
import itertools
import json
import sqlite3
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from arbiter import envs
from arbiter.cli import main
from arbiter.contract.layout import Drops, Layout
from arbiter.errors import ConfigError, RecordError
from arbiter.game import RuleEnd
from arbiter.games import find_game
from arbiter.play.replay import replay
from arbiter.record import GameRecord, record_key
from arbiter.referee.supervision import program_environment
from arbiter.web.app import create_app
from arbiter.web.replays import replay_json
from tests.web.test_api import wait_for

PROGRAM = f"{sys.executable} -m arbiter.cli agent connect4"


def test_a_program_and_the_built_ins_play_it_and_the_records_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "games.jsonl"
    # fixed depths: a timed search would think its second a move, 40 s for two games;
    # a clock of 30 s a move, not the game's 1 s, which a program starting on a busy
    # machine could lose on before its first move
    program = f"{PROGRAM} --depth 4"
    argv = ["match", "connect4", program, "alphabeta:depth=4", "--games", "2"]
    argv += ["--move-time", "30"]
    argv += ["--record", str(record)]
    assert main(argv) == 0
    games = [json.loads(line) for line in record.read_text().splitlines()]
    assert len(games) == 2 and all(g["reason"] in ("connected", "board full") for g in games)
    capsys.readouterr()
    assert main(["replay", str(record)]) == 0
    assert "2 of 2 records verified" in capsys.readouterr().out


def test_check_agent_passes_its_built_in_as_a_program(capsys: pytest.CaptureFixture[str]) -> None:
    program = f"{PROGRAM} --depth 4"  # a fixed depth: quick, and within any clock
    assert main(["check-agent", "connect4", program, "--move-time", "1", "--no-burners"]) == 0
    assert "all checks passed" in capsys.readouterr().out


def test_a_drop_is_clicked_as_the_cell_it_fills() -> None:
    view = find_game("connect4").board_view()
    assert isinstance(view.clicks, Drops)
    with TestClient(create_app()) as client:
        body = {"game": "connect4", "engine": "random", "move_time": 0.1}
        snap = client.post("/api/sessions", json=body).json()
        sid = snap["id"]
        assert snap["pieces"] == {} and snap["origins"] == list(range(7))  # the bottom row
        above = client.post(f"/api/sessions/{sid}/move", json={"clicks": [10]})
        assert above.status_code == 422  # a cell a piece cannot fall to
        assert client.post(f"/api/sessions/{sid}/move", json={"clicks": [3]}).status_code == 200
        after = wait_for(client, sid, lambda s: s["your_turn"] or s["result"])
        assert after["moves"][0]["text"] == "4" and after["pieces"]["3"] == "0"
        # the middle column's next cell is one row up; the engine's drop is listed too
        assert 10 in after["origins"] or after["pieces"].get("10") == "1"


def test_its_environment_numbers_a_drop_as_a_leg_onto_its_cell() -> None:
    env = envs.env("connect4")
    env.reset(seed=1)
    observation, _, _, _, _ = env.last()
    mask = observation["action_mask"]
    assert mask.sum() == 7 and all(mask[c * 42 + c] for c in range(7))
    env.step(3 * 42 + 3)
    observation, _, _, _, _ = env.last()
    assert observation["observation"][..., 1].sum() == 1  # the first seat's piece, theirs now


def test_every_program_is_told_the_outside_games(monkeypatch: pytest.MonkeyPatch) -> None:
    # an organiser's own game's built-in agent behind the walls must find its game,
    # whatever the game's supervision passes on
    monkeypatch.setenv("ARBITER_GAMES", "connect4=tests.connect4")
    monkeypatch.setenv("SECRET", "kept")
    env = program_environment("/w")
    assert env["ARBITER_GAMES"] == "connect4=tests.connect4" and "SECRET" not in env


def test_a_piece_colour_the_board_does_not_draw_is_refused_by_name() -> None:
    with pytest.raises(ConfigError, match="the board draws no 'purple' pieces"):
        Layout("g", 1, 1, "square", (), colours=("red", "purple"))


FULL_BOARD = "441365675334466335442232661515577771217122"
"""Columns (from 1) of a game that fills the board with no four in a row."""


def test_a_full_board_ends_by_the_game_s_own_ending_recorded_replayed_and_explained(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = find_game("connect4")
    game = spec.make()
    s = game.initial()
    for text in FULL_BOARD:
        s = game.apply(s, spec.contest.judge(game, s, text, seat=game.to_move(s)))
    out = game.outcome(s)
    assert out is not None and out.winner is None and out.reason == RuleEnd("board full")
    assert out.reason in spec.endings and not out.reason.is_fault
    assert out.explained() == (
        "1/2-1/2 by board full (every cell is filled and no one has four in a row)"
    )
    record = GameRecord("connect4", ("a", "b"), tuple(FULL_BOARD), (0.0,) * 42, None, out.reason)
    line = record.to_json()
    assert json.loads(line)["reason"] == "board full"
    back = GameRecord.from_json(line)
    assert replay(back) == out  # the name read back is the game's ending
    # the replay page explains it with the game's text, which the record does not carry
    shown = replay_json(back)
    assert (shown["result"]["reason"], shown["result"]["text"]) == ("board full", out.explained())
    # each frame marks the one cell its drop filled, wherever in the column it fell
    frames = shown["frames"]
    for before, after in itertools.pairwise(frames):
        assert after["last"] == [int(c) for c in after["pieces"].keys() - before["pieces"].keys()]
    # an ending read back keeps the detail its record gives, beside the game's text
    noted = dataclasses.replace(back, detail="the last drop in column 2")
    declared = spec.declared(noted.outcome)
    ending = next(e for e in spec.endings if e == out.reason)
    assert (declared.reason.text, declared.detail) == (ending.text, "the last drop in column 2")
    # a record claiming the game's ending where the rules give none is refused
    cut = GameRecord("connect4", ("a", "b"), tuple(FULL_BOARD[:-1]), (0.0,) * 41, None, out.reason)
    with pytest.raises(RecordError, match="by board full"):
        replay(cut)
    path = tmp_path / "full.jsonl"
    path.write_text(back.to_json(record_key()) + "\n")  # sealed, as the referee writes
    assert main(["replay", str(path)]) == 0
    assert "1/2-1/2 by board full" in capsys.readouterr().out


def test_a_game_s_own_ending_is_a_name_apart_from_the_platform_s() -> None:
    with pytest.raises(ValueError, match="one of the platform's reasons"):
        RuleEnd("no moves")
    with pytest.raises(ValueError, match="is not a name"):
        RuleEnd("Board\nFull")
    with pytest.raises(RecordError, match="unknown reason 'Board Full!'"):
        GameRecord.from_json(
            '{"game":"connect4","players":["a","b"],"moves":[],'
            '"winner":null,"reason":"Board Full!"}'
        )
    spec = find_game("connect4")
    with pytest.raises(ConfigError, match="two of its endings share a name"):
        dataclasses.replace(spec, endings=(RuleEnd("board full"), RuleEnd("board full", "x")))


def test_a_tournament_of_it_with_a_program_is_stored_and_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "cup.db"
    argv = ["tournament", "connect4", "--agent", "greedy", "--agent", "random"]
    argv += ["--agent", f"{PROGRAM} --engine random", "--db", str(db), "--move-time", "0.2"]
    assert main(argv) == 0
    with sqlite3.connect(db) as c:
        reasons = {r for (r,) in c.execute("SELECT reason FROM games")}
        assert c.execute("SELECT count(*) FROM games").fetchone()[0] == 6
    assert reasons <= {"connected", "board full"}
    capsys.readouterr()
    assert main(["report", str(db), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 6 and sum(line["points"] for line in report["lines"]) == 6
