"""The contest server's storage tests run on SQLite and, where a PostgreSQL server is
given (``ARBITER_POSTGRES_URL``, as CI starts one), on PostgreSQL too, each test in a
fresh database of its own. Where CI sets ``ARBITER_POSTGRES_TESTS=required`` a missing
server fails instead of skipping."""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

POSTGRES = os.environ.get("ARBITER_POSTGRES_URL")


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A URL of an empty database: a SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'cup.db'}"
        return
    _need_postgres()
    with fresh_postgres() as url:
        yield url


def _need_postgres() -> None:
    """Fails where PostgreSQL is required and not given, skips where it is optional."""
    if POSTGRES is None:
        if os.environ.get("ARBITER_POSTGRES_TESTS") == "required":
            pytest.fail("ARBITER_POSTGRES_TESTS=required but ARBITER_POSTGRES_URL is not set")
        pytest.skip("no PostgreSQL server (set ARBITER_POSTGRES_URL to one)")


@pytest.fixture
def postgres() -> Iterator[str]:
    """A URL of a new, empty PostgreSQL database (for a test that needs PostgreSQL
    itself: advisory locks, notices, pg_dump, several server processes)."""
    _need_postgres()
    with fresh_postgres() as url:
        yield url


@contextlib.contextmanager
def fresh_postgres(server: str | None = None) -> Iterator[str]:
    """A new, empty database on the PostgreSQL server of ``server`` (by default
    ``ARBITER_POSTGRES_URL``), dropped afterwards."""
    import sqlalchemy

    server = server or POSTGRES
    assert server is not None
    name = f"arbiter_test_{uuid.uuid4().hex[:12]}"
    admin = sqlalchemy.create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(sqlalchemy.text(f"CREATE DATABASE {name}"))
    base, _, _ = server.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        with admin.connect() as c:
            c.execute(sqlalchemy.text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()
