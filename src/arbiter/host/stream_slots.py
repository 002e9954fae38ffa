"""The live standings streams each address holds, counted across every server process
of the contest: an address's bound holds however many processes its pages reach.

A stream open is a row (:class:`~arbiter.host.models.LiveStream`) naming its address
and its process; the process renews its rows' ``seen`` while it runs
(:meth:`StreamSlots.renew`), so the rows of a process that died without a word (a
SIGKILL) stop counting after :data:`STALE` seconds and are then deleted. Taking a
slot counts and adds in one transaction, under a lock on the address
(PostgreSQL's advisory lock for the transaction; SQLite has one writer, and one
process).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta

from sqlalchemy import delete, func, select, text, update
from sqlalchemy.orm import Session

from arbiter.host.models import LiveStream, now

STREAMS_PER_CLIENT = 8
"""The most event streams one address may hold open (a page holds one)."""

STALE = 30
"""Seconds after its process last renewed it when a stream stops counting."""

FIELD = 64
"""The longest address a row keeps."""

_ONE_WRITER = threading.Lock()
"""Takes one at a time on SQLite (one process serves a SQLite contest): its
transactions read before they lock, so two could count the same free slot."""


class StreamSlots:
    """The slots of process ``process``: at most ``most`` open streams an address,
    over every process. Blocking calls: an event loop runs them in a thread."""

    def __init__(self, sessions: Callable[[], Session], process: str, most: int) -> None:
        self._sessions = sessions
        self.process = process
        self.most = most

    def take(self, address: str) -> int | None:
        """A slot for a stream of ``address`` (its row's id), or None if the address
        holds :attr:`most` already."""
        address = address[:FIELD]
        with self._sessions() as session:
            if session.get_bind().dialect.name != "postgresql":
                with _ONE_WRITER:
                    return self._take(session, address)
            session.execute(
                text("SELECT pg_advisory_xact_lock(hashtext('arbiter stream ' || :a))"),
                {"a": address},
            )
            return self._take(session, address)

    def _take(self, session: Session, address: str) -> int | None:
        """Counts the address's live streams and adds one if there is room."""
        held = session.scalar(
            select(func.count(LiveStream.id)).where(
                LiveStream.address == address,
                LiveStream.seen >= now() - timedelta(seconds=STALE),
            )
        )
        if (held or 0) >= self.most:
            return None
        row = LiveStream(address=address, process=self.process, seen=now())
        session.add(row)
        session.commit()
        return row.id

    def give_back(self, slot: int) -> None:
        """Frees a slot :meth:`take` gave."""
        with self._sessions() as session:
            session.execute(delete(LiveStream).where(LiveStream.id == slot))
            session.commit()

    def renew(self) -> None:
        """Says this process's streams are still open, and deletes the rows of
        processes that stopped saying so."""
        moment = now()
        with self._sessions() as session:
            session.execute(
                update(LiveStream).where(LiveStream.process == self.process).values(seen=moment)
            )
            session.execute(
                delete(LiveStream).where(LiveStream.seen < moment - timedelta(seconds=STALE))
            )
            session.commit()

    def close(self) -> None:
        """Frees every slot of this process (it is stopping)."""
        with self._sessions() as session:
            session.execute(delete(LiveStream).where(LiveStream.process == self.process))
            session.commit()
