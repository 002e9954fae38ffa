"""Halma on a 16x16 board with 19-piece camps, as the contest's agents played it
(``input.txt`` in, ``output.txt`` out, once per move)."""

from __future__ import annotations

from pathlib import Path

from arbiter.contract import MAX_PLIES, Check, GameSpec, PlayerSide, RefereeSide
from arbiter.games.halma import contest, evaluate, notation
from arbiter.games.halma.rules import Halma, Move, State
from arbiter.layout import BoardView


def _player_side() -> PlayerSide[State, Move]:
    from arbiter.games.halma import player

    return player


def _referee_side() -> RefereeSide[State, Move]:
    from arbiter.games.halma import referee

    return referee


def _board() -> BoardView[State]:
    from arbiter.games.halma import board

    return board.VIEW


def _probes() -> list[Check]:
    from arbiter.games.halma import probes

    return probes.probes(SPEC)


def _position_file(text: str) -> tuple[State, float] | None:
    from arbiter.games.halma import player

    return player.position_file(text)


SPEC: GameSpec[State, Move] = GameSpec(
    name="halma",
    title="Halma 16x16",
    seat_names=("black", "white"),
    rules=Halma,
    notation=notation,
    contest=contest,
    evaluation=evaluate,
    time_control=contest.TIME_CONTROL,
    supervision=contest.SUPERVISION,
    player_side=_player_side,
    referee_side=_referee_side,
    board=_board,
    probes=_probes,
    position_file=_position_file,
    openings=Path(__file__).parent / "openings.txt",
    opening_plies=6,
    options=(MAX_PLIES,),
    score=contest.score,
)
