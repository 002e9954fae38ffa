"""A small test game with the shapes the contests to come need: per-seat numbering, a
game clock with overtime and a clock ruling, a contest score from the final position,
and a once-per-move file protocol. Registered by the tests' conftest."""

from __future__ import annotations

from arbiter.contract import MAX_PLIES, GameSpec, Loader, PlayerSide, RefereeSide
from tests.fakegame import evaluate, notation, protocol, protocol_files
from tests.fakegame.rules import Move, Race, State

RACE: GameSpec[State, Move] = GameSpec(
    name="race",
    title="Race",
    seat_names=("up", "down"),
    rules=Race,
    notation=notation,
    contest=protocol,
    evaluation=evaluate,
    time_control=protocol.TIME_CONTROL,
    supervision=protocol.SUPERVISION,
    player_side=Loader("tests.fakegame.protocol"),
    referee_side=Loader("tests.fakegame.protocol"),
    options=(MAX_PLIES,),
    score=protocol.score,
)

RACE_FILES: GameSpec[State, Move] = GameSpec(
    name="race-files",
    title="Race by files",
    seat_names=("up", "down"),
    rules=Race,
    notation=notation,
    contest=protocol_files,
    evaluation=evaluate,
    time_control=protocol_files.TIME_CONTROL,
    supervision=protocol_files.SUPERVISION,
    player_side=Loader("tests.fakegame.protocol_files"),
    referee_side=Loader("tests.fakegame.protocol_files"),
    options=(MAX_PLIES,),
    score=protocol.score,
)

# both sides of each of the test game's protocols live in one module; mypy holds each
# to the contract
_player: PlayerSide[State, Move] = protocol
_referee: RefereeSide[State, Move] = protocol
_file_player: PlayerSide[State, Move] = protocol_files
_file_referee: RefereeSide[State, Move] = protocol_files
