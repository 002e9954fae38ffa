"""Alquerque on a 7x7 board, as the CodeCup 2008 contest played it."""

from __future__ import annotations

from pathlib import Path

from arbiter.contract import MAX_PLIES, Check, GameSpec, PlayerSide, RefereeSide
from arbiter.games.alquerque import contest, evaluate, notation
from arbiter.games.alquerque.rules import Alquerque, Move, State
from arbiter.layout import BoardView


def _player_side() -> PlayerSide[State, Move]:
    from arbiter.games.alquerque import player

    return player


def _referee_side() -> RefereeSide[State, Move]:
    from arbiter.games.alquerque import referee

    return referee


def _board() -> BoardView[State]:
    from arbiter.games.alquerque import board

    return board.VIEW


def _probes() -> list[Check]:
    from arbiter.games.alquerque import probes

    return probes.probes(SPEC)


SPEC: GameSpec[State, Move] = GameSpec(
    name="alquerque",
    title="Alquerque (CodeCup 2008)",
    seat_names=("white", "black"),
    rules=Alquerque,
    notation=notation,
    contest=contest,
    evaluation=evaluate,
    time_control=contest.TIME_CONTROL,
    supervision=contest.SUPERVISION,
    player_side=_player_side,
    referee_side=_referee_side,
    board=_board,
    probes=_probes,
    openings=Path(__file__).parent / "openings.txt",
    opening_plies=8,
    options=(MAX_PLIES,),
    score=contest.score,
)
