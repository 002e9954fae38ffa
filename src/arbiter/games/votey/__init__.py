"""Votey Checkers: Lines of Action on 8x8, as the CSSA contest played it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from arbiter.contract import MAX_PLIES, GameSpec, Loader, PlayerSide, RefereeSide
from arbiter.games.votey import contest, evaluate, notation
from arbiter.games.votey.rules import Move, State, Votey

SPEC: GameSpec[State, Move] = GameSpec(
    name="votey",
    title="Votey Checkers",
    seat_names=("black", "white"),
    rules=Votey,
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
    opening_plies=4,
    options=(MAX_PLIES,),
)


if TYPE_CHECKING:  # mypy holds the two sides of the protocol to the contract
    from arbiter.games.votey import player, referee

    _player: PlayerSide[State, Move] = player
    _referee: RefereeSide[State, Move] = referee
