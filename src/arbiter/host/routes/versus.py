"""A person against an entrant: the contestant's page starts a game, which is then
played on ``arbiter serve``'s board page through its session API (included here)."""

# no ``from __future__ import annotations``: FastAPI reads the annotations at run time
from typing import Annotated

from fastapi import APIRouter, Form
from fastapi.responses import FileResponse, RedirectResponse, Response

from arbiter.games import find_game
from arbiter.host.config import contest_supervision
from arbiter.host.deps import Checked, DbSession, Host, Refused, SignedIn
from arbiter.host.versus import NoOpponent, entrant_agent
from arbiter.web.routes import play
from arbiter.web.served import Serving
from arbiter.web.sessions import WebError, human_game

from . import STATIC

SESSION_ROUTES = (
    "/api/sessions/{sid}",
    "/api/sessions/{sid}/continuations",
    "/api/sessions/{sid}/move",
    "/api/sessions/{sid}/undo",
    "/api/sessions/{sid}/resign",
    "/api/sessions/{sid}/live",
)
"""The routes of ``arbiter serve`` a game on the contest site needs (not its own
new games: here a person plays only the contest's entrants)."""

router = APIRouter(include_in_schema=False)
router.routes.extend(r for r in play.router.routes if getattr(r, "path", "") in SESSION_ROUTES)


@router.post("/contestants/{name}/play", dependencies=[Checked])
async def play_entrant(
    name: str,
    who: SignedIn,
    host: Host,
    s: DbSession,
    served: Serving,
    side: Annotated[str, Form(max_length=16)] = "first",
) -> Response:
    """Starts a game of the signed-in person against ``name``'s current program, on
    the contest's clock and behind the contest's walls."""
    config = host.config
    spec = find_game(config.game)
    if side not in ("first", "second"):
        raise Refused(422, f"side must be first or second, not {side!r}")
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
    )
    try:
        await served.keep(session)
    except WebError as e:
        raise Refused(e.status, str(e)) from None
    return RedirectResponse(f"/play/{session.id}", status_code=303)


@router.get("/play/{sid}")
def play_page(sid: str) -> FileResponse:
    return FileResponse(STATIC / "game.html")
