"""Votey Checkers: Lines of Action on 8x8, as the CSSA contest played it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arbiter.contract import MAX_PLIES, GameSpec, PlayerSide, RefereeSide
from arbiter.games.votey import contest, evaluate, notation
from arbiter.games.votey.rules import Move, State, Votey

SPEC: GameSpec[State, Move] = GameSpec.of_folder(
    __name__,
    name="votey",
    title="Votey Checkers",
    seat_names=("black", "white"),
    rules=Votey,
    notation=notation,
    contest=contest,
    evaluation=evaluate,
    opening_plies=4,
    options=(MAX_PLIES,),
)


if TYPE_CHECKING:  # mypy holds the two sides of the protocol to the contract
    from arbiter.games.votey import player, referee

    _player: PlayerSide[State, Move] = player
    _referee: RefereeSide[State, Move] = referee
