"""The pages: static files, whose scripts read everything from the JSON API."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import FileResponse

from arbiter.web.routes import STATIC

router = APIRouter(include_in_schema=False)


@router.get("/")
async def index() -> FileResponse:
    return FileResponse(STATIC / "index.html")


@router.get("/play/{sid}")
async def play_page(sid: str) -> FileResponse:
    return FileResponse(STATIC / "game.html")


@router.get("/replay")
async def replay_page() -> FileResponse:
    return FileResponse(STATIC / "replay.html")


@router.get("/tournament/{name}")
async def standings_page(name: str) -> FileResponse:
    return FileResponse(STATIC / "standings.html")


@router.get("/favicon.ico")
async def favicon() -> FileResponse:
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")
