"""Votey Checkers: Lines of Action on 8x8, as the CSSA contest played it."""

from __future__ import annotations

from arbiter.contract import MAX_PLIES, GameSpec
from arbiter.games.votey import evaluate, notation, protocol
from arbiter.games.votey.rules import Move, State, Votey

SPEC: GameSpec[State, Move] = GameSpec(
    name="votey",
    title="Votey Checkers",
    seat_names=("black", "white"),
    rules=Votey,
    notation=notation,
    referee=protocol,
    evaluation=evaluate,
    time_control=protocol.TIME_CONTROL,
    supervision=protocol.SUPERVISION,
    options=(MAX_PLIES,),
)
