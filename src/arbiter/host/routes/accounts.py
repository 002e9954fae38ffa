"""Signing in and out: log-in (limited per name and address), registration (open or
by invitation), log-out and a password change, each ending sessions on the server."""

# no ``from __future__ import annotations``: FastAPI reads the annotations at run time
from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from arbiter.host import sessions
from arbiter.host.accounts import AccountError, change_password, register
from arbiter.host.deps import (
    SESSION_KEY,
    Checked,
    DbSession,
    Host,
    SignedIn,
    Viewer,
    page,
    sign_in,
    sign_out,
)

router = APIRouter(include_in_schema=False)


@router.get("/login", response_class=HTMLResponse)
def login_page(request: Request, who: Viewer, host: Host) -> HTMLResponse:
    return page(request, host, "login.html", who, error="")


@router.post("/login", dependencies=[Checked])
def login(
    request: Request,
    name: Annotated[str, Form(max_length=64)],
    password: Annotated[str, Form(max_length=256)],
    host: Host,
    s: DbSession,
) -> Response:
    address = request.client.host if request.client else "?"
    try:
        account = host.log_in(s, name, password, address)
    except AccountError as e:
        status = 429 if "wait" in str(e) else 401
        return page(request, host, "login.html", None, error=str(e), status=status)
    sign_in(request, s, account)
    return RedirectResponse("/me", status_code=303)


@router.post("/logout", dependencies=[Checked])
def logout(request: Request, s: DbSession) -> Response:
    sign_out(request, s)
    return RedirectResponse("/", status_code=303)


@router.get("/register", response_class=HTMLResponse)
def register_page(request: Request, who: Viewer, host: Host) -> HTMLResponse:
    return page(request, host, "register.html", who, error="")


@router.post("/register", dependencies=[Checked])
def register_post(
    request: Request,
    name: Annotated[str, Form(max_length=64)],
    password: Annotated[str, Form(max_length=256)],
    host: Host,
    s: DbSession,
    code: Annotated[str, Form(max_length=64)] = "",
) -> Response:
    try:
        account = register(
            s, name, password, code or None, open_=host.config.registration == "open"
        )
    except AccountError as e:
        return page(request, host, "register.html", None, error=str(e), status=400)
    s.commit()
    sign_in(request, s, account)
    return RedirectResponse("/me", status_code=303)


@router.post("/password", dependencies=[Checked])
def password_post(
    request: Request,
    who: SignedIn,
    host: Host,
    s: DbSession,
    current: Annotated[str, Form(max_length=256)],
    new: Annotated[str, Form(max_length=256)],
) -> Response:
    """A new password; every other session of the account ends."""
    try:
        change_password(who, current, new)
    except AccountError as e:
        return page(request, host, "password.html", who, error=str(e), status=400)
    secret = request.session.get(SESSION_KEY)
    sessions.end_all(s, who.id, keep=secret if isinstance(secret, str) else "")
    s.commit()
    return RedirectResponse("/me?password=changed", status_code=303)


@router.get("/password", response_class=HTMLResponse)
def password_page(request: Request, who: SignedIn, host: Host) -> HTMLResponse:
    return page(request, host, "password.html", who, error="")
