"""Two-player Chinese checkers on the 121-hole star, as the 1997 ACM Hong Kong
competition's mediator played it."""

from __future__ import annotations

from pathlib import Path

from arbiter.contract import MAX_PLIES, Check, GameSpec, PlayerSide, RefereeSide
from arbiter.games.chinese_checkers import contest, evaluate, notation
from arbiter.games.chinese_checkers.rules import ChineseCheckers, Move, State
from arbiter.layout import BoardView


def _player_side() -> PlayerSide[State, Move]:
    from arbiter.games.chinese_checkers import player

    return player


def _referee_side() -> RefereeSide[State, Move]:
    from arbiter.games.chinese_checkers import referee

    return referee


def _board() -> BoardView[State]:
    from arbiter.games.chinese_checkers import board

    return board.VIEW


def _probes() -> list[Check]:
    from arbiter.games.chinese_checkers import probes

    return probes.probes(SPEC)


SPEC: GameSpec[State, Move] = GameSpec(
    name="chinese-checkers",
    title="Chinese checkers (1997 ACM Hong Kong)",
    seat_names=("first", "second"),
    rules=ChineseCheckers,
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
    opening_plies=6,
    options=(MAX_PLIES,),
    score=contest.score,
)
