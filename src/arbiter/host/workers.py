"""Worker tokens: made for a machine by name, checked on every call, held by one live
worker process at a time, revoked by the organiser.

A token holds the contest's id, the contest's public key and the seed of the
worker's own signing key (:mod:`arbiter.host.request_signing`). The server keeps only
the worker's public key: every call is signed, dated and carries a nonce used once,
so the secret never crosses the wire, a recording of calls opens nothing, and a
server that is not the contest (it cannot prove it holds the contest's key) learns
nothing it could use.

Each worker process says who it is (``X-Worker-Instance``, random per process). While
one process of a token has called within :func:`live_seconds`, another is refused:
two machines started with one token would otherwise share its games unseen.
"""

from __future__ import annotations

import math
import random
import secrets
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from arbiter.errors import ArbiterError
from arbiter.host.models import Game, Setting, Worker, WorkerNonce, now, stored_utc
from arbiter.host.request_signing import WINDOW, Token, TokenError, read_authorization

PRUNE_EVERY = 64
"""About one call in this many deletes the nonces too old to matter."""


class TokenRefused(ArbiterError):
    """A worker's call refused for its token: ``status`` 401 (unknown, revoked, badly
    signed, out of date or replayed) or 409 (another live process holds it); the
    message says which."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True, slots=True)
class Call:
    """A worker API call as it reached the server: what its signature must cover."""

    authorization: str
    method: str
    target: str
    body: bytes
    instance: str


def contest_id(session: Session) -> str:
    """The contest's id, made at its first use (not committed)."""
    found = session.get(Setting, "contest_id")
    if found is None:
        found = Setting(key="contest_id", value=secrets.token_hex(8))
        session.add(found)
        session.flush()
    return found.value


def new_worker(session: Session, name: str, contest_key: bytes) -> str:
    """Registers a worker (or gives a known one a new token, which ends the old one's
    use and lifts a revocation and a pause) and returns its token, shown once (not
    committed). ``contest_key`` is the contest's public key, which the token pins."""
    token = Token.make(contest_id(session), contest_key)
    worker = session.scalar(select(Worker).where(Worker.name == name))
    if worker is None:
        worker = Worker(name=name, token_hash="")
        session.add(worker)
    worker.auth_key = token.key_id
    worker.token_hash = ""
    worker.revoked = worker.paused = False
    worker.failing = 0
    worker.instance = None
    session.flush()
    return token.text


def live_seconds(lease_seconds: float) -> float:
    """How long a worker process holds its token after its last call: a playing
    worker calls at least every third of a lease (its heartbeat)."""
    return max(10.0, lease_seconds)


def claim(session: Session, call: Call, lease_seconds: float) -> Worker:
    """The worker that signed ``call``, made now by process ``call.instance`` (recorded,
    with the call's nonce; not committed).

    :raises TokenRefused: for a call not signed, signed by an unknown or revoked key,
        not over this call, dated more than :data:`WINDOW` seconds from the server's
        clock or made before (a replay); or while another process called with the
        token within :func:`live_seconds`.
    """
    try:
        signed = read_authorization(call.authorization)
    except TokenError as e:
        raise TokenRefused(401, str(e)) from None
    if signed is None:
        raise TokenRefused(401, "a worker's token is required (its calls are signed with it)")
    worker = session.scalar(select(Worker).where(Worker.auth_key == signed.key_id))
    if worker is None:
        raise TokenRefused(401, "a worker's token is required (this one is unknown)")
    if worker.revoked:
        raise TokenRefused(401, f"worker {worker.name}'s token was revoked by the organiser")
    if not call.instance:
        raise TokenRefused(401, "a worker says which process it is (X-Worker-Instance)")
    contest = contest_id(session)
    if not signed.valid(call.method, call.target, call.body, call.instance, contest):
        raise TokenRefused(401, "the call's signature does not verify (not this worker's)")
    off = signed.seconds - time.time()
    if not math.isfinite(off) or abs(off) > WINDOW:
        raise TokenRefused(
            401,
            f"the call is dated {off:+.0f} s from the server's clock (at most {WINDOW:.0f}): "
            "set the worker machine's clock",
        )
    _use_nonce(session, signed.nonce)
    moment = now()
    if worker.instance not in (None, call.instance) and _recent(
        worker.last_seen, moment, lease_seconds
    ):
        raise TokenRefused(
            409,
            f"worker {worker.name}'s token is in use by another live worker process: "
            "one token per machine (arbiter host --add-worker NAME makes another)",
        )
    worker.instance = call.instance
    worker.last_seen = moment
    return worker


def _use_nonce(session: Session, nonce: str) -> None:
    """Records a call's nonce.

    :raises TokenRefused: if a call used it before (within the window it is kept)."""
    if random.randrange(PRUNE_EVERY) == 0:
        stale = now() - timedelta(seconds=2 * WINDOW + 60)
        session.execute(delete(WorkerNonce).where(WorkerNonce.seen < stale))
    if session.get(WorkerNonce, nonce) is not None:
        raise TokenRefused(401, "this call was made before (a replay): refused")
    try:
        with session.begin_nested():
            session.add(WorkerNonce(nonce=nonce, seen=now()))
    except IntegrityError:  # the same call, arriving twice at once
        raise TokenRefused(401, "this call was made before (a replay): refused") from None


def _recent(seen: datetime | None, moment: datetime, lease_seconds: float) -> bool:
    if seen is None:
        return False
    return moment - stored_utc(seen) < timedelta(seconds=live_seconds(lease_seconds))


def revoke(session: Session, name: str) -> list[int]:
    """Revokes worker ``name``'s token and puts its leased games back in the queue;
    returns their ids (not committed).

    :raises ArbiterError: for no such worker.
    """
    worker = session.scalar(select(Worker).where(Worker.name == name))
    if worker is None:
        raise ArbiterError(f"no worker {name!r}")
    worker.revoked = True
    worker.instance = None
    games = list(session.scalars(select(Game).where(Game.state == "leased", Game.worker == name)))
    for game in games:
        game.state = "queued"
        game.lease = game.worker = game.lease_expires = None
    return [g.id for g in games]


def resume(session: Session, name: str) -> None:
    """Lifts worker ``name``'s pause: it is handed games again (not committed).

    :raises ArbiterError: for no such worker.
    """
    worker = session.scalar(select(Worker).where(Worker.name == name))
    if worker is None:
        raise ArbiterError(f"no worker {name!r}")
    worker.paused = False
    worker.failing = 0


def goodbye(session: Session, worker: Worker, instance: str) -> None:
    """A worker process stopping: its token is free for the next one at once (not
    committed)."""
    if worker.instance == instance:
        worker.instance = None
