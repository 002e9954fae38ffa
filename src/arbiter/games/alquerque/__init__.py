"""Alquerque on a 7x7 board, as the CodeCup 2008 contest played it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arbiter.contract import MAX_PLIES, GameSpec, PlayerSide, RefereeSide
from arbiter.games.alquerque import contest, evaluate, notation
from arbiter.games.alquerque.rules import Alquerque, Move, State

SPEC: GameSpec[State, Move] = GameSpec.of_folder(
    __name__,
    name="alquerque",
    title="Alquerque (CodeCup 2008)",
    seat_names=("white", "black"),
    rules=Alquerque,
    notation=notation,
    contest=contest,
    evaluation=evaluate,
    opening_plies=8,
    options=(MAX_PLIES,),
    score=contest.score,
)


if TYPE_CHECKING:  # mypy holds the two sides of the protocol to the contract
    from arbiter.games.alquerque import player, referee

    _player: PlayerSide[State, Move] = player
    _referee: RefereeSide[State, Move] = referee
