"""Two-player Chinese checkers on the 121-hole star, as the 1997 ACM Hong Kong
competition's mediator played it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arbiter.contract import MAX_PLIES, GameSpec, PlayerSide, RefereeSide
from arbiter.games.chinese_checkers import contest, evaluate, notation
from arbiter.games.chinese_checkers.rules import ChineseCheckers, Move, State

SPEC: GameSpec[State, Move] = GameSpec.of_folder(
    __name__,
    name="chinese-checkers",
    title="Chinese checkers (1997 ACM Hong Kong)",
    seat_names=("first", "second"),
    rules=ChineseCheckers,
    notation=notation,
    contest=contest,
    evaluation=evaluate,
    opening_plies=6,
    options=(MAX_PLIES,),
    score=contest.score,
)


if TYPE_CHECKING:  # mypy holds the two sides of the protocol to the contract
    from arbiter.games.chinese_checkers import player, referee

    _player: PlayerSide[State, Move] = player
    _referee: RefereeSide[State, Move] = referee
