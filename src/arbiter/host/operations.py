"""What the organiser watches and what their actions leave behind.

The operations view: the queue (games waiting, leased, stored, set aside), the games
in progress with their worker and lease, each entrant's failed and irregular games,
and each worker's last games. The audit log: every action that changes results or
who plays (disqualify, reinstate, play a round again, freeze, unfreeze, begin the
final) with who did it and when, kept for good."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session, aliased

from arbiter.errors import Reason
from arbiter.host.models import Account, AuditEntry, Game, Round, Version

AUDITED = ("disqualify", "reinstate", "rerun", "freeze", "unfreeze", "begin-final")
"""The organiser's actions that change results or who plays: each asks for a
confirmation first and is written to the audit log."""


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
class Operations:
    queue: dict[str, int]
    playing: list[InProgress]
    trouble: list[EntrantTrouble]
    last_games: dict[str, list[int]]


def operations(session: Session) -> Operations:
    """The operations view now."""
    queue = Counter({"queued": 0, "leased": 0, "done": 0, "void": 0})
    for state, count in session.execute(
        select(Game.state, func.count(Game.id))
        .join(Round, Round.id == Game.round_id)
        .where(Round.state == "playing")
        .group_by(Game.state)
    ):
        queue[state] += count
    first, second = aliased(Version), aliased(Version)
    a, b = aliased(Account), aliased(Account)
    seated = (
        select(Game, Round.number, a.name, b.name)
        .join(Round, Round.id == Game.round_id)
        .join(first, first.id == Game.first_id)
        .join(second, second.id == Game.second_id)
        .join(a, a.id == first.account_id)
        .join(b, b.id == second.account_id)
    )
    playing = [
        InProgress(
            g.id,
            number,
            (x, y),
            g.worker or "?",
            g.lease_expires,
            len(json.loads(g.moves)) if g.moves else 0,
        )
        for g, number, x, y in session.execute(
            seated.where(Game.state == "leased").order_by(Game.id)
        )
    ]
    irregular: dict[str, Counter[str]] = {}
    failed: Counter[str] = Counter()
    void: Counter[str] = Counter()
    faults = [str(r) for r in Reason if r.is_fault]
    # the columns it needs, not whole games (a stored game holds its record and logs)
    for state, winner, reason, failures, x, y in session.execute(
        select(Game.state, Game.winner, Game.reason, Game.failures, a.name, b.name)
        .join(first, first.id == Game.first_id)
        .join(second, second.id == Game.second_id)
        .join(a, a.id == first.account_id)
        .join(b, b.id == second.account_id)
        .where(
            (Game.failures > 0)
            | (Game.state == "void")
            | ((Game.state == "done") & Game.winner.is_not(None) & Game.reason.in_(faults))
        )
    ):
        if state == "done" and winner is not None and reason in faults:
            irregular.setdefault(y if winner == 0 else x, Counter())[reason] += 1
        for name in (x, y):
            failed[name] += failures
            void[name] += state == "void"
    trouble = [
        EntrantTrouble(name, dict(irregular.get(name, {})), failed[name], void[name])
        for name in sorted(set(irregular) | {n for n in failed if failed[n] or void[n]})
    ]
    last: dict[str, list[int]] = {}
    for worker, game_id in session.execute(
        select(Game.worker, Game.id)
        .where(Game.state == "done", Game.worker.is_not(None))
        .order_by(Game.finished.desc(), Game.id.desc())
    ):
        kept = last.setdefault(str(worker), [])
        if len(kept) < 5:
            kept.append(game_id)
    return Operations(dict(queue), playing, trouble, last)
