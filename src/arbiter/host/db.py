"""The contest's database: opened from its URL, brought to the newest schema by the
migrations, and handed out as sessions.

SQLite is the default (a file beside the contest file, in WAL mode so the pages read
while workers' results are written); PostgreSQL is a URL away
(``postgresql+psycopg://user@host/name``). Both get the same schema from the same
migrations (Alembic), so a contest's database made by an older arbiter is upgraded
when a newer one opens it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import URL, Engine, create_engine, event, make_url
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import ArgumentError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from arbiter.errors import ConfigError
from arbiter.host.storage import private_file, sqlite_file

MIGRATIONS = Path(__file__).parent / "migrations"


class Database:
    """An open contest database: :meth:`session` gives a unit of work."""

    def __init__(self, url: str) -> None:
        """Opens ``url`` and migrates it to the newest schema.

        :raises ConfigError: for a URL that is not a database URL, a driver that is
            not installed, or a database that cannot be reached or migrated.
        """
        self.url = url
        shown = _safe(url)  # never its password
        try:
            self.engine = _engine(url)
            migrate(self.engine)
        except ArgumentError as e:
            raise ConfigError(f"database {shown!r} is not a database URL: {e}") from None
        except ModuleNotFoundError as e:
            raise ConfigError(
                f"database {shown!r}: its driver is not installed ({e.name})"
            ) from None
        except OperationalError as e:
            why = str(e.orig).strip().splitlines()[0] if e.orig else str(e)
            raise ConfigError(f"cannot open database {shown!r}: {why}") from None
        except SQLAlchemyError as e:
            raise ConfigError(f"database {shown!r}: {e}") from None
        except OSError as e:  # its folder cannot be made (a file is in the way)
            raise ConfigError(f"cannot open database {shown!r}: {e.strerror}") from None
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def session(self) -> Session:
        """A new session (use it in a ``with`` block; commit what should be kept)."""
        return self._sessions()

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    def close(self) -> None:
        self.engine.dispose()


def insert_of(session: Session) -> Any:
    """The ``insert`` of the session's database, with its ``on_conflict_do_*``: an
    upsert in one statement on SQLite and PostgreSQL alike.

    :raises RuntimeError: on any other database.
    """
    dialect = session.get_bind().dialect.name
    if dialect == "sqlite":
        return sqlite_insert
    if dialect == "postgresql":
        return postgresql_insert
    raise RuntimeError(f"arbiter host runs on SQLite or PostgreSQL, not {dialect}")


def libpq_address(url: str | URL) -> str:
    """A PostgreSQL URL as libpq takes it (psycopg itself, ``pg_dump``): without the
    SQLAlchemy driver's name, and with its password."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _engine(url: str) -> Engine:
    options: dict[str, Any] = {"future": True, "pool_pre_ping": True}
    if url.startswith("sqlite"):
        path = sqlite_file(url)
        if path is not None:  # made private before SQLite first writes to it
            path.parent.mkdir(parents=True, exist_ok=True)
            private_file(path)
        options["connect_args"] = {"timeout": 30, "check_same_thread": False}
    if not url.startswith("sqlite") or sqlite_file(url) is not None:
        # as many connections as the server answers requests at once (its thread pool
        # of 40), so a page never waits out the pool's timeout under many viewers
        options.update(pool_size=10, max_overflow=30)
    engine = create_engine(url, **options)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def migrate(engine: Engine) -> None:
    """Brings the database to the newest schema (nothing to do if it is there)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def _safe(url: str) -> str:
    """The URL without its password, to show."""
    head, at, tail = url.rpartition("@")
    if not at or ":" not in head.split("//", 1)[-1]:
        return url
    scheme, _, credentials = head.partition("//")
    return f"{scheme}//{credentials.split(':', 1)[0]}:***@{tail}"
