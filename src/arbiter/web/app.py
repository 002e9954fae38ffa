"""``arbiter serve``: the FastAPI app behind the pages.

Pages are static files (HTML, one script per page, one stylesheet; no build step);
everything they show comes from the JSON API here, and every move is checked by the
rules engine on the server. No request can start a program: games are played by the
built-in engines and by the agents named in the server's configuration file.
Requests the game cannot take get a JSON ``{"error": ...}`` with a 4xx status.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections.abc import AsyncIterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from arbiter.agents.spec import ENGINES, AgentSpec
from arbiter.clock import TimeControl
from arbiter.contract import GameSpec
from arbiter.errors import ArbiterError, ConfigError
from arbiter.games import find_game, game_names
from arbiter.record import GameRecord
from arbiter.tournament.report import standings
from arbiter.tournament.schedule import schedule
from arbiter.tournament.store import Store
from arbiter.web.replays import replay_json
from arbiter.web.sessions import Session, WebError, engine_game, human_game

STATIC = Path(__file__).parent / "static"
MAX_SESSIONS = 100

ABANDONED_AFTER = 120.0
"""Seconds after which a game no page watches and no one asks about is ended and
dropped (its page was closed), so abandoned games never fill the server."""

SWEEP_EVERY = 30.0
"""Seconds between two looks for abandoned games."""

WEB_OPTION_LIMITS = {"hash": 64, "depth": 12, "nodes": 10_000_000}
"""The largest engine options a page may ask for: a server plays many games at once
for anyone who opens it (a 1.5 GB table, or a search of hours, is not a page's to ask)."""
"""Live games kept; past this the oldest finished ones are dropped."""
MAX_MOVE_TIME = 60.0


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


class ReplayText(BaseModel):
    text: str = Field(max_length=5_000_000)


def _finite(value: Any) -> Any:
    """``value`` with infinite or undefined numbers as None (JSON has no infinity: an
    agent that won every game has no upper bound)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def create_app(db: str | None = None, agents: dict[str, list[AgentSpec]] | None = None) -> FastAPI:
    """The app: ``db`` a tournament database to show, ``agents`` the configured programs
    and engines by game (the only programs a page can ask for)."""
    sessions: dict[str, Session] = {}

    async def sweep() -> None:
        """Ends and drops the abandoned games."""
        for session in list(sessions.values()):
            if session.abandoned(ABANDONED_AFTER):
                sessions.pop(session.id, None)
                await session.stop()

    async def sweeping() -> None:
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            await sweep()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        sweeper = asyncio.create_task(sweeping())
        try:
            yield
        finally:
            sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeper
            for session in sessions.values():  # their programs stopped with the server
                await session.stop()

    app = FastAPI(title="arbiter", docs_url="/api/docs", redoc_url=None, lifespan=lifespan)
    configured = agents or {}

    @app.exception_handler(WebError)
    async def web_error(request: Request, e: WebError) -> JSONResponse:
        return _error(e.status, e.message)

    @app.exception_handler(ArbiterError)
    async def arbiter_error(request: Request, e: ArbiterError) -> JSONResponse:
        return _error(400, str(e))

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, e: RequestValidationError) -> JSONResponse:
        first = e.errors()[0] if e.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        return _error(422, f"bad request: {where}: {first.get('msg', 'invalid')}")

    def spec_of(name: str) -> GameSpec[Any, Any]:
        if name not in game_names():
            raise WebError(404, f"unknown game {name!r}: expected one of {', '.join(game_names())}")
        return find_game(name)

    def engine_of(game: str, text: str) -> AgentSpec:
        """A built-in engine with options, or an agent the configuration names."""
        for agent in configured.get(game, []):
            if agent.name == text:
                return agent
        head = text.partition(":")[0]
        if head not in ENGINES:
            names = [a.name for a in configured.get(game, [])]
            known = ", ".join([*ENGINES, *names])
            raise WebError(422, f"unknown engine {text!r} for {game}: expected one of {known}")
        engine = AgentSpec.parse(text)
        for key, value in engine.options:
            if value > WEB_OPTION_LIMITS.get(key, value):
                limit = WEB_OPTION_LIMITS[key]
                raise WebError(422, f"engine {text!r}: {key} must be at most {limit} here")
        return engine

    def clock_of(text: str) -> TimeControl:
        try:
            return TimeControl.parse(text)
        except ConfigError as e:
            raise WebError(422, str(e)) from None

    def position_of(spec: GameSpec[Any, Any], text: str | None) -> Any:
        """The position ``text`` gives (None: the game's start)."""
        if text is None or not text.strip():
            return None
        try:
            s = spec.notation.parse_position(text.strip())
        except ArbiterError as e:
            raise WebError(422, f"bad position: {e}") from None
        if spec.make().outcome(s) is not None:
            raise WebError(422, "bad position: the game is already over there")
        return s

    def session_of(sid: str) -> Session:
        session = sessions.get(sid)
        if session is None:
            raise WebError(
                404, f"no game {sid!r} on this server (it ended unwatched, or the server restarted)"
            )
        session.touch()
        return session

    async def keep(session: Session) -> dict[str, Any]:
        if len(sessions) >= MAX_SESSIONS:
            await sweep()
        if len(sessions) >= MAX_SESSIONS:
            for old in list(sessions.values()):
                if old.outcome is not None:
                    del sessions[old.id]
                    if len(sessions) < MAX_SESSIONS:
                        break
            if len(sessions) >= MAX_SESSIONS:
                await session.stop()
                raise WebError(503, "too many games in progress on this server")
        sessions[session.id] = session
        return session.snapshot()

    def store() -> Store:
        if db is None:
            raise WebError(404, "this server shows no tournament database (start it with --db)")
        if not Path(db).is_file():
            raise WebError(404, f"no database {db!r}")
        return Store(db)

    # -- pages ---------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/play/{sid}", include_in_schema=False)
    async def play_page(sid: str) -> FileResponse:
        return FileResponse(STATIC / "game.html")

    @app.get("/replay", include_in_schema=False)
    async def replay_page() -> FileResponse:
        return FileResponse(STATIC / "replay.html")

    @app.get("/tournament/{name}", include_in_schema=False)
    async def standings_page(name: str) -> FileResponse:
        return FileResponse(STATIC / "standings.html")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # -- the games -----------------------------------------------------------------

    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
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
                    "engines": [*ENGINES, *(a.name for a in configured.get(name, []))],
                    "contest_clock": str(spec.time_control),
                }
            )
        return out

    @app.get("/api/games/{game}/board")
    async def board(game: str) -> dict[str, Any]:
        return spec_of(game).board_view().layout.to_json()

    @app.post("/api/sessions", status_code=201)
    async def new_game(body: NewGame) -> dict[str, Any]:
        spec = spec_of(body.game)
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
        engine = engine_of(body.game, body.engine)
        start = position_of(spec, body.position)
        session = human_game(spec, human, engine, clock_of(body.clock), body.move_time, start=start)
        await keep(session)
        await session.ready()
        return session.snapshot()

    @app.post("/api/matches", status_code=201)
    async def new_match(body: NewMatch) -> dict[str, Any]:
        spec = spec_of(body.game)
        engines = (engine_of(body.game, body.engines[0]), engine_of(body.game, body.engines[1]))
        start = position_of(spec, body.position)
        session = engine_game(spec, engines, clock_of(body.clock), body.move_time, start=start)
        return await keep(session)

    @app.get("/api/sessions/{sid}")
    async def get_session(sid: str) -> dict[str, Any]:
        return session_of(sid).snapshot()

    @app.post("/api/sessions/{sid}/continuations")
    async def continuations(sid: str, body: Clicks) -> dict[str, Any]:
        found = session_of(sid).continuations(body.clicks)
        return {"next": list(found.next), "complete": found.move is not None}

    @app.post("/api/sessions/{sid}/move")
    async def move(sid: str, body: Clicks) -> dict[str, Any]:
        session = session_of(sid)
        await session.play(body.clicks)
        return session.snapshot()

    @app.post("/api/sessions/{sid}/undo")
    async def undo(sid: str) -> dict[str, Any]:
        session = session_of(sid)
        await session.undo()
        return session.snapshot()

    @app.post("/api/sessions/{sid}/resign")
    async def resign(sid: str) -> dict[str, Any]:
        session = session_of(sid)
        await session.resign()
        return session.snapshot()

    @app.websocket("/api/sessions/{sid}/live")
    async def live(socket: WebSocket, sid: str) -> None:
        session = sessions.get(sid)
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

    # -- replays -------------------------------------------------------------------

    @app.post("/api/replays")
    async def replays(body: ReplayText) -> list[dict[str, Any]]:
        out = []
        for number, line in enumerate(body.text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                record = GameRecord.from_json(line)
            except ArbiterError as e:
                raise WebError(422, f"line {number}: {e}") from None
            if record.game not in game_names():
                raise WebError(422, f"line {number}: unknown game {record.game!r}")
            try:
                out.append(replay_json(record))
            except WebError as e:
                raise WebError(e.status, f"line {number}: {e}") from None
        if not out:
            raise WebError(422, "no game records in the text")
        return out

    # -- tournaments -----------------------------------------------------------------

    @app.get("/api/tournaments")
    async def tournaments() -> list[dict[str, Any]]:
        if db is None or not Path(db).is_file():
            return []  # none to show (yet)
        with store() as s:
            return [
                {
                    "name": t.name,
                    "game": t.game,
                    "agents": list(t.agents),
                    "played": len(s.played(t.id)),
                }
                for t in s.tournaments()
            ]

    @app.get("/api/tournaments/{name}")
    async def tournament(name: str) -> dict[str, Any]:
        with store() as s:
            t = s.find(name)
            if t is None:
                raise WebError(404, f"no tournament {name!r} in {db!r}")
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

    @app.get("/api/tournaments/{name}/games/{number}")
    async def tournament_game(name: str, number: int) -> dict[str, Any]:
        with store() as s:
            t = s.find(name)
            if t is None:
                raise WebError(404, f"no tournament {name!r} in {db!r}")
            for g in s.games(t.id):
                if g.number == number:
                    return replay_json(g.record)
        raise WebError(404, f"tournament {name!r} has no finished game {number}")

    return app
