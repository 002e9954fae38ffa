"""The bounds of what a worker and a browser may send: each limit is taken at its edge
and refused one past it (a limit moved is a memory or a database row open to abuse)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from arbiter.host.wire import (
    MAX_LIVE_PLIES,
    MAX_TEXT,
    FailureBody,
    Job,
    LeaseBody,
    LeaseRequest,
    LiveMove,
    MovesBody,
    ResultBody,
)
from arbiter.web.routes.play import MAX_MOVE_TIME, Clicks, NewGame, NewMatch

MOVE = {"text": "c3-d4", "seconds": 0.5}
PLAYER = {"version": 1, "program": None, "size": None, "name": "a", "language": "c"}
JOB = {
    "id": 1,
    "round": 1,
    "number": 1,
    "seed": 0,
    "start": None,
    "players": [PLAYER, PLAYER],
    "game": "alquerque",
    "time_control": "30",
    "memory_mb": 512,
    "disk_mb": 64,
    "lease_seconds": 60.0,
    "runs": {},
    "lease": "x",
}

EDGES: list[tuple[type[BaseModel], dict[str, Any], dict[str, Any]]] = [
    (LeaseRequest, {"name": "w" * 64}, {"name": "w" * 65}),
    (LeaseBody, {"lease": "l" * 128}, {"lease": "l" * 129}),
    (LiveMove, {"text": "m" * 2000, "seconds": 0}, {"text": "m" * 2001, "seconds": 0}),
    (LiveMove, {"text": "m", "seconds": 0.0}, {"text": "m", "seconds": -0.001}),
    (
        MovesBody,
        {"lease": "x", "start": MAX_LIVE_PLIES, "moves": [MOVE] * 500},
        {"lease": "x", "start": MAX_LIVE_PLIES + 1, "moves": []},
    ),
    (MovesBody, {"lease": "x", "start": 0, "moves": []}, {"lease": "x", "start": -1, "moves": []}),
    (
        MovesBody,
        {"lease": "x", "start": 0, "moves": [MOVE] * 500},
        {
            "lease": "x",
            "start": 0,
            "moves": [MOVE] * 501,
        },
    ),
    (
        ResultBody,
        {"lease": "x", "record": "r" * MAX_TEXT},
        {"lease": "x", "record": "r" * (MAX_TEXT + 1)},
    ),
    (FailureBody, {"lease": "x", "reason": "r" * 2000}, {"lease": "x", "reason": "r" * 2001}),
    (
        FailureBody,
        {"lease": "x", "reason": "r", "culprit": 1},
        {"lease": "x", "reason": "r", "culprit": 2},
    ),
    (
        FailureBody,
        {"lease": "x", "reason": "r", "culprit": 0},
        {"lease": "x", "reason": "r", "culprit": -1},
    ),
    (Job, JOB, {**JOB, "players": [PLAYER]}),
    (Job, JOB, {**JOB, "players": [PLAYER] * 3}),
    (
        NewGame,
        {"game": "votey", "move_time": MAX_MOVE_TIME},
        {"game": "votey", "move_time": MAX_MOVE_TIME + 0.001},
    ),
    (NewGame, {"game": "votey", "move_time": 0.001}, {"game": "votey", "move_time": 0}),
    (NewGame, {"game": "votey", "position": "p" * 2000}, {"game": "votey", "position": "p" * 2001}),
    (
        NewMatch,
        {"game": "votey", "engines": ["a", "b"], "position": "p" * 2000},
        {"game": "votey", "engines": ["a", "b"], "position": "p" * 2001},
    ),
    (
        NewMatch,
        {"game": "votey", "engines": ["a", "b"]},
        {"game": "votey", "engines": ["a", "b"], "move_time": 0},
    ),
    (Clicks, {"clicks": [1] * 64}, {"clicks": [1] * 65}),
]


@pytest.mark.parametrize(("model", "edge", "past"), EDGES)
def test_each_limit_takes_its_edge_and_refuses_one_past_it(
    model: type[BaseModel], edge: dict[str, Any], past: dict[str, Any]
) -> None:
    model.model_validate(edge)
    with pytest.raises(ValidationError):
        model.model_validate(past)
