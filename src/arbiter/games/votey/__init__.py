"""Votey Checkers: Lines of Action on 8x8, as the CSSA contest played it."""

from __future__ import annotations

from pathlib import Path

from arbiter.contract import MAX_PLIES, Check, GameSpec, PlayerSide, RefereeSide
from arbiter.games.votey import contest, evaluate, notation
from arbiter.games.votey.rules import Move, State, Votey
from arbiter.layout import BoardView


def _player_side() -> PlayerSide[State, Move]:
    from arbiter.games.votey import player

    return player


def _referee_side() -> RefereeSide[State, Move]:
    from arbiter.games.votey import referee

    return referee


def _board() -> BoardView[State]:
    from arbiter.games.votey import board

    return board.VIEW


def _probes() -> list[Check]:
    from arbiter.games.votey import probes

    return probes.probes(SPEC)


SPEC: GameSpec[State, Move] = GameSpec(
    name="votey",
    title="Votey Checkers",
    seat_names=("black", "white"),
    rules=Votey,
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
    opening_plies=4,
    options=(MAX_PLIES,),
)
