"""``arbiter serve``: the FastAPI app behind the pages.

Pages are static files (HTML, one script per page, one stylesheet; no build step);
everything they show comes from the JSON API, and every move is checked by the
rules engine on the server. No request can start a program: games are played by the
built-in engines and by the agents named in the server's configuration file.
Requests the game cannot take get a JSON ``{"error": ...}`` with a 4xx status.

The app is assembled here from a router per part (:mod:`arbiter.web.routes`) and the
state they share (:class:`~arbiter.web.served.Served`, in ``app.state``).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from arbiter.agents.spec import AgentSpec
from arbiter.errors import ArbiterError
from arbiter.web.routes import STATIC, pages, play, records
from arbiter.web.served import SWEEP_EVERY, Served
from arbiter.web.sessions import WebError


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _web_error(request: Request, e: Exception) -> JSONResponse:
    assert isinstance(e, WebError)
    return _error(e.status, e.message)


async def _arbiter_error(request: Request, e: Exception) -> JSONResponse:
    return _error(400, str(e))


async def _bad_request(request: Request, e: Exception) -> JSONResponse:
    assert isinstance(e, RequestValidationError)
    first = e.errors()[0] if e.errors() else {}
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
    return _error(422, f"bad request: {where}: {first.get('msg', 'invalid')}")


def create_app(db: str | None = None, agents: dict[str, list[AgentSpec]] | None = None) -> FastAPI:
    """The app: ``db`` a tournament database to show, ``agents`` the configured programs
    and engines by game (the only programs a page can ask for)."""
    served = Served(db, agents)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with served.running(SWEEP_EVERY):
            yield

    app = FastAPI(title="arbiter", docs_url="/api/docs", redoc_url=None, lifespan=lifespan)
    app.state.served = served
    app.add_exception_handler(WebError, _web_error)
    app.add_exception_handler(ArbiterError, _arbiter_error)
    app.add_exception_handler(RequestValidationError, _bad_request)
    for part in (pages, play, records):
        app.include_router(part.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
