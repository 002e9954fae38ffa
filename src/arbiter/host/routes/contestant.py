"""A contestant's own: their page, uploads, and each version's build log, gate
report and sources (the organiser may open them too; anyone else gets 404)."""

# no ``from __future__ import annotations``: FastAPI reads the annotations at run time
import json
from typing import Annotated, Any

from fastapi import APIRouter, File, Form, Request, UploadFile
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from sqlalchemy import select
from sqlalchemy.orm import Session

from arbiter.errors import ArbiterError
from arbiter.host import access
from arbiter.host.archive import UploadError, language_of_upload
from arbiter.host.candidates import evaluate, evaluations
from arbiter.host.deps import Checked, DbSession, Host, Refused, SignedIn, Viewer, page
from arbiter.host.intake import submit, version_dir
from arbiter.host.languages import available
from arbiter.host.models import Account, Version, now
from arbiter.host.rounds import RoundError, irregular_games
from arbiter.host.version_marks import version_marks

router = APIRouter()


@router.get("/me", response_class=HTMLResponse, include_in_schema=False)
def me(request: Request, who: SignedIn, host: Host, s: DbSession) -> HTMLResponse:
    versions = list(
        s.scalars(
            select(Version).where(Version.account_id == who.id).order_by(Version.number.desc())
        )
    )
    languages = [lang for lang in host.config.languages.values() if available(lang)]
    return page(
        request,
        host,
        "me.html",
        who,
        versions=versions,
        marks=version_marks(s, host.config, who, versions),
        languages=languages,
        irregular=irregular_games(s, who.id),
        upload_refusal=host.config.calendar.upload_refusal(now()),
        error="",
        password_changed=request.query_params.get("password") == "changed",
    )


@router.post("/versions", dependencies=[Checked], include_in_schema=False)
def upload(
    source: Annotated[UploadFile, File()],
    who: SignedIn,
    host: Host,
    s: DbSession,
    language: Annotated[str, Form()] = "",
    trial: Annotated[bool, Form()] = False,
) -> Response:
    config = host.config
    if access.is_organiser(who):
        raise Refused(400, "the organiser does not enter the contest")
    shut = config.calendar.upload_refusal(now())
    if shut is not None:  # said before the upload is read (submit refuses it too)
        raise Refused(400, f"upload refused: {shut}")
    data = source.file.read(config.limits.upload_kb * 1024 + 1)
    filename = source.filename or ""
    if not language:
        found = language_of_upload(data, filename, config.languages)
        if found is None:
            raise Refused(
                400,
                f"upload refused: nothing in {filename[:60]!r} says its language: choose one",
            )
        language = found.key
    try:
        version = submit(s, config, who, language, filename, data, trial=trial)
    except (UploadError, ArbiterError) as e:
        raise Refused(400, f"upload refused: {e}") from None
    host.service.intake(version.id)
    host.service.changed()
    return RedirectResponse(f"/versions/{version.id}", status_code=303)


def own_version(version_id: int, who: Account | None, s: Session) -> Version:
    try:
        return access.check_version(who, s.get(Version, version_id))
    except access.Hidden:
        raise Refused(404, f"no version {version_id} of yours") from None


@router.get("/versions/{version_id}", response_class=HTMLResponse, include_in_schema=False)
def version_page(
    request: Request, version_id: int, who: Viewer, host: Host, s: DbSession
) -> HTMLResponse:
    version = own_version(version_id, who, s)
    found = evaluations(s, host.config, version)
    mine = list(s.scalars(select(Version).where(Version.account_id == version.account_id)))
    return page(
        request,
        host,
        "version.html",
        who,
        version=version,
        checks=json.loads(version.checks),
        evaluations=found,
        evaluating=any(e.state == "playing" for e in found),
        mine=who is not None and who.id == version.account_id,
        organiser=access.is_organiser(who),
        mark=version_marks(s, host.config, version.account, mine)[version.id],
        entry_shut=host.config.calendar.upload_refusal(now()),
    )


@router.post("/versions/{version_id}/evaluate", dependencies=[Checked], include_in_schema=False)
def evaluate_version(version_id: int, who: SignedIn, host: Host, s: DbSession) -> Response:
    """Tests a version against the field (its owner or the organiser)."""
    version = own_version(version_id, who, s)
    try:
        evaluate(s, host.config, version)
    except RoundError as e:
        raise Refused(409, f"no evaluation: {e}") from None
    host.service.changed()
    return RedirectResponse(f"/versions/{version.id}", status_code=303)


@router.post("/versions/{version_id}/enter", dependencies=[Checked], include_in_schema=False)
def enter_version(version_id: int, who: SignedIn, host: Host, s: DbSession) -> Response:
    """Enters a candidate in the contest: from the next round it is the one that plays
    (its owner only)."""
    version = own_version(version_id, who, s)
    if who.id != version.account_id:
        raise Refused(403, "only its owner enters a version")
    if version.state != "accepted" or not version.trial:
        raise Refused(409, f"version {version.number} is not an accepted candidate")
    if host.config.calendar.upload_refusal(now()) is not None:
        raise Refused(409, "uploads are closed: a candidate can no longer be entered")
    version.trial = False
    s.commit()
    host.service.changed()
    return RedirectResponse(f"/versions/{version.id}", status_code=303)


@router.get("/api/versions/{version_id}")
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


@router.get("/versions/{version_id}/source")
def version_source(version_id: int, who: Viewer, host: Host, s: DbSession) -> FileResponse:
    version = own_version(version_id, who, s)
    path = version_dir(host.config, version.id) / "upload" / version.filename
    return FileResponse(path, filename=version.filename, media_type="application/octet-stream")
