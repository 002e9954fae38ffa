"""Signed-in sessions, kept by the server: a browser's cookie names one, and ending
it in the database ends it everywhere, a copy of the cookie included.

The cookie (signed by Starlette's session middleware, HttpOnly, SameSite) carries a
random secret; the server keeps only its SHA-256 with the account and an expiry
(:data:`LIFETIME`), deleting it at the first sign-in after it expires. Log-out ends
its own session; a new password ends every other session of the account; the
organiser can end all of an account's sessions, and disqualifying does.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from arbiter.host.models import Account, SignedIn, now, stored_utc

LIFETIME = timedelta(days=14)


def _key(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def open_session(session: Session, account: Account) -> str:
    """Signs ``account`` in; returns the secret for its cookie (not committed). The
    sessions expired by now, anyone's, are deleted with it (:func:`sweep`): the table
    holds the last two weeks' sign-ins, not every sign-in ever."""
    sweep(session)
    secret = secrets.token_urlsafe(32)
    session.add(SignedIn(id=_key(secret), account_id=account.id, expires=now() + LIFETIME))
    session.flush()
    return secret


def account_of(session: Session, secret: str) -> Account | None:
    """The account signed in under ``secret``, or None (unknown, ended or expired)."""
    if not secret:
        return None
    found = session.get(SignedIn, _key(secret))
    if found is None or _expired(found.expires):
        return None
    return found.account


def _expired(expires: datetime) -> bool:
    return stored_utc(expires) <= now()


def end(session: Session, secret: str) -> None:
    """Ends the session of ``secret`` (not committed)."""
    if secret:
        session.execute(delete(SignedIn).where(SignedIn.id == _key(secret)))


def end_all(session: Session, account_id: int, *, keep: str = "") -> int:
    """Ends every session of an account but ``keep``'s; returns how many (not
    committed)."""
    ids = session.scalars(select(SignedIn.id).where(SignedIn.account_id == account_id))
    ended = [i for i in ids if not keep or i != _key(keep)]
    if ended:
        session.execute(delete(SignedIn).where(SignedIn.id.in_(ended)))
    return len(ended)


def sweep(session: Session) -> int:
    """Deletes expired sessions; returns how many (not committed)."""
    done = session.execute(delete(SignedIn).where(SignedIn.expires <= now()))
    return int(getattr(done, "rowcount", 0) or 0)
