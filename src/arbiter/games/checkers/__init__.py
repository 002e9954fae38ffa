"""American checkers, as the AI Wars 2011 contest played it."""

from __future__ import annotations

from pathlib import Path

from arbiter.contract import MAX_PLIES, Check, GameSpec, PlayerSide, RefereeSide, RuleOption
from arbiter.games.checkers import contest, evaluate, notation
from arbiter.games.checkers.rules import Checkers, Move, State
from arbiter.layout import BoardView

PLAIN_DRAWS = RuleOption(
    "plain_draws",
    bool,
    False,
    "score a repetition or 40-move end as a draw instead of by piece count",
)


def _player_side() -> PlayerSide[State, Move]:
    from arbiter.games.checkers import player

    return player


def _referee_side() -> RefereeSide[State, Move]:
    from arbiter.games.checkers import referee

    return referee


def _board() -> BoardView[State]:
    from arbiter.games.checkers import board

    return board.VIEW


def _probes() -> list[Check]:
    from arbiter.games.checkers import probes

    return probes.probes(SPEC)


SPEC: GameSpec[State, Move] = GameSpec(
    name="checkers",
    title="American checkers",
    seat_names=("red", "white"),
    rules=Checkers,
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
    opening_plies=4,
    options=(MAX_PLIES, PLAIN_DRAWS),
)
