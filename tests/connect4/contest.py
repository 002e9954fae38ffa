"""The Connect Four contest's protocol: a program is started as ``PROGRAM 1`` (first)
or ``PROGRAM 2``; each move is one line, its column (``1`` to ``7``); the first seat
writes first; the referee passes each move to the other program and closes both
inputs at the end. One second of CPU a move; the waiting program suspended."""

from __future__ import annotations

from pathlib import Path

from arbiter.clock import TimeControl
from arbiter.contract import Supervision, keep_move, keep_outcome
from arbiter.game import Game, Player
from tests.connect4.notation import format_move, resolve_move
from tests.connect4.rules import State

TIME_CONTROL = TimeControl.per_move_seconds(1)
STARTS_ANYWHERE = False

SUPERVISION = Supervision(
    expose=(str(Path(__file__).resolve().parents[1]),),
    pass_env=("ARBITER_GAMES", "PYTHONPATH"),
)
"""A program run as ``arbiter agent connect4`` imports this folder: it may read the
tests' folder and is told where the game is."""

adjudicate = keep_outcome
comply = keep_move


def judge(game: Game[State, int], s: State, text: str, *, seat: Player) -> int:
    return resolve_move(text, s, seat=seat)


def move_text(game: Game[State, int], s: State, m: int, *, seat: Player) -> str:
    return format_move(m, seat=seat)
