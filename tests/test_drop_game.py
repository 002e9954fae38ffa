"""A game of another shape than arbiter's five, from the contract alone: Connect Four
(``tests/connect4``, registered by the conftest's one line), whose moves are columns
and whose cell depends on the position (a drop). Every part plays it: ``match`` with
built-ins and a program behind the walls, ``check-agent``, ``replay``, the browser's
API through :class:`~arbiter.contract.layout.Drops`, and the learning environments
(tests/test_envs.py runs every registered game with a board)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from arbiter import envs
from arbiter.cli import main
from arbiter.contract.layout import Drops, Layout
from arbiter.errors import ConfigError
from arbiter.games import find_game
from arbiter.referee.supervision import program_environment
from arbiter.web.app import create_app
from tests.web.test_api import wait_for

PROGRAM = f"{sys.executable} -m arbiter.cli agent connect4"


def test_a_program_and_the_built_ins_play_it_and_the_records_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "games.jsonl"
    argv = ["match", "connect4", PROGRAM, "alphabeta", "--games", "2", "--record", str(record)]
    assert main(argv) == 0
    games = [json.loads(line) for line in record.read_text().splitlines()]
    assert len(games) == 2 and all(g["reason"] in ("connected", "no moves") for g in games)
    capsys.readouterr()
    assert main(["replay", str(record)]) == 0
    assert "2 of 2 records verified" in capsys.readouterr().out


def test_check_agent_passes_its_built_in_as_a_program(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-agent", "connect4", PROGRAM, "--move-time", "1", "--no-burners"]) == 0
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
