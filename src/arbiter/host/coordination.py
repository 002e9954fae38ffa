"""How the server processes of one contest agree: which of them does the background
work that must happen once, who tells whom that something changed, and how a step
that two requests could take at once is taken by one.

- **One leader.** On PostgreSQL the process holding a session advisory lock on a
  connection of its own leads (:class:`Leadership`): it computes the standings,
  rates finished rounds, starts the schedule's rounds, resumes builds and exports,
  and runs the local workers. If it dies its connection closes, the lock is free,
  and another process takes it within :data:`LEAD_POLL` seconds. On SQLite the one
  process (:func:`hold_sqlite`) leads.
- **News between processes.** PostgreSQL's ``NOTIFY`` carries it (:class:`Notices`):
  a process that stored a result says ``changed`` (the leader computes the
  standings again); the leader says ``standings`` with their number when it has
  published them, and every process serves the published ones
  (:class:`~arbiter.host.models.Published`).
- **A step taken once.** :func:`exclusive` serialises a step (a round's end, the
  candidates' SPRT, making a round) over every process: a transaction advisory lock
  on PostgreSQL, a lock of the one process on SQLite.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, text
from sqlalchemy.orm import Session

from arbiter.errors import ConfigError
from arbiter.host.db import libpq_address

LEAD_POLL = 2.0
"""Seconds between two tries of a process that does not lead to take the lead."""

LEAD_KEY = "arbiter host leader"
"""What the leader's advisory lock is named by (hashed to the lock's number)."""

CHANGED = "arbiter_changed"
"""The channel a process tells the leader on that the standings may have changed."""

STANDINGS = "arbiter_standings"
"""The channel the leader says new standings are published on (their number)."""

_STEPS: dict[str, threading.Lock] = {}
_STEPS_LOCK = threading.Lock()


@contextlib.contextmanager
def exclusive(session: Session, step: str) -> Iterator[None]:
    """Runs the block as the only one taking ``step`` in the contest: on PostgreSQL
    under a transaction advisory lock (held until the session's transaction ends, so
    commit within the block or soon after), on SQLite under a lock of the one process."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(
            text("SELECT pg_advisory_xact_lock(hashtext(:k))"), {"k": f"arbiter {step}"}
        )
        yield
        return
    with _STEPS_LOCK:
        lock = _STEPS.setdefault(step, threading.Lock())
    with lock:
        yield


class Leadership:
    """Whether this process leads the contest's background work. On SQLite it always
    does (one process serves a SQLite contest); on PostgreSQL while it holds the
    leader's advisory lock on a connection of its own."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._connection: Any = None  # psycopg's, holding the lock while leading
        self._lock = threading.Lock()

    @property
    def shared(self) -> bool:
        """True if other processes may serve the contest too (PostgreSQL)."""
        return self._engine.dialect.name == "postgresql"

    def lead(self) -> bool:
        """Tries to lead (or checks it still does); True if this process leads.
        Blocking: the event loop calls it in a thread."""
        if not self.shared:
            return True
        import psycopg

        with self._lock:
            if self._connection is not None:
                try:
                    self._connection.execute("SELECT 1")
                    return True
                except psycopg.Error:  # the database went away: the lock with it
                    self._drop()
            try:
                connection = psycopg.connect(libpq_address(self._engine.url), autocommit=True)
            except psycopg.Error:
                return False
            row = connection.execute(
                "SELECT pg_try_advisory_lock(hashtext(%s))", (LEAD_KEY,)
            ).fetchone()
            if row is None or not row[0]:
                connection.close()
                return False
            self._connection = connection
            return True

    @property
    def leading(self) -> bool:
        """True if this process led at its last :meth:`lead`."""
        return not self.shared or self._connection is not None

    def _drop(self) -> None:
        with contextlib.suppress(Exception):
            self._connection.close()
        self._connection = None

    def resign(self) -> None:
        """Lets another process lead (this one is stopping)."""
        with self._lock:
            if self._connection is not None:
                self._drop()


class Notices:
    """News between the contest's server processes: :meth:`send` a notice on a
    channel; every process's :meth:`listen` hears it (this one's too). On SQLite
    a notice goes straight to this process's own listener."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._heard: Callable[[str, str], None] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def send(self, channel: str, payload: str = "") -> None:
        """Says ``payload`` on ``channel`` to every process (from any thread).

        :raises sqlalchemy.exc.SQLAlchemyError: if the database cannot be reached.
        """
        if self._engine.dialect.name != "postgresql":
            if self._heard is not None:
                self._heard(channel, payload)
            return
        with self._engine.connect() as connection:
            connection.execute(text("SELECT pg_notify(:c, :p)"), {"c": channel, "p": payload})
            connection.commit()

    def listen(self, heard: Callable[[str, str], None]) -> None:
        """Calls ``heard(channel, payload)`` for every notice from now on, in a thread
        of its own on PostgreSQL (a lost connection is opened again)."""
        self._heard = heard
        if self._engine.dialect.name == "postgresql" and self._thread is None:
            self._thread = threading.Thread(target=self._hear, name="notices", daemon=True)
            self._thread.start()

    def _hear(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(
                    libpq_address(self._engine.url), autocommit=True
                ) as connection:
                    for channel in (CHANGED, STANDINGS):
                        connection.execute(f"LISTEN {channel}")
                    if self._heard is not None:  # missed while away: look again
                        self._heard(STANDINGS, "")
                    while not self._stop.is_set():
                        for notice in connection.notifies(timeout=1.0):
                            if self._heard is not None:
                                self._heard(notice.channel, notice.payload)
            except psycopg.Error:
                self._stop.wait(1.0)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)


def hold_sqlite(database: Path) -> Any:
    """Takes the lock that makes this process the one serving the SQLite contest at
    ``database``; returns the open lock file (kept open while serving).

    :raises ConfigError: naming the database, if another process serves it.
    """
    lock = database.with_name(database.name + ".serving")
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise ConfigError(
            f"another arbiter host process serves {str(database)!r}: SQLite serves a "
            "contest from one process (use PostgreSQL for several)"
        ) from None
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())
    return os.fdopen(fd, "w")
