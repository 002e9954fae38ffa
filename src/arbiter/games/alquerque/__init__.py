"""Alquerque on a 7x7 board, as the CodeCup 2008 contest played it."""

from __future__ import annotations

from arbiter.contract import MAX_PLIES, GameSpec
from arbiter.games.alquerque import evaluate, notation, protocol
from arbiter.games.alquerque.rules import Alquerque, Move, State

SPEC: GameSpec[State, Move] = GameSpec(
    name="alquerque",
    title="Alquerque (CodeCup 2008)",
    seat_names=("white", "black"),
    rules=Alquerque,
    notation=notation,
    referee=protocol,
    evaluation=evaluate,
    time_control=protocol.TIME_CONTROL,
    supervision=protocol.SUPERVISION,
    options=(MAX_PLIES,),
    score=protocol.score,
)
