"""The checkers referee against real misbehaving engines: each fault, its loser and reason."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from arbiter.agents.random import RandomAgent
from arbiter.clock import TimeControl
from arbiter.errors import Reason
from arbiter.games import find_game
from arbiter.games.checkers.protocol import CheckersSeat
from arbiter.record import GameRecord
from arbiter.referee.match import play_game
from arbiter.referee.replay import replay
from arbiter.referee.seat import LocalSeat, Program

from .test_votey_faults import assert_none_alive

SCRIPT = Path(__file__).parent / "agents" / "checkers_script.py"
SPEC = find_game("checkers")


def engine(mode: str, tmp_path: Path) -> CheckersSeat:
    argv = (sys.executable, str(SCRIPT), mode, str(tmp_path / f"{mode}.pids"))
    return CheckersSeat(Program(argv, name=mode))


def run(red, white, move_time: float = 2.0) -> GameRecord:
    tc = TimeControl.per_move_seconds(move_time)
    return asyncio.run(play_game(SPEC, SPEC.make(), [red, white], tc))


def random_white() -> LocalSeat:
    return LocalSeat(RandomAgent(), SPEC.make(), SPEC.referee, seed=3)


@pytest.mark.parametrize(
    ("mode", "reason", "offending"),
    [("illegal", Reason.ILLEGAL_MOVE, "1-5"), ("malformed", Reason.MALFORMED, "9 to 13")],
)
def test_bad_move_loses(tmp_path, mode, reason, offending) -> None:
    record = run(engine(mode, tmp_path), random_white())
    assert (record.winner, record.reason, record.offending) == (1, reason, offending)
    boards = (tmp_path / f"{mode}.pids.boards").read_text().split()
    assert boards[:8] == SPEC.notation.board_rows(SPEC.make().initial())
    assert boards[8:] == ["<eof>"]  # input closed at the end of the game
    assert replay(record) == record.outcome
    assert_none_alive(tmp_path)


def test_slow_engine_loses_on_time(tmp_path) -> None:
    record = run(engine("burn", tmp_path), random_white(), move_time=0.3)
    assert (record.winner, record.reason) == (1, Reason.TIME)
    assert_none_alive(tmp_path)


def test_crash_mid_game_loses(tmp_path) -> None:
    record = run(engine("crash", tmp_path), random_white())
    assert (record.winner, record.reason) == (1, Reason.CRASH)
    assert record.moves[0] == "9-13" and len(record.moves) == 2
    assert "exited with code 2" in record.detail
    assert_none_alive(tmp_path)


def test_white_engine_sees_the_board_after_reds_move(tmp_path) -> None:
    red = LocalSeat(RandomAgent(), SPEC.make(), SPEC.referee, seed=1)
    record = run(red, engine("illegal", tmp_path))
    assert (record.winner, record.reason) == (0, Reason.ILLEGAL_MOVE)
    first = record.moves[0]
    boards = (tmp_path / "illegal.pids.boards").read_text().split()
    game = SPEC.make()
    s = game.apply(game.initial(), SPEC.notation.resolve_move(first, game.initial(), seat=0))
    assert boards[:8] == SPEC.notation.board_rows(s)
