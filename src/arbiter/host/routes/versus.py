"""A person against an entrant: the contestant's page starts a game, which is then
played on ``arbiter serve``'s board page through its session API (included here).

Each such game belongs to the person who started it: only they see it and play it
(signed in, with the site's CSRF token on every move), at most ``[play] per_person``
at once each, and no more in all than the entrants' programs fit in ``[play]
memory_mb``, so no one person takes every program the server can run."""

# no ``from __future__ import annotations``: FastAPI reads the annotations at run time
import asyncio
from typing import Annotated

from fastapi import APIRouter, Depends, Form, Request, WebSocket
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.routing import APIRoute

from arbiter.games import find_game
from arbiter.host.config import contest_supervision
from arbiter.host.deps import (
    Checked,
    DbSession,
    Host,
    Hosting,
    Refused,
    SignedIn,
    account_of,
    checked,
    csrf_token,
)
from arbiter.host.versus import NoOpponent, entrant_agent
from arbiter.web.routes import play
from arbiter.web.served import Served, Serving
from arbiter.web.sessions import Session, WebError, human_game

from . import headed_page

SESSION_ROUTES = (
    "/api/sessions/{sid}",
    "/api/sessions/{sid}/continuations",
    "/api/sessions/{sid}/move",
    "/api/sessions/{sid}/undo",
    "/api/sessions/{sid}/resign",
)
"""The routes of ``arbiter serve`` a game on the contest site needs (not its own
new games: here a person plays only the contest's entrants), each behind
:func:`owned`; the live socket is :func:`live`'s."""

NOT_YOURS = "this game is another person's: only who started it sees and plays it"


async def owned(request: Request, sid: str, host: Host, served: Serving) -> None:
    """Refuses a game's route to anyone but the person who started it, and a change
    without the site's CSRF token.

    :raises Refused: 401 signed out, 403 another person's game or no CSRF token.
    """
    session = served.sessions.get(sid)
    if session is None:
        return  # the route answers 404
    owner = await asyncio.to_thread(_account_id, request, host)
    if owner is None:
        raise Refused(401, "log in first: a game against an entrant is its player's")
    if session.owner != owner:
        raise Refused(403, NOT_YOURS)
    if request.method != "GET":
        await checked(request)


def _account_id(connection: Request | WebSocket, host: Hosting) -> int | None:
    with host.service.db.session() as s:
        account = account_of(connection, s)
        return None if account is None else account.id


router = APIRouter(include_in_schema=False)
for route in play.router.routes:
    if isinstance(route, APIRoute) and route.path in SESSION_ROUTES:
        router.add_api_route(
            route.path,
            route.endpoint,
            methods=sorted(route.methods or ()),
            dependencies=[Depends(owned)],
            status_code=route.status_code,
        )


@router.websocket("/api/sessions/{sid}/live")
async def live(socket: WebSocket, sid: str) -> None:
    """The game's moves as they come, to the person who started it only."""
    served: Served = socket.app.state.served
    host: Hosting = socket.app.state.hosting
    session = served.sessions.get(sid)
    if session is not None and session.owner != await asyncio.to_thread(_account_id, socket, host):
        await socket.accept()
        await socket.send_json({"error": NOT_YOURS})
        await socket.close(code=4403)
        return
    await play.live(socket, sid, served)


def in_progress(served: Served) -> list[Session]:
    """The games against entrants being played now."""
    return [s for s in served.sessions.values() if s.owner is not None and s.outcome is None]


def check_room(host: Hosting, served: Served, owner: int) -> None:
    """Refuses ``owner`` another game against an entrant while they hold their
    share, or while such games use all the memory set aside for them.

    :raises Refused: 503 when the contest turns such games off or their memory is
        used; 429 for a person with ``per_person`` games in progress.
    """
    limits, each = host.config.play, host.config.limits.memory_mb
    playing = in_progress(served)
    mine = sum(1 for s in playing if s.owner == owner)
    if limits.per_person == 0:
        raise Refused(503, "games against entrants are turned off in this contest")
    if mine >= limits.per_person:
        raise Refused(
            429,
            f"you have {mine} games against entrants in progress (at most "
            f"{limits.per_person} at once): finish or resign one first",
        )
    if (len(playing) + 1) * each > limits.memory_mb:
        raise Refused(
            503,
            f"the server's games against entrants use all the memory set aside for them "
            f"({limits.memory_mb} MB, {each} MB a program): try again when one ends",
        )


@router.post("/contestants/{name}/play", dependencies=[Checked])
async def play_entrant(
    name: str,
    who: SignedIn,
    host: Host,
    s: DbSession,
    served: Serving,
    side: Annotated[str, Form(max_length=16)] = "first",
) -> Response:
    """Starts a game of the signed-in person against ``name``'s current program, the
    program on the contest's clock and behind the contest's walls, the person without
    a clock (a contest's clock is made for programs: Alquerque's 30 s a game, or
    Chinese checkers' 1 s a move after five minutes, is none for a person).

    :raises Refused: 422 for a side that is neither; 404 for no such entrant; 429 for
        a person with their games' worth in progress; 503 when the games against
        entrants use all their memory.
    """
    config = host.config
    spec = find_game(config.game)
    if side not in ("first", "second"):
        raise Refused(422, f"side must be first or second, not {side!r}")
    check_room(host, served, who.id)
    try:
        engine = entrant_agent(s, config, name)
    except NoOpponent as e:
        raise Refused(404, str(e)) from None
    watch = contest_supervision(
        config.game, config.limits.memory_mb, host.service.isolation, config.limits.disk_mb
    )
    session = human_game(
        spec,
        0 if side == "first" else 1,
        engine,
        config.time_control,
        1.0,
        supervision=watch,
        person_timed=False,
    )
    session.owner = who.id
    try:
        await served.keep(session)
    except WebError as e:
        raise Refused(e.status, str(e)) from None
    return RedirectResponse(f"/play/{session.id}", status_code=303)


@router.get("/play/{sid}")
def play_page(request: Request, sid: str, host: Host) -> HTMLResponse:
    """The board page under the contest's name, carrying the site's CSRF token for
    the moves it sends."""
    meta = f'<meta name="csrf-token" content="{csrf_token(request)}">'
    return HTMLResponse(headed_page("game.html", host.config.name, meta))
