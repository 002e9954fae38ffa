"""The public standings and each entrant's rating history, computed once for each
change and shared by every page and event stream that shows them.

Standings change only with news (a result, a round, a version, the organiser's
freeze), so :class:`Board` keeps the payload of the latest news, serialised once:
a thousand open standings pages cost one computation per result, not a thousand.
Ratings after each round change only when a round finishes (or is played again), so
:class:`Board` fits them once per set of finished rounds.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from arbiter.host.config import ContestConfig
from arbiter.host.models import Account, Round, Setting
from arbiter.host.ranking import RANKING_RULES, ranked_rows
from arbiter.host.rounds import (
    COUNTED,
    RatingPoint,
    bye_points_by_name,
    current_phase,
    rating_histories,
    standings_of,
)


def standings_data(
    session: Session, config: ContestConfig, *, live: bool = False
) -> dict[str, Any]:
    """The standings as pages and ``/api/standings`` show them: rows in the contest's
    ranking (:func:`arbiter.host.ranking.ranked_rows`) over the games of the current
    phase (the test rounds, or once the final has begun only the final's), the
    rounds; whether frozen. A frozen table is what the organiser froze, unless
    ``live`` (an export holds the table its games give)."""
    frozen = session.get(Setting, "frozen")
    if frozen is not None and not live:
        data: dict[str, Any] = json.loads(frozen.value)
        data["frozen"] = True
        return data
    phase = current_phase(session)
    table = standings_of(session, config, phase)
    disqualified = set(session.scalars(select(Account.name).where(Account.disqualified)))
    rows = ranked_rows(table, bye_points_by_name(session, phase), disqualified, config.rank_by)
    rounds = [
        {"number": r.number, "kind": r.kind, "state": r.state, "phase": r.phase}
        for r in session.scalars(
            select(Round).where(Round.phase != "candidate").order_by(Round.number)
        )
    ]
    return {
        "rows": rows,
        "rounds": rounds,
        "phase": phase,
        "contest_scored": table.contest_scored or config.rank_by == "contest",
        "ranking": {"by": config.rank_by, "rule": RANKING_RULES[config.rank_by]},
        "games": table.games,
        "frozen": False,
    }


class Board:
    """The standings payload of the latest news and the rating histories of the
    latest finished rounds, each computed once (under a lock) and shared.

    ``session`` opens a database session; ``news`` reads the news counter."""

    def __init__(
        self,
        config: ContestConfig,
        session: Callable[[], Session],
        news: Callable[[], int],
    ) -> None:
        self._config = config
        self._session = session
        self._news = news
        self._lock = threading.Lock()
        self._history_lock = threading.Lock()  # a refit never holds up the standings
        self._payload: tuple[int, dict[str, Any], str] | None = None
        self._histories: tuple[object, dict[str, list[RatingPoint]]] | None = None
        self.computed = 0
        """How many times the standings were computed (a benchmark reads it)."""

    def cached(self) -> str | None:
        """The JSON of the standings if they are those of the latest news (no wait)."""
        held = self._payload
        return held[2] if held is not None and held[0] == self._news() else None

    def data(self, session: Session | None = None) -> dict[str, Any]:
        """The standings (a copy: the caller may change it), computed if need be in
        the caller's ``session`` (else in one of its own); see :meth:`latest`."""
        return dict(self._current(session)[1])

    def payload(self, session: Session | None = None) -> str:
        """The standings as JSON text (see :meth:`latest`)."""
        return self._current(session)[2]

    def latest(self, session: Session | None = None) -> tuple[int, str]:
        """The standings as JSON text with the news they are of. Those of the latest
        news, unless another thread is computing them: then the previous ones, at
        once (a table of many entrants takes seconds to fit, and results come faster
        than that; waiting, every page would queue behind every refit). A stream
        that gets older news than it saw asks again."""
        number, _, text = self._current(session)
        return number, text

    @contextlib.contextmanager
    def _connected(self, session: Session | None) -> Iterator[Session]:
        """``session``, or a new one; either way holding its database connection
        before a lock is taken, so a thread holding a lock never waits for the pool
        (while threads waiting for the lock hold connections: a deadlock once the
        pool is empty, as a hundred viewers found)."""
        if session is not None:
            session.connection()
            yield session
            return
        with self._session() as own:
            own.connection()
            yield own

    def _current(self, session: Session | None) -> tuple[int, dict[str, Any], str]:
        held = self._payload
        if held is not None and held[0] == self._news():
            return held
        with self._connected(session) as connected:
            if held is not None and not self._lock.acquire(blocking=False):
                return held  # being refitted: the previous table now, not a queue
            if held is None:
                self._lock.acquire()  # the first table: everyone waits for it
            try:
                number = self._news()
                if self._payload is None or self._payload[0] != number:
                    data = standings_data(connected, self._config)
                    self._payload = (number, data, json.dumps(data))
                    self.computed += 1
                return self._payload
            finally:
                self._lock.release()

    def history(self, name: str, session: Session | None = None) -> list[RatingPoint]:
        """``name``'s rating after each finished round it had played in by then
        (read, and fitted if need be, in ``session`` or one of its own)."""
        with self._connected(session) as connected, self._history_lock:
            done = tuple(
                (n, _stamp(f))
                for n, f in connected.execute(
                    select(Round.number, Round.finished)
                    .where(Round.state == "done", COUNTED)
                    .order_by(Round.number)
                )
            )
            if self._histories is None or self._histories[0] != done:
                fitted = rating_histories(connected, self._config, [n for n, _ in done])
                self._histories = (done, fitted)
            return list(self._histories[1].get(name, ()))


def _stamp(moment: datetime | None) -> str:
    return "" if moment is None else moment.isoformat()
