"""``arbiter host``: the contest server's web app, assembled from a router per
audience (:mod:`arbiter.host.routes`) around what they share
(:mod:`arbiter.host.deps`).

Pages are rendered on the server (Jinja2) from the database; the boards and replays
are the web app's own (``/static``, shared with ``arbiter serve``). The session
cookie is signed, HttpOnly and SameSite (Starlette's session middleware over
itsdangerous) and names a session kept on the server (:mod:`arbiter.host.sessions`);
every form and every state-changing request carries the session's CSRF token and is
refused without it. Every answer carries a content security policy and the usual
security headers (:data:`SECURITY_HEADERS`). Workers speak the JSON API under
``/api/worker`` with their bearer token. What anyone may see is decided in
:mod:`arbiter.host.access`.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import secrets
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.datastructures import MutableHeaders
from starlette.middleware.sessions import SessionMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from arbiter.host.config import ContestConfig
from arbiter.host.deps import Hosting, Refused, account_of, page_values
from arbiter.host.events import EventStreams
from arbiter.host.models import Account
from arbiter.host.routes import (
    STATIC,
    accounts,
    contestant,
    organiser,
    public,
    versus,
    worker_api,
)
from arbiter.host.service import Service
from arbiter.host.sessions import LIFETIME
from arbiter.host.signing import ContestKey
from arbiter.web.served import SWEEP_EVERY, Served
from arbiter.web.sessions import WebError

HERE = Path(__file__).parent

SECURITY_HEADERS = {
    # the pages' scripts and styles are the server's own files; the replay page's
    # board is drawn by script, its pieces as inline SVG
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; "
        "base-uri 'none'; form-action 'self'; object-src 'none'"
    ),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
"""Headers on every answer: no scripts but the server's own files, no framing (no
click-jacking of the organiser's buttons), no type sniffing of contestants' files,
no contest URLs leaked to other sites."""


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every answer that does not set its own, as
    plain ASGI: Starlette's ``@app.middleware("http")`` runs each request through a
    task group and a memory stream of its own, which an event stream holds for as
    long as it is open (a thousand open pages were a third of a million objects for
    the collector to walk, a pause of a quarter of a second each time)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def headed(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    if name not in headers:
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, headed)


def secret_key(folder: Path) -> str:
    """The key that signs session cookies: made once, kept 0600 in the contest folder."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = folder / "secret.key"
    if not path.exists():
        with path.open("x") as fd:
            path.chmod(0o600)
            fd.write(secrets.token_urlsafe(48))
    return path.read_text().strip()


def when(moment: datetime | None, seconds: bool = False) -> str:
    """A stored time as pages show it, with its zone: ``2026-11-26 21:48 UTC`` (the
    database keeps UTC; a time read back without its zone is UTC).

    >>> when(datetime(2026, 11, 26, 21, 48, 5))
    '2026-11-26 21:48 UTC'
    >>> from datetime import timedelta, timezone
    >>> when(datetime(2026, 11, 26, 23, 48, tzinfo=timezone(timedelta(hours=2))), True)
    '2026-11-26 21:48:00 UTC'
    """
    if moment is None:
        return "never"
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%d %H:%M:%S UTC" if seconds else "%Y-%m-%d %H:%M UTC")


def number(value: object) -> str:
    """A number as the pages' scripts write it (JavaScript's own), so a page reads the
    same before and after the server pushes it: ``6``, ``6.5``, ``-12``.

    >>> number(6.0), number(6.5), number(-12), number(-12.0), number(0.0), number(None)
    ('6', '6.5', '-12', '-12', '0', '')
    """
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def create_app(
    config: ContestConfig,
    service: Service,
    *,
    secure_cookies: bool = False,
    worker_url: str | None = None,
) -> FastAPI:
    """The app for one contest; at start it resumes unfinished builds and starts the
    contest's local workers against ``worker_url`` (the server's own address; none
    without one)."""
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.filters["when"] = when
    templates.env.filters["number"] = number
    served = Served(None, None)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        service.start(worker_url)
        # what the server holds for good (modules, the games' tables, the app) is left
        # out of the collector's full passes: each walked it all, a pause of 100 ms
        # or more every few seconds under load, the slowest page of every hundred
        gc.collect()
        gc.freeze()
        async with served.running(SWEEP_EVERY):  # games of people against entrants
            yield
        await service.stop()

    # no request body past the largest upload (or a worker's result: a record and two
    # programs' stderr), so nobody fills the server's disk with one request
    largest = max(config.limits.upload_kb * 1024, 2 << 20) + (64 << 10)
    app = FastAPI(
        title=f"arbiter host: {config.name}",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        max_body_size=largest,
    )
    key = ContestKey.of_folder(config.folder)
    app.state.hosting = Hosting(config, service, templates, service.board, key)
    app.state.served = served
    app.add_middleware(
        SessionMiddleware,
        secret_key=secret_key(config.folder),
        session_cookie="arbiter_session",
        same_site="lax",
        https_only=secure_cookies,
        max_age=int(LIFETIME.total_seconds()),
    )

    app.add_middleware(SecurityHeaders)
    app.add_middleware(  # outermost: a stream never enters the app's layers
        EventStreams,
        news=lambda: service.news,
        payload=service.board.payload,
        slots=service.slots,
        headers=SECURITY_HEADERS,
    )

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.mount("/host-static", StaticFiles(directory=HERE / "static"), name="host-static")
    for router in (
        public.router,
        accounts.router,
        contestant.router,
        organiser.router,
        worker_api.router,
        versus.router,
    ):
        app.include_router(router)

    _answer_errors(app, templates)
    return app


def _answer_errors(app: FastAPI, templates: Jinja2Templates) -> None:
    """How the app answers what it refuses: a page with the asker's own bar (JSON on
    ``/api/``), one line for a malformed request, a web session's own errors."""

    @app.exception_handler(Refused)
    async def refused(request: Request, e: Refused) -> Response:
        if request.url.path.startswith("/api/"):
            body = {"error": e.message, **({"code": e.code} if e.code else {})}
            return JSONResponse(body, status_code=e.status)
        hosting: Hosting = app.state.hosting

        def who() -> Account | None:  # the page's bar as the asker's own, signed in or not
            with hosting.service.db.session() as s:
                account = account_of(request, s)
                if account is not None:
                    s.expunge(account)
                return account

        values = page_values(request, hosting, await asyncio.to_thread(who), message=e.message)
        return templates.TemplateResponse(request, "error.html", values, status_code=e.status)

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, e: RequestValidationError) -> Response:
        first = e.errors()[0] if e.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        why = f"{where}: {first.get('msg', 'malformed')}" if where else "malformed request"
        return JSONResponse({"error": why}, status_code=422)

    @app.exception_handler(WebError)
    async def web_error(request: Request, e: WebError) -> Response:
        return JSONResponse({"error": e.message}, status_code=e.status)
