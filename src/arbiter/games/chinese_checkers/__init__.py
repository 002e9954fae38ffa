"""Two-player Chinese checkers on the 121-hole star, as the 1997 ACM Hong Kong
competition's mediator played it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from arbiter.contract import MAX_PLIES, GameSpec, Loader, PlayerSide, RefereeSide
from arbiter.games.chinese_checkers import contest, evaluate, notation
from arbiter.games.chinese_checkers.rules import ChineseCheckers, Move, State

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
    player_side=Loader(f"{__name__}.player"),
    referee_side=Loader(f"{__name__}.referee"),
    board=Loader(f"{__name__}.board", "VIEW"),
    probes=Loader(f"{__name__}.probes", "probes"),
    openings=Path(__file__).parent / "openings.txt",
    kits=Path(__file__).parent / "kits",
    opening_plies=6,
    options=(MAX_PLIES,),
    score=contest.score,
)


if TYPE_CHECKING:  # mypy holds the two sides of the protocol to the contract
    from arbiter.games.chinese_checkers import player, referee

    _player: PlayerSide[State, Move] = player
    _referee: RefereeSide[State, Move] = referee
