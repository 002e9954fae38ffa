"""American checkers, as the AI Wars 2011 contest played it."""

from __future__ import annotations

from arbiter.contract import MAX_PLIES, GameSpec, RuleOption
from arbiter.games.checkers import evaluate, notation, protocol
from arbiter.games.checkers.rules import Checkers, Move, State

PLAIN_DRAWS = RuleOption(
    "plain_draws",
    bool,
    False,
    "score a repetition or 40-move end as a draw instead of by piece count",
)

SPEC: GameSpec[State, Move] = GameSpec(
    name="checkers",
    title="American checkers",
    seat_names=("red", "white"),
    rules=Checkers,
    notation=notation,
    referee=protocol,
    evaluation=evaluate,
    time_control=protocol.TIME_CONTROL,
    supervision=protocol.SUPERVISION,
    options=(MAX_PLIES, PLAIN_DRAWS),
)
