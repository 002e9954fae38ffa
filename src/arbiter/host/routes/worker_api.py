"""The worker API: machines that play the contest's games lease them, renew their
lease while they play, send each result (or say why they could not play), and fetch
the packed programs. Every call but ``/api/contest`` carries the worker's token and
its process id (:mod:`arbiter.host.workers`); messages are :mod:`arbiter.host.wire`'s."""

# no ``from __future__ import annotations``: FastAPI reads the annotations at run time
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import FileResponse, Response
from sqlalchemy.orm import Session

from arbiter.host import queue, settle, workers
from arbiter.host.candidates import sprt_step
from arbiter.host.coordination import exclusive
from arbiter.host.deps import DbSession, Host, Hosting, Refused
from arbiter.host.models import Game, Version, Worker
from arbiter.host.programs import archive_path, store_of
from arbiter.host.rounds import finish_round_if_done
from arbiter.host.wire import (
    INSTANCE_HEADER,
    FailureBody,
    Job,
    LeaseBody,
    LeaseRequest,
    MovesBody,
    ResultBody,
    Stored,
)

router = APIRouter(prefix="/api/worker")


async def raw_body(request: Request) -> bytes:
    """The call's body as sent, which its signature covers (FastAPI reads the same
    bytes again for the route's model)."""
    return await request.body()


def worker(
    request: Request, body: Annotated[bytes, Depends(raw_body)], host: Host, s: DbSession
) -> Worker:
    """The worker that signed this call, and its process (recorded and committed).

    :raises Refused: 401 for a call unsigned, signed by an unknown or revoked key, not
        over this call, out of date or replayed; 409 (code ``token-in-use``) while
        another process uses the token.
    """
    query = request.scope.get("query_string", b"")
    path = request.scope.get("raw_path") or request.scope["path"].encode()
    call = workers.Call(
        authorization=request.headers.get("authorization", ""),
        method=request.method,
        target=(path + (b"?" + query if query else b"")).decode("latin-1"),
        body=body,
        instance=request.headers.get(INSTANCE_HEADER, "")[:64],
    )
    try:
        found = workers.claim(s, call, host.config.lease_seconds)
    except workers.TokenRefused as e:
        if e.status == 409:
            s.commit()  # its nonce is spent: the call is never accepted later
        else:
            s.rollback()
        code = "token-in-use" if e.status == 409 else "token-refused"
        raise Refused(e.status, str(e), code) from None
    s.commit()
    return found


WorkerAuth = Annotated[Worker, Depends(worker)]


@router.post("/lease", response_model=None)
def lease(body: LeaseRequest, w: WorkerAuth, host: Host, s: DbSession) -> Job | Response:
    config = host.config
    if w.paused:
        raise Refused(
            409,
            f"worker {w.name} is paused: it could not play its last {w.failing} games "
            "(the organiser's page says why; the organiser resumes it)",
            "worker-paused",
        )
    got = queue.lease(s, w.name, config.lease_seconds, config.max_attempts)
    if got is None:
        return Response(status_code=204)
    job = queue.job(s, got.game_id, host.job)
    return Job(**job, lease=got.token)


@router.post("/games/{game_id}/heartbeat")
def heartbeat(game_id: int, body: LeaseBody, w: WorkerAuth, host: Host, s: DbSession) -> Stored:
    if not queue.renew(s, game_id, body.lease, host.config.lease_seconds):
        raise Refused(409, "the lease is not this worker's", "lease-lost")
    return Stored(state="leased")


@router.post("/games/{game_id}/moves")
def moves(game_id: int, body: MovesBody, w: WorkerAuth, host: Host, s: DbSession) -> Stored:
    """The moves of a game being played, for its page to show as they come."""
    played = [(m.text, m.seconds) for m in body.moves]
    if not queue.stream_moves(s, game_id, body.lease, body.start, played):
        raise Refused(409, "the lease is not this worker's", "lease-lost")
    return Stored(state="leased")


@router.post("/games/{game_id}/release")
def release(game_id: int, body: LeaseBody, w: WorkerAuth, s: DbSession) -> Stored:
    released = queue.release(s, game_id, body.lease)
    return Stored(state="queued" if released else "unknown")


@router.post("/games/{game_id}/result")
def result(game_id: int, body: ResultBody, w: WorkerAuth, host: Host, s: DbSession) -> Stored:
    config = host.config
    try:
        queue.finish(
            s, game_id, body.lease, body.record, body.logs, (config.game, config.clock), host.key
        )
    except queue.ResultError as e:
        raise Refused(409, str(e), "result-refused") from None
    _after(host, s, game_id)
    return Stored(state="done")


@router.post("/games/{game_id}/failure")
def failure(game_id: int, body: FailureBody, w: WorkerAuth, host: Host, s: DbSession) -> Stored:
    """A worker that could not play its game: the game goes back in the queue, or is
    settled once ``max_failures`` different workers failed it."""
    config = host.config
    state = settle.fail(s, game_id, body.lease, w.name, body.culprit, body.reason, config)
    if state is None:
        raise Refused(409, "the lease is not this worker's", "lease-lost")
    if state != "queued":
        _after(host, s, game_id)
    return Stored(state=state)


def _after(host: Hosting, s: Session, game_id: int) -> None:
    """A game stored or settled: its round may be over (on a ladder, the next
    placements follow), and pages have news."""
    game = s.get(Game, game_id)
    done = False
    if game is not None:
        # each step taken by one request at a time over every server process: two
        # last results stored at once end the round once
        with exclusive(s, "rounds"):
            if sprt_step(s, host.config, game.round_id):
                s.commit()  # an evaluation's SPRT decided: its pairs not begun set aside
        with exclusive(s, "rounds"):
            done = finish_round_if_done(s, game.round_id)
            s.commit()
    if done:
        host.service.ladder_step()
    host.service.changed()


@router.post("/goodbye")
def goodbye(request: Request, w: WorkerAuth, s: DbSession) -> Stored:
    """A worker process stopping: its token is free for the next process at once."""
    workers.goodbye(s, w, request.headers.get(INSTANCE_HEADER, ""))
    s.commit()
    return Stored(state="gone")


@router.get("/programs/{version_id}")
def program(version_id: int, w: WorkerAuth, host: Host, s: DbSession) -> FileResponse:
    """A version's packed program, streamed from its file."""
    version = s.get(Version, version_id)
    if version is None or version.state != "accepted" or version.program_sha256 is None:
        raise Refused(404, f"no packed program of version {version_id}")
    path = archive_path(store_of(host.config.folder), version.program_sha256)
    if not path.is_file():
        raise Refused(404, f"the program of version {version_id} is missing from the store")
    return FileResponse(path, media_type="application/gzip")
