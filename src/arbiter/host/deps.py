"""What every router of the contest server shares: the contest being hosted, a
database session per request, who is asking, the CSRF check and page rendering.

Routers reach the hosted contest through the app's state (:func:`hosting`), so each
router is a plain module of routes and the app (:mod:`arbiter.host.app`) only
assembles them. Who is asking comes from the server-side session
(:mod:`arbiter.host.sessions`) the signed cookie names; the cookie also carries the
session's CSRF token, which every state-changing browser request must send back.
"""

# no ``from __future__ import annotations``: FastAPI reads these annotations at run time
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from sqlalchemy.orm import Session
from starlette.requests import HTTPConnection

from arbiter.games import find_game
from arbiter.host import access, sessions
from arbiter.host.accounts import LogIn
from arbiter.host.config import ContestConfig
from arbiter.host.models import Account
from arbiter.host.service import Service
from arbiter.host.signing import ContestKey
from arbiter.host.standings import Board

SESSION_KEY = "sid"
CSRF_KEY = "csrf"


class Refused(Exception):
    """A request the server answers with ``status`` and a one-line ``message``
    (JSON under ``/api/``, the error page elsewhere); ``code`` names the refusal
    for a program to act on."""

    def __init__(self, status: int, message: str, code: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code


@dataclass
class Hosting:
    """The contest an app hosts and what its routes share."""

    config: ContestConfig
    service: Service
    templates: Jinja2Templates
    board: Board
    key: ContestKey
    log_in: LogIn = field(default_factory=LogIn)

    @property
    def job(self) -> dict[str, Any]:
        """What every job of this contest carries: game, clock, limits, run commands."""
        config = self.config
        return {
            "game": config.game,
            "time_control": config.clock,
            "memory_mb": config.limits.memory_mb,
            "disk_mb": config.limits.disk_mb,
            "lease_seconds": config.lease_seconds,
            "runs": {key: lang.run for key, lang in config.languages.items()},
        }


def hosting(request: Request) -> Hosting:
    found: Hosting = request.app.state.hosting
    return found


Host = Annotated[Hosting, Depends(hosting)]


def database(host: Host) -> Iterator[Session]:
    with host.service.db.session() as s:
        yield s


DbSession = Annotated[Session, Depends(database)]


def viewer(request: Request, s: DbSession) -> Account | None:
    """The signed-in account, or None; a disqualified contestant is signed out."""
    return account_of(request, s)


def account_of(connection: HTTPConnection, s: Session) -> Account | None:
    """The account signed in on ``connection`` (a request or a web socket), or None;
    a disqualified contestant is signed out."""
    secret = connection.session.get(SESSION_KEY)
    account = sessions.account_of(s, secret) if isinstance(secret, str) else None
    if account is None or (account.disqualified and not access.is_organiser(account)):
        return None
    return account


Viewer = Annotated[Account | None, Depends(viewer)]


def signed_in(who: Viewer) -> Account:
    if who is None:
        raise Refused(401, "log in first")
    return who


SignedIn = Annotated[Account, Depends(signed_in)]


def organiser(who: SignedIn) -> Account:
    if not access.is_organiser(who):
        raise Refused(403, "only the organiser may do that")
    return who


Organiser = Annotated[Account, Depends(organiser)]


def csrf_token(request: Request) -> str:
    """The session's CSRF token, made at its first use."""
    token = request.session.get(CSRF_KEY)
    if not isinstance(token, str):
        token = secrets.token_urlsafe(32)
        request.session[CSRF_KEY] = token
    return token


async def checked(request: Request) -> None:
    """Refuses a state-changing request without the session's CSRF token (in the
    form's ``csrf`` field or the ``X-CSRF-Token`` header)."""
    expected = request.session.get(CSRF_KEY)
    given = request.headers.get("x-csrf-token")
    if given is None and request.headers.get("content-type", "").startswith(
        ("application/x-www-form-urlencoded", "multipart/form-data")
    ):
        form = await request.form()
        field_value = form.get("csrf")
        given = field_value if isinstance(field_value, str) else None
    if not isinstance(expected, str) or not isinstance(given, str):
        raise Refused(403, "the form's CSRF token is missing: reload the page")
    if not secrets.compare_digest(expected, given):
        raise Refused(403, "the form's CSRF token is wrong: reload the page")


Checked = Depends(checked)


def page_values(
    request: Request, host: Hosting, who: Account | None, **values: Any
) -> dict[str, Any]:
    return {
        "contest": host.config,
        "game_title": find_game(host.config.game).title,
        "who": who,
        "csrf": csrf_token(request),
        **values,
    }


def page(
    request: Request,
    host: Hosting,
    name: str,
    who: Account | None,
    status: int = 200,
    **values: Any,
) -> HTMLResponse:
    """The template ``name`` rendered for ``who``."""
    return host.templates.TemplateResponse(
        request, name, page_values(request, host, who, **values), status_code=status
    )


def sign_in(request: Request, s: Session, account: Account) -> None:
    """Starts a server-side session for ``account`` in a fresh cookie (a new CSRF
    token too; committed)."""
    request.session.clear()
    request.session[SESSION_KEY] = sessions.open_session(s, account)
    s.commit()


def sign_out(request: Request, s: Session) -> None:
    """Ends this browser's session, on the server too (committed)."""
    secret = request.session.get(SESSION_KEY)
    if isinstance(secret, str):
        sessions.end(s, secret)
        s.commit()
    request.session.clear()
