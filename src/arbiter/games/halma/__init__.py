"""Halma on a 16x16 board with 19-piece camps, as the contest's agents played it
(``input.txt`` in, ``output.txt`` out, once per move)."""

from __future__ import annotations

from arbiter.contract import MAX_PLIES, GameSpec
from arbiter.games.halma import evaluate, notation, protocol
from arbiter.games.halma.rules import Halma, Move, State

SPEC: GameSpec[State, Move] = GameSpec(
    name="halma",
    title="Halma 16x16",
    seat_names=("black", "white"),
    rules=Halma,
    notation=notation,
    referee=protocol,
    evaluation=evaluate,
    time_control=protocol.TIME_CONTROL,
    supervision=protocol.SUPERVISION,
    options=(MAX_PLIES,),
    score=protocol.score,
)
