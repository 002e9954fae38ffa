"""Worker tokens: made for a machine by name, checked on every call, held by one live
worker process at a time, revoked by the organiser.

A token reads ``CONTEST.SECRET``: ``CONTEST`` is the contest's id (public, at
``/api/contest``), so a worker checks it is speaking to its own contest before it
sends the token, and a server that came back on another port, or another program on
the old one, never sees it. Only the token's SHA-256 is kept (a random 32-byte secret
needs no slow hash).

Each worker process says who it is (``X-Worker-Instance``, random per process). While
one process of a token has called within :func:`live_seconds`, another is refused:
two machines started with one token would otherwise share its games unseen.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from arbiter.errors import ArbiterError
from arbiter.host.models import Game, Setting, Worker, now


class TokenRefused(ArbiterError):
    """A worker's call refused for its token: ``status`` 401 (unknown or revoked) or
    409 (another live process holds it); the message says which."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def contest_id(session: Session) -> str:
    """The contest's id, made at its first use (not committed)."""
    found = session.get(Setting, "contest_id")
    if found is None:
        found = Setting(key="contest_id", value=secrets.token_hex(8))
        session.add(found)
        session.flush()
    return found.value


def new_worker(session: Session, name: str) -> str:
    """Registers a worker (or gives a known one a new token, which ends the old one's
    use and lifts a revocation) and returns its token, shown once (not committed)."""
    token = f"{contest_id(session)}.{secrets.token_urlsafe(32)}"
    worker = session.scalar(select(Worker).where(Worker.name == name))
    if worker is None:
        worker = Worker(name=name, token_hash="")
        session.add(worker)
    worker.token_hash = token_hash(token)
    worker.revoked = False
    worker.instance = None
    session.flush()
    return token


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def live_seconds(lease_seconds: float) -> float:
    """How long a worker process holds its token after its last call: a playing
    worker calls at least every third of a lease (its heartbeat)."""
    return max(10.0, lease_seconds)


def claim(session: Session, token: str, instance: str, lease_seconds: float) -> Worker:
    """The worker of ``token``, called now by process ``instance`` (recorded, not
    committed).

    :raises TokenRefused: for a missing, unknown or revoked token, or one another
        process called with within :func:`live_seconds`.
    """
    digest = token_hash(token) if token else ""
    worker = session.scalar(select(Worker).where(Worker.token_hash == digest)) if token else None
    if worker is None or not secrets.compare_digest(worker.token_hash, digest):
        raise TokenRefused(401, "a worker's token is required (this one is unknown)")
    if worker.revoked:
        raise TokenRefused(401, f"worker {worker.name}'s token was revoked by the organiser")
    if not instance:
        raise TokenRefused(401, "a worker says which process it is (X-Worker-Instance)")
    moment = now()
    if worker.instance not in (None, instance) and _recent(worker.last_seen, moment, lease_seconds):
        raise TokenRefused(
            409,
            f"worker {worker.name}'s token is in use by another live worker process: "
            "one token per machine (arbiter host --add-worker NAME makes another)",
        )
    worker.instance = instance
    worker.last_seen = moment
    return worker


def _recent(seen: datetime | None, moment: datetime, lease_seconds: float) -> bool:
    if seen is None:
        return False
    if seen.tzinfo is None:  # SQLite keeps no zone: the server stores UTC
        seen = seen.replace(tzinfo=moment.tzinfo)
    return moment - seen < timedelta(seconds=live_seconds(lease_seconds))


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


def goodbye(session: Session, worker: Worker, instance: str) -> None:
    """A worker process stopping: its token is free for the next one at once (not
    committed)."""
    if worker.instance == instance:
        worker.instance = None
