"""A small test game with the shapes the contests to come need: per-seat numbering, a
game clock with overtime and a clock ruling, a contest score from the final position,
and a once-per-move file protocol. Registered by the tests' conftest."""

from __future__ import annotations

from arbiter.contract import MAX_PLIES, GameSpec, PlayerSide, RefereeSide
from tests.fakegame import evaluate, notation, protocol, protocol_files
from tests.fakegame.rules import Move, Race, State

# both sides of each of the test game's protocols live in one module


def _player_side() -> PlayerSide[State, Move]:
    return protocol


def _referee_side() -> RefereeSide[State, Move]:
    return protocol


def _file_player_side() -> PlayerSide[State, Move]:
    return protocol_files


def _file_referee_side() -> RefereeSide[State, Move]:
    return protocol_files


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
    player_side=_player_side,
    referee_side=_referee_side,
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
    player_side=_file_player_side,
    referee_side=_file_referee_side,
    options=(MAX_PLIES,),
    score=protocol.score,
)
