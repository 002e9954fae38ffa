"""American checkers, as the AI Wars 2011 contest played it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arbiter.contract import MAX_PLIES, GameSpec, PlayerSide, RefereeSide, RuleOption
from arbiter.games.checkers import contest, evaluate, notation
from arbiter.games.checkers.rules import Checkers, Move, State

PLAIN_DRAWS = RuleOption(
    "plain_draws",
    bool,
    False,
    "score a repetition or 40-move end as a draw instead of by piece count",
)


SPEC: GameSpec[State, Move] = GameSpec.of_folder(
    __name__,
    name="checkers",
    title="American checkers",
    seat_names=("red", "white"),
    rules=Checkers,
    notation=notation,
    contest=contest,
    evaluation=evaluate,
    opening_plies=4,
    options=(MAX_PLIES, PLAIN_DRAWS),
)


if TYPE_CHECKING:  # mypy holds the two sides of the protocol to the contract
    from arbiter.games.checkers import player, referee

    _player: PlayerSide[State, Move] = player
    _referee: RefereeSide[State, Move] = referee
