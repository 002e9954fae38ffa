"""Live games: the games a page may start, a person against an engine or two engines,
the person's clicks, take-backs and resignation, and a socket that follows a game."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, Field

from arbiter.games import find_game, game_names
from arbiter.web.served import Serving
from arbiter.web.sessions import WebError, engine_game, human_game

MAX_MOVE_TIME = 60.0
"""The longest an engine may think a move in a page's game."""

router = APIRouter()


class NewGame(BaseModel):
    """A person against an engine."""

    game: str
    side: str = Field("first", description="a seat name, 'first' or 'second'")
    engine: str = "alphabeta"
    clock: str = "inf"
    move_time: float = Field(1.0, gt=0, le=MAX_MOVE_TIME)
    position: str | None = Field(None, max_length=2000, description="a position text to start from")


class NewMatch(BaseModel):
    """Two engines, for watching."""

    game: str
    engines: tuple[str, str]
    clock: str = "inf"
    move_time: float = Field(1.0, gt=0, le=MAX_MOVE_TIME)
    position: str | None = Field(None, max_length=2000, description="a position text to start from")


class Clicks(BaseModel):
    clicks: list[int] = Field(max_length=64)


@router.get("/api/games")
async def games(served: Serving) -> list[dict[str, Any]]:
    out = []
    for name in game_names():
        spec = find_game(name)
        if spec.board is None:  # a game the browser cannot show
            continue
        out.append(
            {
                "name": name,
                "title": spec.title,
                "seat_names": list(spec.seat_names),
                "engines": served.engines(name),
                "contest_clock": str(spec.time_control),
            }
        )
    return out


@router.get("/api/games/{game}/board")
async def board(game: str, served: Serving) -> dict[str, Any]:
    return served.spec_of(game).board_view().layout.to_json()


@router.post("/api/sessions", status_code=201)
async def new_game(body: NewGame, served: Serving) -> dict[str, Any]:
    spec = served.spec_of(body.game)
    side = body.side.lower()
    if side in ("first", "1"):
        human = 0
    elif side in ("second", "2"):
        human = 1
    elif side in spec.seat_names:
        human = spec.seat_names.index(side)
    else:
        names = ", ".join(spec.seat_names)
        raise WebError(422, f"unknown side {body.side!r}: expected {names}, first or second")
    engine = served.engine_of(body.game, body.engine)
    start = served.position_of(spec, body.position)
    clock = served.clock_of(body.clock)
    session = human_game(spec, human, engine, clock, body.move_time, start=start)
    await served.keep(session)
    await session.ready()
    return session.snapshot()


@router.post("/api/matches", status_code=201)
async def new_match(body: NewMatch, served: Serving) -> dict[str, Any]:
    spec = served.spec_of(body.game)
    engines = (
        served.engine_of(body.game, body.engines[0]),
        served.engine_of(body.game, body.engines[1]),
    )
    start = served.position_of(spec, body.position)
    clock = served.clock_of(body.clock)
    return await served.keep(engine_game(spec, engines, clock, body.move_time, start=start))


@router.get("/api/sessions/{sid}")
async def get_session(sid: str, served: Serving) -> dict[str, Any]:
    return served.session_of(sid).snapshot()


@router.post("/api/sessions/{sid}/continuations")
async def continuations(sid: str, body: Clicks, served: Serving) -> dict[str, Any]:
    found = served.session_of(sid).continuations(body.clicks)
    return {"next": list(found.next), "complete": found.move is not None}


@router.post("/api/sessions/{sid}/move")
async def move(sid: str, body: Clicks, served: Serving) -> dict[str, Any]:
    session = served.session_of(sid)
    await session.play(body.clicks)
    return session.snapshot()


@router.post("/api/sessions/{sid}/undo")
async def undo(sid: str, served: Serving) -> dict[str, Any]:
    session = served.session_of(sid)
    await session.undo()
    return session.snapshot()


@router.post("/api/sessions/{sid}/resign")
async def resign(sid: str, served: Serving) -> dict[str, Any]:
    session = served.session_of(sid)
    await session.resign()
    return session.snapshot()


@router.websocket("/api/sessions/{sid}/live")
async def live(socket: WebSocket, sid: str, served: Serving) -> None:
    session = served.sessions.get(sid)
    await socket.accept()
    if session is None:
        await socket.send_json({"error": f"no game {sid!r} on this server"})
        await socket.close(code=4404)
        return
    queue = session.listen()

    async def forward() -> None:
        await socket.send_json(session.snapshot())
        while True:
            await socket.send_json(await queue.get())

    async def until_closed() -> None:
        # the client's close (or the server's, as it stops) ends the socket even
        # when the game is over and nothing more will be sent
        while (await socket.receive())["type"] != "websocket.disconnect":
            pass

    tasks = [asyncio.create_task(forward()), asyncio.create_task(until_closed())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(
                asyncio.CancelledError, WebSocketDisconnect, RuntimeError, OSError
            ):
                await task
        session.forget(queue)
