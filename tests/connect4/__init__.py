"""Connect Four: the toy game of drops (a move's cell depends on the position) that
proves a game of another shape than arbiter's five is one folder and one registry line
(``ARBITER_GAMES=...,connect4=tests.connect4``, set by the tests' conftest)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arbiter.contract import MAX_PLIES, GameSpec, PlayerSide, RefereeSide
from tests.connect4 import contest, evaluate, notation
from tests.connect4.rules import BOARD_FULL, ConnectFour, State

SPEC: GameSpec[State, int] = GameSpec.of_folder(
    __name__,
    name="connect4",
    title="Connect Four",
    seat_names=("red", "yellow"),
    rules=ConnectFour,
    notation=notation,
    contest=contest,
    evaluation=evaluate,
    options=(MAX_PLIES,),
    endings=(BOARD_FULL,),
)

if TYPE_CHECKING:  # mypy holds the two sides of the protocol to the contract
    from tests.connect4 import player, referee

    _player: PlayerSide[State, int] = player
    _referee: RefereeSide[State, int] = referee
