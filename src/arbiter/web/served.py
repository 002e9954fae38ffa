"""What ``arbiter serve`` holds while it runs, shared by its routes: the live games,
the configured agents, the tournament database, and the checks that turn a
request's words (a game, an engine, a clock, a position) into values or a
:class:`~arbiter.web.sessions.WebError`."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends
from starlette.requests import HTTPConnection

from arbiter.agents.spec import ENGINES, AgentSpec
from arbiter.clock import TimeControl
from arbiter.contract import GameSpec
from arbiter.errors import ArbiterError, ConfigError
from arbiter.games import find_game, game_names
from arbiter.tournament.store import Store
from arbiter.web.sessions import Session, WebError

MAX_SESSIONS = 100
"""Live games kept; past this the oldest finished ones are dropped."""

ABANDONED_AFTER = 120.0
"""Seconds after which a game no page watches and no one asks about is ended and
dropped (its page was closed), so abandoned games never fill the server."""

SWEEP_EVERY = 30.0
"""Seconds between two looks for abandoned games."""

WEB_OPTION_LIMITS = {"hash": 64, "depth": 12, "nodes": 10_000_000}
"""The largest engine options a page may ask for: a server plays many games at once
for anyone who opens it (a 1.5 GB table, or a search of hours, is not a page's to ask)."""


class Served:
    """The server's state: ``db`` a tournament database to show, ``agents`` the
    configured programs and engines by game (the only programs a page can ask for)."""

    def __init__(self, db: str | None, agents: dict[str, list[AgentSpec]] | None) -> None:
        self.db = db
        self.configured = agents or {}
        self.sessions: dict[str, Session] = {}

    def engines(self, game: str) -> list[str]:
        """What a page may choose to play ``game`` against."""
        return [*ENGINES, *(a.name for a in self.configured.get(game, []))]

    def spec_of(self, name: str) -> GameSpec[Any, Any]:
        """:raises WebError: 404 for a game this server does not have."""
        if name not in game_names():
            raise WebError(404, f"unknown game {name!r}: expected one of {', '.join(game_names())}")
        return find_game(name)

    def engine_of(self, game: str, text: str) -> AgentSpec:
        """A built-in engine with options within :data:`WEB_OPTION_LIMITS`, or an agent
        the configuration names.

        :raises WebError: 422 naming the engine or the option too large.
        """
        for agent in self.configured.get(game, []):
            if agent.name == text:
                return agent
        head = text.partition(":")[0]
        if head not in ENGINES:
            known = ", ".join(self.engines(game))
            raise WebError(422, f"unknown engine {text!r} for {game}: expected one of {known}")
        engine = AgentSpec.parse(text)
        for key, value in engine.options:
            if value > WEB_OPTION_LIMITS.get(key, value):
                limit = WEB_OPTION_LIMITS[key]
                raise WebError(422, f"engine {text!r}: {key} must be at most {limit} here")
        return engine

    @staticmethod
    def clock_of(text: str) -> TimeControl:
        """:raises WebError: 422 for a clock that does not parse."""
        try:
            return TimeControl.parse(text)
        except ConfigError as e:
            raise WebError(422, str(e)) from None

    @staticmethod
    def position_of(spec: GameSpec[Any, Any], text: str | None) -> Any:
        """The position ``text`` gives (None: the game's start).

        :raises WebError: 422 for a text that is no position, or one already over.
        """
        if text is None or not text.strip():
            return None
        try:
            s = spec.notation.parse_position(text.strip())
        except ArbiterError as e:
            raise WebError(422, f"bad position: {e}") from None
        if spec.make().outcome(s) is not None:
            raise WebError(422, "bad position: the game is already over there")
        return s

    def session_of(self, sid: str) -> Session:
        """:raises WebError: 404 for a game this server does not hold."""
        session = self.sessions.get(sid)
        if session is None:
            raise WebError(
                404, f"no game {sid!r} on this server (it ended unwatched, or the server restarted)"
            )
        session.touch()
        return session

    async def sweep(self) -> None:
        """Ends and drops the abandoned games."""
        for session in list(self.sessions.values()):
            if session.abandoned(ABANDONED_AFTER):
                self.sessions.pop(session.id, None)
                await session.stop()

    @contextlib.asynccontextmanager
    async def running(self, every: float) -> AsyncIterator[None]:
        """While the server runs: abandoned games swept every ``every`` seconds; at its
        end every game stopped (their programs stop with the server)."""

        async def sweeping() -> None:
            while True:
                await asyncio.sleep(every)
                await self.sweep()

        sweeper = asyncio.create_task(sweeping())
        try:
            yield
        finally:
            sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeper
            for session in list(self.sessions.values()):
                await session.stop()

    async def keep(self, session: Session) -> dict[str, Any]:
        """Holds ``session``, dropping abandoned or finished games to make room.

        :raises WebError: 503 when every place holds a game in progress (the new one
            is stopped).
        """
        if len(self.sessions) >= MAX_SESSIONS:
            await self.sweep()
        if len(self.sessions) >= MAX_SESSIONS:
            for old in list(self.sessions.values()):
                if old.outcome is not None:
                    del self.sessions[old.id]
                    if len(self.sessions) < MAX_SESSIONS:
                        break
            if len(self.sessions) >= MAX_SESSIONS:
                await session.stop()
                raise WebError(503, "too many games in progress on this server")
        self.sessions[session.id] = session
        return session.snapshot()

    def store(self) -> Store:
        """:raises WebError: 404 when the server shows no database, or it is missing."""
        if self.db is None:
            raise WebError(404, "this server shows no tournament database (start it with --db)")
        if not Path(self.db).is_file():
            raise WebError(404, f"no database {self.db!r}")
        return Store(self.db)


def _served(connection: HTTPConnection) -> Served:
    served: Served = connection.app.state.served
    return served


Serving = Annotated[Served, Depends(_served)]
"""A route's parameter for the server's state."""
