"""What the organiser watches and what their actions leave behind.

The operations view: the queue (games waiting, leased, stored, set aside), the games
in progress with their worker and lease, each entrant's failed and irregular games,
and each worker's last games. The audit log: every organiser action, confirmed
first (disqualify, reinstate, play a round again, freeze, pause, revoke a worker's
token, ...), with who did it and when, kept for good."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from arbiter.host.models import (
    Account,
    AuditEntry,
    Game,
    Round,
    ServerProcess,
    now,
    stored_utc,
)


def audit(session: Session, who: Account, action: str, subject: str, detail: str = "") -> None:
    """Writes one entry of the audit log (not committed: it lands with the action)."""
    session.add(AuditEntry(account_id=who.id, action=action, subject=subject, detail=detail))


@dataclass(frozen=True, slots=True)
class LogLine:
    at: datetime
    who: str
    action: str
    subject: str
    detail: str


def audit_log(session: Session, limit: int = 200) -> list[LogLine]:
    """The newest entries of the audit log first."""
    rows = session.execute(
        select(AuditEntry, Account.name)
        .outerjoin(Account, Account.id == AuditEntry.account_id)
        .order_by(AuditEntry.id.desc())
        .limit(limit)
    )
    return [LogLine(e.at, name or "?", e.action, e.subject, e.detail) for e, name in rows]


@dataclass(frozen=True, slots=True)
class InProgress:
    game: int
    round: int
    players: tuple[str, str]
    worker: str
    lease_expires: datetime | None
    plies: int


@dataclass(frozen=True, slots=True)
class EntrantTrouble:
    """An entrant's games lost by its program's fault (by reason) and the games no
    worker could play that it was in (``failed``: reported failures, ``void``)."""

    name: str
    irregular: dict[str, int]
    failed: int
    void: int


@dataclass(frozen=True, slots=True)
class ServerRunning:
    """A server process of the contest heard from lately: whether it leads the
    contest's work, and whether it is still heard (``alive``)."""

    name: str
    started: datetime
    seen: datetime
    leads: bool
    alive: bool


@dataclass(frozen=True, slots=True)
class Operations:
    queue: dict[str, int]
    playing: list[InProgress]
    trouble: list[EntrantTrouble]
    last_games: dict[str, list[int]]
    servers: list[ServerRunning]


HEARD = timedelta(seconds=30)
"""A server process silent for longer is shown as gone (it stamps every 5 s)."""

SHOWN = timedelta(hours=1)
"""How long a gone server process stays on the page."""


def servers(session: Session) -> list[ServerRunning]:
    """The server processes heard from in the last hour, the first started first."""
    moment = now()
    rows = session.scalars(
        select(ServerProcess)
        .where(ServerProcess.seen >= moment - SHOWN)
        .order_by(ServerProcess.started, ServerProcess.name)
    )
    return [
        ServerRunning(
            p.name,
            stored_utc(p.started),
            stored_utc(p.seen),
            p.leads and moment - stored_utc(p.seen) <= HEARD,
            moment - stored_utc(p.seen) <= HEARD,
        )
        for p in rows
    ]


def operations(session: Session, workers: Sequence[str] = ()) -> Operations:
    """The operations view now, with the last games of each of ``workers``; each part
    read through an index (the rounds under way, leased, irregular, failed and void
    games), never the whole list of games."""
    queue = Counter({"queued": 0, "leased": 0, "done": 0, "void": 0})
    playing = list(session.scalars(select(Round.id).where(Round.state == "playing")))
    for state, count in session.execute(  # through the games' round index: a join
        select(Game.state, func.count(Game.id))  # read every game of the contest
        .where(Game.round_id.in_(playing))
        .group_by(Game.state)
    ):
        queue[state] += count
    names = dict(session.execute(select(Account.id, Account.name)).all())
    under_way = [
        InProgress(
            g.id,
            g.round_number,
            (names.get(g.first_account_id, "?"), names.get(g.second_account_id, "?")),
            g.worker or "?",
            g.lease_expires,
            len(json.loads(g.moves)) if g.moves else 0,
        )
        for g in session.scalars(select(Game).where(Game.state == "leased").order_by(Game.id))
    ]
    irregular: dict[str, Counter[str]] = {}
    loser = case((Game.winner == 0, Game.second_account_id), else_=Game.first_account_id)
    for account, reason, count in session.execute(
        select(loser, Game.reason, func.count(Game.id))
        .where(Game.irregular.is_(True))
        .group_by(loser, Game.reason)
    ):
        irregular.setdefault(names.get(account, "?"), Counter())[reason] += count
    failed: Counter[str] = Counter()
    void: Counter[str] = Counter()
    seats = (Game.first_account_id, Game.second_account_id)
    for failures, x, y in session.execute(select(Game.failures, *seats).where(Game.failures > 0)):
        for account in (x, y):
            failed[names.get(account, "?")] += failures
    for x, y in session.execute(select(*seats).where(Game.state == "void")):
        for account in (x, y):
            void[names.get(account, "?")] += 1
    trouble = [
        EntrantTrouble(name, dict(irregular.get(name, {})), failed[name], void[name])
        for name in sorted(set(irregular) | {n for n in failed if failed[n] or void[n]})
    ]
    last = {
        worker: list(
            session.scalars(
                select(Game.id)
                .where(Game.worker == worker, Game.state == "done")
                .order_by(Game.finished.desc(), Game.id.desc())
                .limit(5)
            )
        )
        for worker in workers
    }
    return Operations(dict(queue), under_way, trouble, last, servers(session))
