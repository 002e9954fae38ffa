"""Halma on a 16x16 board with 19-piece camps, as the contest's agents played it
(``input.txt`` in, ``output.txt`` out, once per move)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arbiter.contract import MAX_PLIES, GameSpec, PlayerSide, RefereeSide
from arbiter.games.halma import contest, evaluate, notation
from arbiter.games.halma.rules import Halma, Move, State


def _position_file(text: str) -> tuple[State, float] | None:
    from arbiter.games.halma import player

    return player.position_file(text)


SPEC: GameSpec[State, Move] = GameSpec.of_folder(
    __name__,
    name="halma",
    title="Halma 16x16",
    seat_names=("black", "white"),
    rules=Halma,
    notation=notation,
    contest=contest,
    evaluation=evaluate,
    position_file=_position_file,
    opening_plies=6,
    options=(MAX_PLIES,),
    score=contest.score,
)


if TYPE_CHECKING:  # mypy holds the two sides of the protocol to the contract
    from arbiter.games.halma import player, referee

    _player: PlayerSide[State, Move] = player
    _referee: RefereeSide[State, Move] = referee
