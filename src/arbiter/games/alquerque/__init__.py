"""Alquerque on a 7x7 board, as the CodeCup 2008 contest played it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from arbiter.contract import MAX_PLIES, GameSpec, Loader, PlayerSide, RefereeSide
from arbiter.games.alquerque import contest, evaluate, notation
from arbiter.games.alquerque.rules import Alquerque, Move, State

SPEC: GameSpec[State, Move] = GameSpec(
    name="alquerque",
    title="Alquerque (CodeCup 2008)",
    seat_names=("white", "black"),
    rules=Alquerque,
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
    opening_plies=8,
    options=(MAX_PLIES,),
    score=contest.score,
)


if TYPE_CHECKING:  # mypy holds the two sides of the protocol to the contract
    from arbiter.games.alquerque import player, referee

    _player: PlayerSide[State, Move] = player
    _referee: RefereeSide[State, Move] = referee
