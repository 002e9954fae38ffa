"""``arbiter host``: the contest server's web app, pages and API.

Pages are rendered on the server (Jinja2) from the database; the boards and replays
are the web app's own (``/static``, shared with ``arbiter serve``). Sessions are
signed, HttpOnly, SameSite cookies (Starlette's session middleware over
itsdangerous); every form and every state-changing request carries the session's
CSRF token and is refused without it. Workers speak the JSON API under
``/api/worker`` with their bearer token. What anyone may see is decided in
:mod:`arbiter.host.access`.
"""

# no ``from __future__ import annotations`` here: FastAPI reads the dependencies'
# annotations at run time, and they name aliases local to create_app
import contextlib
import io
import json
import math
import secrets
import tarfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, File, Form, Request, UploadFile
from fastapi.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.middleware.sessions import SessionMiddleware

from arbiter.errors import ArbiterError
from arbiter.games import find_game
from arbiter.host import access, queue
from arbiter.host.accounts import AccountError, LogIn, invite, register, worker_for
from arbiter.host.archive import UploadError, language_of
from arbiter.host.config import ContestConfig
from arbiter.host.intake import submit, version_dir
from arbiter.host.kits import kit_file, kits
from arbiter.host.languages import available
from arbiter.host.models import Account, Game, Round, Setting, Version, Worker, now
from arbiter.host.plot import rating_svg
from arbiter.host.rounds import (
    RoundError,
    bye_points,
    finish_round_if_done,
    make_round,
    rating_history,
    rerun_round,
    standings_of,
)
from arbiter.host.service import Service
from arbiter.record import GameRecord
from arbiter.web.replays import replay_json
from arbiter.web.sessions import WebError

HERE = Path(__file__).parent
WEB_STATIC = HERE.parent / "web" / "static"
HEARTBEAT = 15.0
"""Seconds between two keep-alive comments on an idle event stream."""


class Refused(Exception):
    """A request the server answers with ``status`` and a one-line ``message``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def secret_key(folder: Path) -> str:
    """The key that signs session cookies: made once, kept 0600 in the contest folder."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "secret.key"
    if not path.exists():
        fd = path.open("x")
        path.chmod(0o600)
        with fd:
            fd.write(secrets.token_urlsafe(48))
    return path.read_text().strip()


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
    db = service.db
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    log_in = LogIn()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        service.start(worker_url)
        yield
        await service.stop()

    # no request body past the largest upload (or a worker's result: a record and two
    # programs' stderr), so nobody fills the server's disk with one request
    largest = max(config.limits.upload_kb * 1024, 2 << 20) + (64 << 10)
    app = FastAPI(
        title=f"arbiter host: {config.name}",
        lifespan=lifespan,
        docs_url=None,
        max_body_size=largest,
    )
    app.add_middleware(
        SessionMiddleware,
        secret_key=secret_key(config.folder),
        session_cookie="arbiter_session",
        same_site="lax",
        https_only=secure_cookies,
        max_age=14 * 24 * 3600,
    )
    app.mount("/static", StaticFiles(directory=WEB_STATIC), name="static")

    @app.exception_handler(Refused)
    async def refused(request: Request, e: Refused) -> Response:
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": e.message}, status_code=e.status)
        return templates.TemplateResponse(
            request, "error.html", _page(request, None, message=e.message), status_code=e.status
        )

    @app.exception_handler(WebError)
    async def web_error(request: Request, e: WebError) -> Response:
        return JSONResponse({"error": e.message}, status_code=e.status)

    # -- who is asking ---------------------------------------------------------------

    def session() -> Any:
        with db.session() as s:
            yield s

    DbSession = Annotated[Session, Depends(session)]

    def viewer(request: Request, s: DbSession) -> Account | None:
        account_id = request.session.get("account")
        if account_id is None:
            return None
        account = s.get(Account, account_id)
        if account is None or (account.disqualified and account.role != "organiser"):
            request.session.clear()
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
        token = request.session.get("csrf")
        if not isinstance(token, str):
            token = secrets.token_urlsafe(32)
            request.session["csrf"] = token
        return token

    async def checked(request: Request) -> None:
        """Refuses a state-changing request without the session's CSRF token (in the
        form's ``csrf`` field or the ``X-CSRF-Token`` header)."""
        expected = request.session.get("csrf")
        given = request.headers.get("x-csrf-token")
        if given is None and request.headers.get("content-type", "").startswith(
            ("application/x-www-form-urlencoded", "multipart/form-data")
        ):
            given = (await request.form()).get("csrf")  # type: ignore[assignment]
        if not isinstance(expected, str) or not isinstance(given, str):
            raise Refused(403, "the form's CSRF token is missing: reload the page")
        if not secrets.compare_digest(expected, given):
            raise Refused(403, "the form's CSRF token is wrong: reload the page")

    def _page(request: Request, who: Account | None, **values: Any) -> dict[str, Any]:
        return {
            "contest": config,
            "game_title": find_game(config.game).title,
            "who": who,
            "csrf": csrf_token(request),
            **values,
        }

    def page(
        request: Request, name: str, who: Account | None, status: int = 200, **values: Any
    ) -> HTMLResponse:
        return templates.TemplateResponse(
            request, name, _page(request, who, **values), status_code=status
        )

    # -- public pages ----------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def home(request: Request, who: Viewer, s: DbSession) -> HTMLResponse:
        return page(request, "standings.html", who, **standings_data(s))

    @app.get("/api/standings")
    def standings_json(s: DbSession) -> dict[str, Any]:
        return standings_data(s)

    @app.get("/api/events")
    async def events(request: Request) -> StreamingResponse:
        """Server-sent events: ``standings`` whenever a result, a round or a version
        changes what the standings page shows."""

        async def stream() -> AsyncIterator[str]:
            seen = service.news.number
            yield "retry: 2000\n\n"
            while not await request.is_disconnected():
                now = await service.news.wait(seen, HEARTBEAT)
                if now == seen:
                    yield ": keep-alive\n\n"
                    continue
                seen = now
                with db.session() as s:
                    data = standings_data(s)
                yield f"event: standings\ndata: {json.dumps(data)}\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream")

    cache: dict[str, Any] = {}

    def standings_data(s: Session) -> dict[str, Any]:
        """The standings, computed once for each piece of news (a result, a round, the
        organiser's freeze), however many pages ask."""
        number = service.news.number
        if cache.get("number") == number:
            return dict(cache["data"])
        data = _standings(s)
        cache.update(number=number, data=data)
        return dict(data)

    def _standings(s: Session) -> dict[str, Any]:
        frozen = s.get(Setting, "frozen")
        if frozen is not None:
            data: dict[str, Any] = json.loads(frozen.value)
            data["frozen"] = True
            return data
        table = standings_of(s, config)
        byes = bye_points(s)
        ids = dict(s.execute(select(Account.name, Account.id)).all())
        credited = [(line, byes.get(ids.get(line.name, -1), 0.0)) for line in table.lines]
        credited.sort(key=lambda c: (-(c[0].points + c[1]), -c[0].rating.elo, c[0].name))
        rows = [
            {
                "name": line.name,
                "games": line.games,
                "wins": line.wins,
                "draws": line.draws,
                "losses": line.losses,
                "points": line.points + extra,
                "byes": extra,
                "contest_points": line.contest_points,
                "elo": round(line.rating.elo),
                "error": round(line.rating.error) if math.isfinite(line.rating.error) else None,
            }
            for line, extra in credited
        ]
        played = {line.name for line in table.lines}
        for name, account_id in ids.items():  # a bye before a first game
            if name not in played and account_id in byes:
                rows.append(
                    {
                        "name": name,
                        "games": 0,
                        "wins": 0,
                        "draws": 0,
                        "losses": 0,
                        "points": byes[account_id],
                        "byes": byes[account_id],
                        "contest_points": 0.0,
                        "elo": 0,
                        "error": None,
                    }
                )
        rows.sort(key=lambda r: -float(r["points"] or 0))  # stable: the ratings' order within
        rounds = [
            {"number": r.number, "kind": r.kind, "state": r.state}
            for r in s.scalars(select(Round).order_by(Round.number))
        ]
        return {
            "rows": rows,
            "rounds": rounds,
            "contest_scored": table.contest_scored,
            "games": table.games,
            "frozen": False,
        }

    @app.get("/contestants/{name}", response_class=HTMLResponse, include_in_schema=False)
    def contestant(
        request: Request,
        name: str,
        who: Viewer,
        s: DbSession,
    ) -> HTMLResponse:
        account = s.scalar(select(Account).where(Account.name == name))
        if account is None or account.role != "contestant":
            raise Refused(404, f"no contestant {name!r}")
        versions = list(
            s.scalars(
                select(Version).where(Version.account_id == account.id).order_by(Version.number)
            )
        )
        mine = {v.id for v in versions}
        games = list(
            s.scalars(
                select(Game)
                .where(Game.state == "done", Game.first_id.in_(mine) | Game.second_id.in_(mine))
                .order_by(Game.id.desc())
                .limit(200)
            )
        )
        return page(
            request,
            "contestant.html",
            who,
            account=account,
            versions=versions,
            games=games,
            rating=rating_svg(rating_history(s, config, account.name)),
            owner=who is not None and (who.id == account.id or access.is_organiser(who)),
        )

    @app.get("/games/{game_id}", response_class=HTMLResponse, include_in_schema=False)
    def game_page(game_id: int) -> FileResponse:
        return FileResponse(WEB_STATIC / "replay.html")

    @app.get("/api/contest/games/{game_id}")
    def game_json(game_id: int, who: Viewer, s: DbSession) -> dict[str, Any]:
        game = s.get(Game, game_id)
        if game is None or game.state != "done":
            raise Refused(404, f"no finished game {game_id}")
        record = GameRecord.from_json(game.record)
        data = replay_json(record)
        data["logs"] = [
            f"/games/{game_id}/logs/{seat + 1}" if visible else None
            for seat, visible in enumerate(access.logs_visible(who, game))
        ]
        return data

    @app.get("/api/games/{game}/board")
    def board(game: str) -> dict[str, Any]:
        if game != config.game:
            raise Refused(404, f"this contest plays {config.game}")
        return find_game(game).board_view().layout.to_json()

    @app.get("/games/{game_id}/logs/{seat}", response_class=PlainTextResponse)
    def game_log(
        game_id: int,
        seat: int,
        who: Viewer,
        s: DbSession,
    ) -> str:
        game = s.get(Game, game_id)
        if game is None or seat not in (1, 2):
            raise Refused(404, "no such log")
        try:
            return access.game_log(who, game, seat - 1)
        except access.Hidden:
            raise Refused(404, "no such log") from None

    @app.get("/kits", response_class=HTMLResponse, include_in_schema=False)
    def kits_page(request: Request, who: Viewer) -> HTMLResponse:
        return page(request, "kits.html", who, kits=kits(config.game))

    @app.get("/kits/{language}/{name}")
    def kit_download(language: str, name: str) -> FileResponse:
        path = kit_file(config.game, language, name)
        if path is None:
            raise Refused(404, f"no starter kit file {language}/{name}")
        return FileResponse(path, filename=name, media_type="text/plain")

    # -- accounts ----------------------------------------------------------------------

    @app.get("/login", response_class=HTMLResponse, include_in_schema=False)
    def login_page(request: Request, who: Viewer) -> HTMLResponse:
        return page(request, "login.html", who, error="")

    @app.post("/login", dependencies=[Depends(checked)], include_in_schema=False)
    def login(
        request: Request,
        name: Annotated[str, Form(max_length=64)],
        password: Annotated[str, Form(max_length=256)],
        s: DbSession,
    ) -> Response:
        address = request.client.host if request.client else "?"
        try:
            account = log_in(s, name, password, address)
        except AccountError as e:
            status = 429 if "too many" in str(e) else 401
            return page(request, "login.html", None, error=str(e), status=status)
        s.commit()
        return start_session(request, account)

    @app.post("/logout", dependencies=[Depends(checked)], include_in_schema=False)
    def logout(request: Request) -> Response:
        request.session.clear()
        return RedirectResponse("/", status_code=303)

    @app.get("/register", response_class=HTMLResponse, include_in_schema=False)
    def register_page(request: Request, who: Viewer) -> HTMLResponse:
        return page(request, "register.html", who, error="")

    @app.post("/register", dependencies=[Depends(checked)], include_in_schema=False)
    def register_post(
        request: Request,
        name: Annotated[str, Form(max_length=64)],
        password: Annotated[str, Form(max_length=256)],
        s: DbSession,
        code: Annotated[str, Form(max_length=64)] = "",
    ) -> Response:
        try:
            account = register(s, name, password, code or None, open_=config.registration == "open")
        except AccountError as e:
            return page(request, "register.html", None, error=str(e), status=400)
        s.commit()
        return start_session(request, account)

    def start_session(request: Request, account: Account) -> Response:
        """Signs ``account`` in with a fresh session (a new CSRF token too) and opens
        its page."""
        request.session.clear()
        request.session["account"] = account.id
        return RedirectResponse("/me", status_code=303)

    # -- a contestant's own ------------------------------------------------------------

    @app.get("/me", response_class=HTMLResponse, include_in_schema=False)
    def me(request: Request, who: SignedIn, s: DbSession) -> HTMLResponse:
        versions = list(
            s.scalars(
                select(Version).where(Version.account_id == who.id).order_by(Version.number.desc())
            )
        )
        languages = [lang for lang in config.languages.values() if available(lang)]
        return page(request, "me.html", who, versions=versions, languages=languages, error="")

    @app.post("/versions", dependencies=[Depends(checked)], include_in_schema=False)
    def upload(
        request: Request,
        source: Annotated[UploadFile, File()],
        who: SignedIn,
        s: DbSession,
        language: Annotated[str, Form()] = "",
    ) -> Response:
        if access.is_organiser(who):
            raise Refused(400, "the organiser does not enter the contest")
        data = source.file.read(config.limits.upload_kb * 1024 + 1)
        filename = source.filename or ""
        if not language:
            found = language_of(filename, config.languages)
            language = found.key if found else ""
        try:
            version = submit(s, config, who, language, filename, data)
        except (UploadError, ArbiterError) as e:
            raise Refused(400, f"upload refused: {e}") from None
        service.intake(version.id)
        service.news.announce()
        return RedirectResponse(f"/versions/{version.id}", status_code=303)

    def own_version(version_id: int, who: Account | None, s: Session) -> Version:
        try:
            return access.check_version(who, s.get(Version, version_id))
        except access.Hidden:
            raise Refused(404, f"no version {version_id} of yours") from None

    @app.get("/versions/{version_id}", response_class=HTMLResponse, include_in_schema=False)
    def version_page(
        request: Request,
        version_id: int,
        who: Viewer,
        s: DbSession,
    ) -> HTMLResponse:
        version = own_version(version_id, who, s)
        return page(
            request, "version.html", who, version=version, checks=json.loads(version.checks)
        )

    @app.get("/api/versions/{version_id}")
    def version_json(version_id: int, who: Viewer, s: DbSession) -> dict[str, Any]:
        version = own_version(version_id, who, s)
        return {
            "id": version.id,
            "number": version.number,
            "language": version.language,
            "state": version.state,
            "reason": version.reason,
            "build_log": version.build_log,
            "checks": json.loads(version.checks),
        }

    @app.get("/versions/{version_id}/source")
    def version_source(version_id: int, who: Viewer, s: DbSession) -> FileResponse:
        version = own_version(version_id, who, s)
        path = version_dir(config, version.id) / "upload" / version.filename
        return FileResponse(path, filename=version.filename, media_type="application/octet-stream")

    # -- the organiser -----------------------------------------------------------------

    @app.get("/organiser", response_class=HTMLResponse, include_in_schema=False)
    def organiser_page(request: Request, who: Organiser, s: DbSession) -> HTMLResponse:
        return page(
            request,
            "organiser.html",
            who,
            rounds=list(s.scalars(select(Round).order_by(Round.number))),
            accounts=list(s.scalars(select(Account).where(Account.role == "contestant"))),
            workers=list(s.scalars(select(Worker).order_by(Worker.name))),
            paused=queue.paused(s),
            frozen=s.get(Setting, "frozen") is not None,
            invitation=request.query_params.get("invitation", ""),
        )

    @app.post("/organiser/rounds", dependencies=[Depends(checked)], include_in_schema=False)
    def new_round(who: Organiser, s: DbSession) -> Response:
        try:
            make_round(s, config)
        except RoundError as e:
            raise Refused(409, str(e)) from None
        service.news.announce()
        return RedirectResponse("/organiser", status_code=303)

    @app.post("/organiser/{action}", dependencies=[Depends(checked)], include_in_schema=False)
    def organiser_action(
        action: str,
        who: Organiser,
        s: DbSession,
        name: Annotated[str, Form(max_length=64)] = "",
    ) -> Response:
        target = name
        if action == "pause":
            s.merge(Setting(key="paused", value="1"))
        elif action == "resume":
            if (setting := s.get(Setting, "paused")) is not None:
                s.delete(setting)
        elif action == "freeze":
            s.merge(Setting(key="frozen", value=json.dumps(standings_data(s))))
        elif action == "unfreeze":
            if (setting := s.get(Setting, "frozen")) is not None:
                s.delete(setting)
        elif action in ("disqualify", "reinstate"):
            account = s.scalar(select(Account).where(Account.name == target))
            if account is None or account.role != "contestant":
                raise Refused(404, f"no contestant {target!r}")
            account.disqualified = action == "disqualify"
        elif action == "rerun":
            try:
                rerun_round(s, int(target) if target.isdigit() else -1)
            except RoundError as e:
                raise Refused(409, str(e)) from None
        elif action == "invite":
            code = invite(s)
            s.commit()
            return RedirectResponse(f"/organiser?invitation={code}", status_code=303)
        else:
            raise Refused(404, f"no action {action!r}")
        s.commit()
        service.news.announce()
        return RedirectResponse("/organiser", status_code=303)

    @app.get("/organiser/export")
    def export(who: Organiser, s: DbSession) -> Response:
        """Every finished game's record (JSON lines) and the standings, as one tar.gz."""
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
            records = "".join(
                g.record + "\n"
                for g in s.scalars(select(Game).where(Game.state == "done").order_by(Game.id))
            ).encode()
            table = json.dumps(standings_data(s), indent=1).encode()
            for name, data in (("games.jsonl", records), ("standings.json", table)):
                info = tarfile.TarInfo(name)
                info.size = len(data)
                archive.addfile(info, io.BytesIO(data))
        headers = {"Content-Disposition": 'attachment; filename="contest.tar.gz"'}
        return Response(buffer.getvalue(), media_type="application/gzip", headers=headers)

    # -- workers ----------------------------------------------------------------------

    def worker(request: Request, s: DbSession) -> Worker:
        header = request.headers.get("authorization", "")
        token = header.removeprefix("Bearer ").strip()
        found = worker_for(s, token) if token else None
        if found is None:
            raise Refused(401, "a worker's token is required")
        return found

    WorkerAuth = Annotated[Worker, Depends(worker)]

    contest_job = {
        "game": config.game,
        "time_control": config.clock,
        "memory_mb": config.limits.memory_mb,
        "disk_mb": config.limits.disk_mb,
        "lease_seconds": config.lease_seconds,
        "runs": {key: lang.run for key, lang in config.languages.items()},
    }

    @app.post("/api/worker/lease", response_model=None)
    def lease(w: WorkerAuth, s: DbSession) -> Any:
        w.last_seen = now()
        s.commit()
        got = queue.lease(s, w.name, config.lease_seconds)
        if got is None:
            return Response(status_code=204)
        return {**queue.job(s, got.game_id, contest_job), "lease": got.token}

    @app.post("/api/worker/games/{game_id}/heartbeat")
    def heartbeat(
        game_id: int,
        body: dict[str, Any],
        w: WorkerAuth,
        s: DbSession,
    ) -> dict[str, bool]:
        if not queue.renew(s, game_id, str(body.get("lease")), config.lease_seconds):
            raise Refused(409, "the lease is not this worker's")
        return {"ok": True}

    @app.post("/api/worker/games/{game_id}/release")
    def release(
        game_id: int,
        body: dict[str, Any],
        w: WorkerAuth,
        s: DbSession,
    ) -> dict[str, bool]:
        return {"released": queue.release(s, game_id, str(body.get("lease")))}

    @app.post("/api/worker/games/{game_id}/result")
    def result(
        game_id: int,
        body: dict[str, Any],
        w: WorkerAuth,
        s: DbSession,
    ) -> dict[str, bool]:
        logs = body.get("logs") or ["", ""]
        try:
            queue.finish(
                s,
                game_id,
                str(body.get("lease")),
                str(body.get("record")),
                (str(logs[0]), str(logs[1])),
                (config.game, config.clock),
            )
        except queue.ResultError as e:
            raise Refused(409, str(e)) from None
        game = s.get(Game, game_id)
        if game is not None and finish_round_if_done(s, game.round_id):
            service.ladder_step()  # the next placements, on a ladder
        service.news.announce()
        return {"stored": True}

    @app.get("/api/worker/programs/{version_id}")
    def program(version_id: int, w: WorkerAuth, s: DbSession) -> Response:
        version = s.get(Version, version_id)
        if version is None or version.state != "accepted":
            raise Refused(404, f"no accepted version {version_id}")
        folder = version_dir(config, version_id) / "build"
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
            archive.add(folder, arcname=".")
        return Response(buffer.getvalue(), media_type="application/gzip")

    return app
