"""Lists of games a page at a time, newest first, at a cost that does not grow with
the games: an entrant's stored games and the games set aside.

Pages are cut by game id (keyset paging, as lichess and GitHub page their lists):
``before`` an id gives the next older page, ``after`` an id the next newer one, so a
page is an index range read of at most :data:`PAGE` rows however deep it is, and a
game stored meanwhile never shifts a page or shows a game twice. Counts are SQL
counts on the games' own columns.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, aliased

from arbiter.host.models import COUNTED_GAME, Account, Game, Round, Version

PAGE = 50
"""Games on a page."""


@dataclass(frozen=True, slots=True)
class Listed:
    """A game as a list shows it: id, round, seats' entrants with their versions,
    result and reason."""

    id: int
    round: int
    phase: str
    first: str
    second: str
    winner: int | None
    reason: str
    detail: str

    @property
    def result(self) -> str:
        return "½-½" if self.winner is None else "1-0" if self.winner == 0 else "0-1"


@dataclass(frozen=True, slots=True)
class GamePage:
    """A page of games, newest first, with the ids to page on from (``None``: no
    newer or no older games) and how many games the whole list holds."""

    games: list[Listed]
    newer: int | None
    older: int | None
    total: int


def entrant_games(
    session: Session,
    account: int,
    *,
    before: int | None = None,
    after: int | None = None,
    size: int | None = None,
) -> GamePage:
    """The stored games of the contest's own rounds the entrant ``account`` played, a
    page (of ``size``, by default :data:`PAGE`) newest first: the newest, the page of
    games older than ``before``, or the page newer than ``after``. (A candidate's
    evaluation is not the contest's: :func:`candidate_games`.)"""
    size = size or PAGE
    seats = (Game.first_account_id, Game.second_account_id)
    ids: set[int] = set()
    for seat in seats:  # an index range per seat, each cut to a page
        mine = (seat == account) & (Game.state == "done") & COUNTED_GAME
        ids |= set(_page_ids(session, mine, before, after, size + 1))
    total = sum(
        session.scalar(
            select(func.count(Game.id)).where(seat == account, Game.state == "done", COUNTED_GAME)
        )
        or 0
        for seat in seats
    )
    return _cut(session, ids, before, after, size, total)


def candidate_games(session: Session, account: int, *, size: int | None = None) -> GamePage:
    """The newest finished games of the evaluations of ``account``'s candidates (a
    page of ``size``, by default :data:`PAGE`), for their owner and the organiser."""
    size = size or PAGE
    tested = select(Version.id).where(Version.account_id == account)
    rounds = select(Round.id).where(Round.phase == "candidate", Round.candidate_id.in_(tested))
    theirs = (Game.phase == "candidate") & (Game.state == "done") & Game.round_id.in_(rounds)
    ids = set(_page_ids(session, theirs, None, None, size + 1))
    total = session.scalar(select(func.count(Game.id)).where(theirs)) or 0
    return _cut(session, ids, None, None, size, total)


def void_games(
    session: Session,
    *,
    before: int | None = None,
    after: int | None = None,
    size: int | None = None,
) -> GamePage:
    """The games set aside unplayed (void), a page newest first."""
    size = size or PAGE
    ids = set(_page_ids(session, Game.state == "void", before, after, size + 1))
    total = session.scalar(select(func.count(Game.id)).where(Game.state == "void")) or 0
    return _cut(session, ids, before, after, size, total)


def _page_ids(
    session: Session, where: Any, before: int | None, after: int | None, limit: int
) -> list[int]:
    query = select(Game.id).where(where)
    if after is not None:
        return list(session.scalars(query.where(Game.id > after).order_by(Game.id).limit(limit)))
    if before is not None:
        query = query.where(Game.id < before)
    return list(session.scalars(query.order_by(Game.id.desc()).limit(limit)))


def _cut(
    session: Session,
    ids: set[int],
    before: int | None,
    after: int | None,
    size: int,
    total: int,
) -> GamePage:
    """The page of ``size`` games among ``ids`` (fetched one beyond the page in the
    direction asked), with the ids its links page on from: ``newer`` for
    ``?after=``, ``older`` for ``?before=``."""
    ordered = sorted(ids, reverse=True)
    more = len(ordered) > size  # games beyond this page, the way it was asked for
    newer: int | None
    older: int | None
    if after is not None:  # the page just above ``after``: older games exist (it)
        page = ordered[-size:] if ordered else []
        newer = page[0] if more else None
        older = page[-1] if page else after + 1
    else:
        page = ordered[:size]
        older = page[-1] if more else None
        newer = None if before is None else (page[0] if page else before - 1)
    return GamePage(_listed(session, page), newer, older, total)


_SEATS = (aliased(Version), aliased(Version), aliased(Account), aliased(Account))
"""The two seats' versions and accounts, made once (an alias costs more to make than
a page's query takes to run)."""


def _listed(session: Session, ids: list[int]) -> list[Listed]:
    if not ids:
        return []
    first, second, a, b = _SEATS
    rows = session.execute(
        select(
            Game.id,
            Game.round_number,
            Game.phase,
            a.name,
            first.number,
            b.name,
            second.number,
            Game.winner,
            Game.reason,
            Game.detail,
        )
        .join(first, first.id == Game.first_id)
        .join(second, second.id == Game.second_id)
        .join(a, a.id == first.account_id)
        .join(b, b.id == second.account_id)
        .where(Game.id.in_(ids))
        .order_by(Game.id.desc())
    )
    return [
        Listed(game, rnd, phase, f"{x} v{xv}", f"{y} v{yv}", winner, reason, detail)
        for game, rnd, phase, x, xv, y, yv, winner, reason, detail in rows
    ]
