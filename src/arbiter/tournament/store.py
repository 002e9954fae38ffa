"""The results database: tournaments, their agents and every finished game, in SQLite.

Each finished game is written in a transaction of its own, so a tournament killed
at any moment (Ctrl-C, ``kill -9``, a power cut) loses no finished game and leaves
no half-written one; games are keyed by their number in the schedule, so running
the same tournament again finds what is missing and a game can never be counted
twice. A tournament's settings (game, agents, format, clock, openings, seed, rule
options) are stored with it; reopening it with other settings is refused, naming
the setting.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from arbiter.errors import ConfigError, RecordError
from arbiter.record import GameRecord
from arbiter.tournament.schedule import Pairing

SCHEMA = """
CREATE TABLE IF NOT EXISTS tournaments (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    settings TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS agents (
    tournament INTEGER NOT NULL REFERENCES tournaments(id),
    number INTEGER NOT NULL,
    name TEXT NOT NULL,
    spec TEXT NOT NULL,
    PRIMARY KEY (tournament, number)
);
CREATE TABLE IF NOT EXISTS games (
    tournament INTEGER NOT NULL REFERENCES tournaments(id),
    number INTEGER NOT NULL,
    pair INTEGER NOT NULL,
    first INTEGER NOT NULL,
    second INTEGER NOT NULL,
    start TEXT,
    winner INTEGER,
    reason TEXT NOT NULL,
    detail TEXT NOT NULL,
    plies INTEGER NOT NULL,
    points_first REAL,
    points_second REAL,
    record TEXT NOT NULL,
    finished TEXT NOT NULL,
    PRIMARY KEY (tournament, number)
);
CREATE TABLE IF NOT EXISTS running (
    tournament INTEGER NOT NULL REFERENCES tournaments(id),
    number INTEGER NOT NULL,
    first INTEGER NOT NULL,
    second INTEGER NOT NULL,
    plies INTEGER NOT NULL,
    started TEXT NOT NULL,
    PRIMARY KEY (tournament, number)
);
"""


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament as stored: its id, name, game, settings and agents' names."""

    id: int
    name: str
    game: str
    settings: dict[str, Any]
    agents: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StoredGame:
    """One finished game: its place in the schedule (``seats`` are agent numbers) and
    its full record."""

    number: int
    pair: int
    seats: tuple[int, int]
    record: GameRecord


@dataclass(frozen=True, slots=True)
class RunningGame:
    """A game under way: its number, agent numbers in seat order, moves so far, and
    when it began (UTC, ISO 8601)."""

    number: int
    seats: tuple[int, int]
    plies: int
    started: str


LOCK_WAIT = 30.0
"""Seconds to wait for another process's lock on the database before giving up."""

PROBE_MISSES = 200
"""Numbers tried past the last game found when a damaged index must be walked by hand."""


class Store:
    """A results database file (created if missing).

    :raises ConfigError: if the file cannot be opened or is not such a database.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        with contextlib.suppress(OSError):  # new: its owner's alone (SQLite's files follow)
            os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        #: the games :meth:`games` could not read back, each with why
        self.damaged: list[str] = []
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, timeout=LOCK_WAIT)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.executescript(SCHEMA)
        except sqlite3.OperationalError as e:
            if "locked" in str(e) or "busy" in str(e):
                raise ConfigError(
                    f"{self.path!r} is locked by another process (a tournament writing to "
                    "it?): try again when it is done"
                ) from None
            raise ConfigError(
                f"{self.path!r} cannot be opened as a results database ({e})"
            ) from None
        except sqlite3.DatabaseError as e:
            raise ConfigError(f"{self.path!r} is not an arbiter results database ({e})") from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _transaction(self) -> _Transaction:
        return _Transaction(self.db)

    def open(
        self,
        name: str,
        game: str,
        settings: Mapping[str, Any],
        agents: Sequence[tuple[str, str]],
    ) -> Tournament:
        """Returns the tournament ``name``, creating it with ``settings`` and ``agents``
        (name, spec) if it is new.

        :raises ConfigError: if it exists with another game, other settings or other
            agents (the message names the first difference).
        """
        wanted: dict[str, Any] = json.loads(json.dumps(dict(settings)))  # as it reads back
        found = self.find(name)
        if found is None:
            with self._transaction():
                cursor = self.db.execute(
                    "INSERT INTO tournaments (name, game, settings, created) VALUES (?, ?, ?, ?)",
                    (name, game, json.dumps(wanted, sort_keys=True), _now()),
                )
                tid = cursor.lastrowid
                assert tid is not None
                self.db.executemany(
                    "INSERT INTO agents (tournament, number, name, spec) VALUES (?, ?, ?, ?)",
                    [(tid, i, a, spec) for i, (a, spec) in enumerate(agents)],
                )
            return Tournament(tid, name, game, wanted, tuple(a for a, _ in agents))
        if found.game != game:
            raise ConfigError(
                f"tournament {name!r} in {self.path!r} is of {found.game}, not {game}"
            )
        stored = self.agent_specs(found.id)
        if stored != [tuple(a) for a in agents]:
            raise ConfigError(
                f"tournament {name!r} in {self.path!r} has other agents: "
                f"{', '.join(a for a, _ in stored)} ({_first_difference(stored, agents)})"
            )
        for key in sorted(set(found.settings) | set(wanted)):
            if found.settings.get(key) != wanted.get(key):
                raise ConfigError(
                    f"tournament {name!r} in {self.path!r} was started with {key} "
                    f"{found.settings.get(key)!r}, not {wanted.get(key)!r}: use another "
                    "--name or --db to change it"
                )
        with self._transaction():  # games a stopped run left under way are not any more
            self.db.execute("DELETE FROM running WHERE tournament = ?", (found.id,))
        return found

    def find(self, name: str) -> Tournament | None:
        """The tournament called ``name``, or ``None``."""
        row = self.db.execute(
            "SELECT id, name, game, settings FROM tournaments WHERE name = ?", (name,)
        ).fetchone()
        if row is None:
            return None
        agents = tuple(a for a, _ in self.agent_specs(row[0]))
        return Tournament(row[0], row[1], row[2], json.loads(row[3]), agents)

    def tournaments(self) -> list[Tournament]:
        """Every tournament in the database, oldest first."""
        names = [r[0] for r in self.db.execute("SELECT name FROM tournaments ORDER BY id")]
        return [t for t in map(self.find, names) if t is not None]

    def agent_specs(self, tournament: int) -> list[tuple[str, str]]:
        """The (name, spec) of each agent of a tournament, by number."""
        rows = self.db.execute(
            "SELECT name, spec FROM agents WHERE tournament = ? ORDER BY number", (tournament,)
        )
        return [(r[0], r[1]) for r in rows]

    def played(self, tournament: int) -> set[int]:
        """The numbers of the games of a tournament already finished."""
        rows = self.db.execute("SELECT number FROM games WHERE tournament = ?", (tournament,))
        return {r[0] for r in rows}

    def begin(self, tournament: int, pairing: Pairing) -> None:
        """Notes that a game is under way (for the standings page; :meth:`add` ends it)."""
        first, second = pairing.seats
        with self._transaction():
            self.db.execute(
                "INSERT OR REPLACE INTO running (tournament, number, first, second, plies, "
                "started) VALUES (?, ?, ?, ?, 0, ?)",
                (tournament, pairing.number, first, second, _now()),
            )

    def progress(self, tournament: int, number: int, plies: int) -> None:
        """Notes how many moves a game under way has had."""
        with self._transaction():
            self.db.execute(
                "UPDATE running SET plies = ? WHERE tournament = ? AND number = ?",
                (plies, tournament, number),
            )

    def running(self, tournament: int) -> list[RunningGame]:
        """The games of a tournament under way, by number."""
        rows = self.db.execute(
            "SELECT number, first, second, plies, started FROM running WHERE tournament = ? "
            "ORDER BY number",
            (tournament,),
        )
        return [RunningGame(n, (a, b), plies, started) for n, a, b, plies, started in rows]

    def add(self, tournament: int, pairing: Pairing, record: GameRecord, seal: str) -> None:
        """Stores one finished game, in one transaction (``seal``: the record's JSON),
        and ends its note as under way. A game stored before is left as it was."""
        first, second = pairing.seats
        points = record.score or (None, None)
        with self._transaction():
            self.db.execute(
                "DELETE FROM running WHERE tournament = ? AND number = ?",
                (tournament, pairing.number),
            )
            self.db.execute(
                "INSERT OR IGNORE INTO games (tournament, number, pair, first, second, start, "
                "winner, reason, detail, plies, points_first, points_second, record, finished) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    tournament,
                    pairing.number,
                    pairing.pair,
                    first,
                    second,
                    record.start,
                    record.winner,
                    str(record.reason),
                    record.detail,
                    len(record.moves),
                    points[0],
                    points[1],
                    seal,
                    _now(),
                ),
            )

    def games(self, tournament: int) -> Iterator[StoredGame]:
        """The finished games of a tournament that can be read back, by number. A game
        the file's damage reaches (unreadable pages, bytes that are not text, a record
        that does not parse) is skipped and named in :attr:`damaged`, so what the file
        still holds is salvaged."""
        for number in self._numbers(tournament):
            try:
                row = self.db.execute(
                    "SELECT pair, first, second, CAST(record AS BLOB) FROM games "
                    "WHERE tournament = ? AND number = ?",
                    (tournament, number),
                ).fetchone()
                if row is None:
                    continue
                pair, first, second, raw = row
                record = GameRecord.from_json(bytes(raw).decode("utf-8"))
            except (sqlite3.DatabaseError, RecordError, UnicodeDecodeError, TypeError) as e:
                why = "not text" if isinstance(e, UnicodeDecodeError) else str(e)
                self.damaged.append(f"game {number} ({why[:120]})")
                continue
            yield StoredGame(number, pair, (first, second), record)

    def _numbers(self, tournament: int) -> list[int]:
        """The numbers of a tournament's stored games, found by its index; where the
        index itself is damaged, each number is tried in turn."""
        try:
            rows = self.db.execute(
                "SELECT number FROM games WHERE tournament = ? ORDER BY number", (tournament,)
            )
            return [r[0] for r in rows]
        except sqlite3.DatabaseError as e:
            self.damaged.append(f"the list of games ({e})")
        found: list[int] = []
        number, misses = 0, 0
        while misses < PROBE_MISSES:
            number += 1
            try:
                hit = self.db.execute(
                    "SELECT 1 FROM games WHERE tournament = ? AND number = ?", (tournament, number)
                ).fetchone()
            except sqlite3.DatabaseError:
                hit = (1,)  # unreadable: games() names it
            if hit is None:
                misses += 1
            else:
                misses = 0
                found.append(number)
        return found

    def damage_note(self) -> str | None:
        """One line naming what :meth:`games` could not read, or None."""
        if not self.damaged:
            return None
        shown = ", ".join(self.damaged[:5]) + (" ..." if len(self.damaged) > 5 else "")
        return (
            f"{self.path!r} is damaged: {len(self.damaged)} could not be read: {shown}; "
            "the games shown are all it still holds"
        )


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` on an exception."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *exc: object) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")


def _first_difference(stored: Sequence[tuple[str, str]], given: Sequence[tuple[str, str]]) -> str:
    for i, (a, b) in enumerate(zip(stored, given, strict=False)):
        if tuple(a) != tuple(b):
            return f"agent {i + 1} was {a[0]!r} ({a[1]}), now {b[0]!r} ({b[1]})"
    return f"{len(stored)} agents then, {len(given)} now"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
