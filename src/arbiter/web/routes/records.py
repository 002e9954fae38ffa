"""Replays of record files a page sends, and the tournaments of the server's database:
their standings, games under way and finished games."""

from __future__ import annotations

import math
from dataclasses import asdict
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from arbiter.errors import ArbiterError
from arbiter.games import game_names
from arbiter.record import GameRecord
from arbiter.tournament.report import standings
from arbiter.tournament.schedule import schedule
from arbiter.web.replays import replay_json
from arbiter.web.served import Serving
from arbiter.web.sessions import WebError

router = APIRouter()


class ReplayText(BaseModel):
    text: str = Field(max_length=5_000_000)


def _finite(value: Any) -> Any:
    """``value`` with infinite or undefined numbers as None (JSON has no infinity: an
    agent that won every game has no upper bound).

    >>> _finite({"elo": float("inf"), "bounds": (12.5, float("nan")), "games": 3})
    {'elo': None, 'bounds': [12.5, None], 'games': 3}
    """
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


@router.post("/api/replays")
async def replays(body: ReplayText) -> list[dict[str, Any]]:
    """Every game of a record file, replayed; a line that is no game record (or does
    not replay) is left out and named in the first game's ``skipped``, so one broken
    line does not hide the others. A text with no good line is refused, naming the
    first broken one."""
    out: list[dict[str, Any]] = []
    skipped: list[str] = []
    for number, line in enumerate(body.text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = GameRecord.from_json(line)
            if record.game not in game_names():
                raise WebError(422, f"unknown game {record.game!r}")
            out.append(replay_json(record))
        except (ArbiterError, WebError) as e:
            skipped.append(f"line {number}: {e}")
    if not out:
        raise WebError(422, skipped[0] if skipped else "no game records in the text")
    out[0]["skipped"] = skipped
    return out


@router.get("/api/tournaments")
async def tournaments(served: Serving) -> list[dict[str, Any]]:
    if served.db is None or not Path(served.db).is_file():
        return []  # none to show (yet)
    with served.store() as s:
        return [
            {
                "name": t.name,
                "game": t.game,
                "agents": list(t.agents),
                "played": len(s.played(t.id)),
            }
            for t in s.tournaments()
        ]


@router.get("/api/tournaments/{name}")
async def tournament(name: str, served: Serving) -> dict[str, Any]:
    with served.store() as s:
        t = s.find(name)
        if t is None:
            raise WebError(404, f"no tournament {name!r} in {served.db!r}")
        played = list(s.games(t.id))
        running = s.running(t.id)
    table = standings(t.name, t.game, t.agents, played)
    data: dict[str, Any] = _finite(asdict(table))
    for line, standing in zip(data["lines"], table.lines, strict=True):
        line["share"] = round(standing.share, 4)
    planned = len(schedule(t.settings["format"], len(t.agents), t.settings["rounds"]))
    data["planned"] = planned
    data["remaining"] = planned - len(played)
    data["recent"] = [
        {
            "number": g.number,
            "players": [t.agents[g.seats[0]], t.agents[g.seats[1]]],
            "result": g.record.outcome.result(),
            "reason": str(g.record.reason),
            "plies": len(g.record.moves),
        }
        for g in reversed(played[-50:])
    ]
    data["running"] = [
        {
            "number": g.number,
            "players": [t.agents[g.seats[0]], t.agents[g.seats[1]]],
            "plies": g.plies,
            "started": g.started,
        }
        for g in running
    ]
    return data


@router.get("/api/tournaments/{name}/games/{number}")
async def tournament_game(name: str, number: int, served: Serving) -> dict[str, Any]:
    with served.store() as s:
        t = s.find(name)
        if t is None:
            raise WebError(404, f"no tournament {name!r} in {served.db!r}")
        for g in s.games(t.id):
            if g.number == number:
                return replay_json(g.record)
    raise WebError(404, f"tournament {name!r} has no finished game {number}")
