"""Halma on a 16x16 board with 19-piece camps, as the contest's agents played it
(``input.txt`` in, ``output.txt`` out, once per move)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from arbiter.contract import MAX_PLIES, GameSpec, Loader, PlayerSide, RefereeSide
from arbiter.games.halma import contest, evaluate, notation
from arbiter.games.halma.rules import Halma, Move, State


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
    player_side=Loader(f"{__name__}.player"),
    referee_side=Loader(f"{__name__}.referee"),
    board=Loader(f"{__name__}.board", "VIEW"),
    probes=Loader(f"{__name__}.probes", "probes"),
    position_file=_position_file,
    openings=Path(__file__).parent / "openings.txt",
    kits=Path(__file__).parent / "kits",
    opening_plies=6,
    options=(MAX_PLIES,),
    score=contest.score,
)


if TYPE_CHECKING:  # mypy holds the two sides of the protocol to the contract
    from arbiter.games.halma import player, referee

    _player: PlayerSide[State, Move] = player
    _referee: RefereeSide[State, Move] = referee
