"""Two-player Chinese checkers on the 121-hole star, as the 1997 ACM Hong Kong
competition's mediator played it."""

from __future__ import annotations

from arbiter.contract import MAX_PLIES, GameSpec
from arbiter.games.chinese_checkers import evaluate, notation, protocol
from arbiter.games.chinese_checkers.rules import ChineseCheckers, Move, State

SPEC: GameSpec[State, Move] = GameSpec(
    name="chinese-checkers",
    title="Chinese checkers (1997 ACM Hong Kong)",
    seat_names=("first", "second"),
    rules=ChineseCheckers,
    notation=notation,
    referee=protocol,
    evaluation=evaluate,
    time_control=protocol.TIME_CONTROL,
    supervision=protocol.SUPERVISION,
    options=(MAX_PLIES,),
    score=protocol.score,
)
