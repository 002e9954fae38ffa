"""A small test game with the shapes the contests to come need: per-seat numbering, a
game clock with overtime and a clock ruling, a contest score from the final position,
and a once-per-move file protocol. Registered by the tests' conftest."""

from __future__ import annotations

from arbiter.contract import MAX_PLIES, GameSpec
from tests.fakegame import evaluate, notation, protocol, protocol_files
from tests.fakegame.rules import Move, Race, State

RACE: GameSpec[State, Move] = GameSpec(
    name="race",
    title="Race",
    seat_names=("up", "down"),
    rules=Race,
    notation=notation,
    referee=protocol,
    evaluation=evaluate,
    time_control=protocol.TIME_CONTROL,
    supervision=protocol.SUPERVISION,
    options=(MAX_PLIES,),
    score=protocol.score,
)

RACE_FILES: GameSpec[State, Move] = GameSpec(
    name="race-files",
    title="Race by files",
    seat_names=("up", "down"),
    rules=Race,
    notation=notation,
    referee=protocol_files,
    evaluation=evaluate,
    time_control=protocol_files.TIME_CONTROL,
    supervision=protocol_files.SUPERVISION,
    options=(MAX_PLIES,),
    score=protocol.score,
)
