"""The worker API's messages, one definition for the server (which validates what it
is sent: a malformed call is a 422 naming the field) and the worker (which reads
what it is given).

A worker signs every call with its token (``Authorization: Arbiter-Worker ...``) and
says which process it is (``X-Worker-Instance: ID``, random per process); before its
first call, and again after each time the server was away, it has the server prove
it holds the contest's key (:class:`ContestInfo`'s ``proof``;
:mod:`arbiter.host.request_signing`).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

INSTANCE_HEADER = "X-Worker-Instance"

MAX_TEXT = 4 << 20
"""The longest record or log a worker may send (the server keeps less of a log)."""


class ContestInfo(BaseModel):
    """``GET /api/contest``: who the server is, and (asked with ``?challenge=``) the
    contest key's signature of the challenge
    (:func:`arbiter.host.request_signing.challenge_message`)."""

    id: str
    name: str
    game: str
    proof: str | None = None


class LeaseRequest(BaseModel):
    """``POST /api/worker/lease``: a worker asking for a game."""

    name: str = Field(default="", max_length=64)


class Player(BaseModel):
    """A seat of a job: its version, its packed program (hash and size, to fetch and
    check), its name in the record and its language (the run command's key)."""

    version: int
    program: str | None
    size: int | None
    name: str
    language: str


class Job(BaseModel):
    """A leased game: everything a worker needs to play it and send its result."""

    id: int
    round: int
    number: int
    seed: int
    start: str | None
    players: list[Player] = Field(min_length=2, max_length=2)
    game: str
    time_control: str
    memory_mb: int
    disk_mb: int
    lease_seconds: float
    runs: dict[str, str]
    lease: str


class LeaseBody(BaseModel):
    """A call about a leased game (heartbeat, release): the lease's token."""

    lease: str = Field(max_length=128)


MAX_LIVE_PLIES = 5000
"""The most moves a game in progress shows (a longer game shows its record at the end)."""


class LiveMove(BaseModel):
    """One move of a game in progress: its text in the record's numbering, and the
    seconds it was charged."""

    text: str = Field(max_length=2000)
    seconds: float = Field(ge=0)


class MovesBody(LeaseBody):
    """The moves of a game in progress from move number ``start`` (0: the first), sent
    while it is played so that anyone can watch it."""

    start: int = Field(ge=0, le=MAX_LIVE_PLIES)
    moves: list[LiveMove] = Field(max_length=500)


class ResultBody(LeaseBody):
    """A played game: its record (JSON) and each seat's stderr."""

    record: str = Field(max_length=MAX_TEXT)
    logs: tuple[str, str] = ("", "")


class FailureBody(LeaseBody):
    """A game the worker could not play: why, and the seat whose program was at
    fault (None when it was not a program's fault: the worker's own machine)."""

    reason: str = Field(max_length=2000)
    culprit: int | None = Field(default=None, ge=0, le=1)


class Stored(BaseModel):
    """The answer to a result or a failure: what became of the game."""

    state: str
