"""The contest server's tables, through SQLAlchemy, so one code runs on SQLite (one
machine) and PostgreSQL (a contest with many workers). The schema is made and changed
by the migrations in :mod:`arbiter.host.migrations`, never by ``create_all``.

What is whose: an :class:`Account`'s sources, build logs, check reports and its
program's stderr (a game's ``log_first``/``log_second``) are its own; moves, results
and standings are public. :mod:`arbiter.host.access` decides that in one place.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def now() -> datetime:
    """The time to store: UTC, to the second."""
    return datetime.now(UTC).replace(microsecond=0)


def stored_utc(moment: datetime) -> datetime:
    """A stored time with its zone: SQLite gives the stored UTC back without one."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


class Base(DeclarativeBase):
    pass


class Account(Base):
    """A person: the organiser (made from the command line) or a contestant."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(32), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(16))  # "organiser" or "contestant"
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    disqualified: Mapped[bool] = mapped_column(Boolean, default=False)

    versions: Mapped[list[Version]] = relationship(back_populates="account")


class SignedIn(Base):
    """A signed-in browser: the cookie holds the secret whose SHA-256 is ``id``. A row
    deleted (log-out, a new password, the organiser) ends the session at once, even
    for a copy of the cookie."""

    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    account: Mapped[Account] = relationship()


class Invitation(Base):
    """A code the organiser hands out; registering with it uses it up."""

    __tablename__ = "invitations"

    code: Mapped[str] = mapped_column(String(64), primary_key=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    used_by: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"))


class Version(Base):
    """One upload of a contestant's program, as it goes from ``building`` through
    ``checking`` to ``accepted`` (it may play) or ``refused`` (its build or the
    conformance gate failed; ``reason`` says which). An account's latest accepted
    version is the one that plays, unless it is a ``trial``: a candidate its owner
    tests against the field first (:mod:`arbiter.host.candidates`) and enters by hand."""

    __tablename__ = "versions"
    __table_args__ = (UniqueConstraint("account_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    language: Mapped[str] = mapped_column(String(32))
    filename: Mapped[str] = mapped_column(String(200))
    size: Mapped[int] = mapped_column(Integer)
    sha256: Mapped[str] = mapped_column(String(64))
    uploaded: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    state: Mapped[str] = mapped_column(String(16), default="building", index=True)
    reason: Mapped[str] = mapped_column(Text, default="")
    build_log: Mapped[str] = mapped_column(Text, default="")
    checks: Mapped[str] = mapped_column(Text, default="[]")  # JSON: the gate's report
    # an accepted version's packed program (:mod:`arbiter.host.programs`)
    program_sha256: Mapped[str | None] = mapped_column(String(64))
    program_size: Mapped[int | None] = mapped_column(Integer)
    trial: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    account: Mapped[Account] = relationship(back_populates="versions")


PHASES = ("test", "final", "candidate")
"""What a round is for: a ``test`` round (before ``closes``, or started by hand or by the
schedule), a round of the ``final`` (Swiss rounds then the top group's round robin,
with the versions frozen at ``closes``; the final's standings count only these), or a
``candidate`` evaluation (one version's games against the field, never in the
standings; numbered apart, below zero)."""


class Round(Base):
    """A round of games, paired when it was made; ``state`` is ``playing`` or ``done``;
    ``phase`` one of :data:`PHASES`; a candidate evaluation's ``candidate`` is the
    version it tests."""

    __tablename__ = "rounds"

    id: Mapped[int] = mapped_column(primary_key=True)
    number: Mapped[int] = mapped_column(Integer, unique=True)
    kind: Mapped[str] = mapped_column(String(16))
    state: Mapped[str] = mapped_column(String(16), default="playing")
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    finished: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    phase: Mapped[str] = mapped_column(String(16), default="test", server_default="test")
    candidate_id: Mapped[int | None] = mapped_column(Integer)
    size: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """How many games it was made with (a round's games are all written at once)."""
    rated: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """When the ratings after it were stored (:mod:`arbiter.host.ratings`); cleared
    when it is played again."""

    games: Mapped[list[Game]] = relationship(back_populates="round", order_by="Game.number")


COUNTED = Round.phase != "candidate"
"""The rounds that make the contest (a candidate evaluation's never do)."""


class Game(Base):
    """One game of a round: ``queued``, ``leased`` to a worker until ``lease_expires``,
    ``done`` (played, or settled without being played: see :mod:`arbiter.host.settle`)
    or ``void`` (it could not be played and no one was to blame: it counts for
    nobody, and the organiser may queue it again). Only the holder of the current
    ``lease`` can store its result, once; a lease that runs out puts the game back in
    the queue. ``failures`` counts the workers that reported they could not play it.

    A stored game's facts are columns of their own (its round's number and phase, the
    seats' entrants, the first seat's game points, the contest's points, whether the
    loser lost by a fault), written with its result, so no table, list or count ever
    parses a record: a record is read only to replay or serve its one game."""

    __tablename__ = "games"
    __table_args__ = (
        UniqueConstraint("round_id", "number"),
        Index("ix_games_first_account", "first_account_id", "state", "id"),
        Index("ix_games_second_account", "second_account_id", "state", "id"),
        Index("ix_games_phase_round", "phase", "round_number"),
        Index("ix_games_worker_finished", "worker", "finished", "id"),
        Index("ix_games_failures", "failures"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    pair: Mapped[int] = mapped_column(Integer)
    first_id: Mapped[int] = mapped_column(ForeignKey("versions.id"))
    second_id: Mapped[int] = mapped_column(ForeignKey("versions.id"))
    start: Mapped[str | None] = mapped_column(Text)
    seed: Mapped[int] = mapped_column(Integer)
    state: Mapped[str] = mapped_column(String(16), default="queued", index=True)
    lease: Mapped[str | None] = mapped_column(String(64))
    worker: Mapped[str | None] = mapped_column(String(64))
    lease_expires: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    failures: Mapped[int] = mapped_column(Integer, default=0)
    winner: Mapped[int | None] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(64), default="")
    detail: Mapped[str] = mapped_column(Text, default="")
    plies: Mapped[int] = mapped_column(Integer, default=0)
    points_first: Mapped[float | None] = mapped_column(Float)
    points_second: Mapped[float | None] = mapped_column(Float)
    record: Mapped[str] = mapped_column(Text, default="")  # the sealed GameRecord, JSON
    log_first: Mapped[str] = mapped_column(Text, default="")
    log_second: Mapped[str] = mapped_column(Text, default="")
    # the moves so far of a game being played, JSON, as its worker streams them
    moves: Mapped[str] = mapped_column(Text, default="", server_default="")
    finished: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # copied from its round and its versions when the round is written
    phase: Mapped[str] = mapped_column(String(16), default="test", server_default="test")
    round_number: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    first_account_id: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    second_account_id: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # written with its result (:func:`arbiter.host.tallies.result_columns`)
    score_first: Mapped[float | None] = mapped_column(Float)
    irregular: Mapped[bool] = mapped_column(
        Boolean, default=False, server_default=false(), index=True
    )

    round: Mapped[Round] = relationship(back_populates="games")
    first: Mapped[Version] = relationship(foreign_keys=[first_id])
    second: Mapped[Version] = relationship(foreign_keys=[second_id])


class Bye(Base):
    """A Swiss round's player without an opponent, credited a win for each game the
    round's pairs play."""

    __tablename__ = "byes"
    __table_args__ = (UniqueConstraint("round_id", "account_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    points: Mapped[float] = mapped_column(Float)


class Worker(Base):
    """A machine that plays games: it pulls them with its token (kept hashed). One
    process at a time may use a token: ``instance`` is the live one's id, ``last_seen``
    when it last called. A ``revoked`` token opens nothing."""

    __tablename__ = "workers"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    token_hash: Mapped[str] = mapped_column(String(200))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    last_seen: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    instance: Mapped[str | None] = mapped_column(String(64))
    revoked: Mapped[bool] = mapped_column(Boolean, default=False)
    stored: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """How many results it sent were stored."""
    auth_key: Mapped[str | None] = mapped_column(String(64), unique=True)
    """The public half of the key its token holds (base64url): every call it makes is
    signed with the private half (:mod:`arbiter.host.request_signing`), which never
    leaves the worker. None for a token of the older form, which opens nothing."""
    failures: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """How many games it reported it could not play."""
    failing: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """Games it could not play since its last stored result."""
    paused: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Set when ``failing`` reaches the contest's ``pause_after``: it leases nothing
    until the organiser resumes it (or gives it a new token)."""


class GameFailure(Base):
    """A worker's report that it could not play a game, one per worker and game: a
    game is settled unplayed only once ``max_failures`` different workers reported
    (:func:`arbiter.host.settle.fail`), so no one machine settles a game by itself."""

    __tablename__ = "game_failures"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    worker: Mapped[str] = mapped_column(String(64), primary_key=True)
    culprit: Mapped[int | None] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(Text, default="")
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class WorkerNonce(Base):
    """A nonce a worker's signed call used, kept while a call carrying it could still
    be accepted, so that no recorded call is accepted twice."""

    __tablename__ = "worker_nonces"

    nonce: Mapped[str] = mapped_column(String(64), primary_key=True)
    seen: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)


class Superseded(Base):
    """A result erased when its round was played again, kept as it was: the round's
    page shows it as superseded and the export carries it."""

    __tablename__ = "superseded_games"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    winner: Mapped[int | None] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(64), default="")
    detail: Mapped[str] = mapped_column(Text, default="")
    record: Mapped[str] = mapped_column(Text, default="")
    finished: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    erased: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class Setting(Base):
    """The contest's running state the organiser sets: paused, standings frozen."""

    __tablename__ = "settings"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class AuditEntry(Base):
    """One organiser action that changes results or who plays (disqualify, reinstate,
    play a round again, freeze, start the final), who did it and when: kept for good,
    shown on the organiser's page."""

    __tablename__ = "audit"

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"))
    action: Mapped[str] = mapped_column(String(32))
    subject: Mapped[str] = mapped_column(String(64), default="")
    detail: Mapped[str] = mapped_column(Text, default="")


class Tally(Base):
    """What one entrant scored against another in a phase, with the first (``first_id``)
    in the first seat: games, the first's wins, draws, each side's contest points and
    irregular losses, and how many games the contest scored otherwise than 1-½-0.
    Kept as each result is stored (:mod:`arbiter.host.tallies`), so the standings
    and the ratings read a row per pair that met, never a row per game."""

    __tablename__ = "tallies"
    __table_args__ = (Index("ix_tallies_phase_stamp", "phase", "stamp"),)

    phase: Mapped[str] = mapped_column(String(16), primary_key=True)
    first_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    second_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    games: Mapped[int] = mapped_column(Integer, default=0)
    first_wins: Mapped[int] = mapped_column(Integer, default=0)
    draws: Mapped[int] = mapped_column(Integer, default=0)
    first_points: Mapped[float] = mapped_column(Float, default=0.0)
    second_points: Mapped[float] = mapped_column(Float, default=0.0)
    first_faults: Mapped[int] = mapped_column(Integer, default=0)
    second_faults: Mapped[int] = mapped_column(Integer, default=0)
    rescored: Mapped[int] = mapped_column(Integer, default=0)
    stamp: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """The :class:`TallyClock`'s reading when it last changed: a table computed
    again reads only the pairs changed since the last."""


class TallyClock(Base):
    """One row counting the changes to the tallies. Each change takes the next
    reading, under the row's lock until its transaction ends, so the readings are
    given in the order the changes are committed (PostgreSQL; SQLite has one writer
    anyway): whoever has read every change up to a reading has missed none before
    it."""

    __tablename__ = "tally_clock"

    id: Mapped[int] = mapped_column(primary_key=True)
    value: Mapped[int] = mapped_column(Integer, default=0)


class Rated(Base):
    """An entrant's rating after a finished round, stored once when the round ends
    (:mod:`arbiter.host.ratings`): Elo, its 95% half-width (None: unknown), games."""

    __tablename__ = "ratings"

    round_id: Mapped[int] = mapped_column(
        ForeignKey("rounds.id", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[int] = mapped_column(Integer, primary_key=True, index=True)
    elo: Mapped[float] = mapped_column(Float)
    error: Mapped[float | None] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)


class ExportJob(Base):
    """An export the organiser started: written in the background into the contest's
    folder (:mod:`arbiter.host.export`), ``state`` ``running``, ``done`` or
    ``failed`` (``detail`` says why), with its progress in games."""

    __tablename__ = "exports"

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"))
    started: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    finished: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    state: Mapped[str] = mapped_column(String(16), default="running")
    sources: Mapped[bool] = mapped_column(Boolean, default=False)
    logs: Mapped[bool] = mapped_column(Boolean, default=False)
    done: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int] = mapped_column(Integer, default=0)
    file: Mapped[str] = mapped_column(String(200), default="")
    size: Mapped[int] = mapped_column(Integer, default=0)
    detail: Mapped[str] = mapped_column(Text, default="")


class LoginFailure(Base):
    """Failed log-ins of one name from one address (``name`` empty: of any name from
    that address), shared by every server process of the contest and kept through a
    restart (:class:`arbiter.host.accounts.LogIn`): how many, the last (seconds since
    the epoch) and the moment before which the address waits."""

    __tablename__ = "login_failures"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    address: Mapped[str] = mapped_column(String(64), primary_key=True)
    count: Mapped[int] = mapped_column(Integer, default=0)
    last: Mapped[float] = mapped_column(Float, default=0.0, index=True)
    until: Mapped[float] = mapped_column(Float, default=0.0)


class LiveStream(Base):
    """A live standings stream open in some server process, counted against its
    address's bound (:mod:`arbiter.host.stream_slots`); ``seen`` is renewed by its
    process while it runs, so the streams of a process that died stop counting."""

    __tablename__ = "live_streams"

    id: Mapped[int] = mapped_column(primary_key=True)
    address: Mapped[str] = mapped_column(String(64), index=True)
    process: Mapped[str] = mapped_column(String(64), index=True)
    seen: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ServerProcess(Base):
    """A server process of the contest, with the time it last said it was alive and
    whether it does the work that must happen once (:mod:`arbiter.host.coordination`)."""

    __tablename__ = "server_processes"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    started: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    seen: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    leads: Mapped[bool] = mapped_column(Boolean, default=False)


class Published(Base):
    """The latest standings one process computed, for every process to serve: their
    number (one more each time) and JSON text."""

    __tablename__ = "published_standings"

    id: Mapped[int] = mapped_column(primary_key=True)
    number: Mapped[int] = mapped_column(Integer, default=0)
    payload: Mapped[str] = mapped_column(Text, default="")


COUNTED_GAME = Game.phase != "candidate"
"""The games of the contest's own rounds (by the game's own column: no join)."""
