"""The public standings, computed once for each change, away from requests, and
shared by every page and event stream that shows them.

Standings change only with news (a result, a round, a version, the organiser's
freeze). The server's background work (:class:`arbiter.host.service.Service`) calls
:meth:`Board.refresh` after news, at most once a second while results stream in; a
page or a stream takes :meth:`Board.latest` at once and never computes a table. A
refresh reads only the tallies changed since the last
(:class:`arbiter.host.tallies.KeptTallies`) and starts the rating fit from the
previous table's, so its cost follows the entrants and the change, not the games.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from arbiter.host import ratings
from arbiter.host.config import ContestConfig
from arbiter.host.models import COUNTED, Account, Round, Setting, now
from arbiter.host.ranking import RANKING_RULES, ranked_rows
from arbiter.host.ratings import RatingPoint
from arbiter.host.rounds import (
    bye_points_by_name,
    current_phase,
    next_round_words,
    standings_of,
)
from arbiter.host.tallies import KeptTallies


def standings_data(
    session: Session, config: ContestConfig, *, live: bool = False
) -> dict[str, Any]:
    """The standings as pages and ``/api/standings`` show them: rows in the contest's
    ranking (:func:`arbiter.host.ranking.ranked_rows`) over the games of the current
    phase (the test rounds, or once the final has begun only the final's), the
    rounds, when the schedule starts the next (``next_round``); whether frozen. A
    frozen table is what the organiser froze, unless ``live`` (an export holds the
    table its games give)."""
    return _computed(session, config, live=live)[0]


def _computed(
    session: Session,
    config: ContestConfig,
    *,
    live: bool = False,
    start: Mapping[int, float] | None = None,
    kept: KeptTallies | None = None,
) -> tuple[dict[str, Any], dict[int, float]]:
    """:func:`standings_data`, the fit started from ``start``, the tallies read
    through ``kept`` if given, with the fitted log-strengths (none for a frozen
    table)."""
    frozen = session.get(Setting, "frozen")
    if frozen is not None and not live:
        data: dict[str, Any] = json.loads(frozen.value)
        data["frozen"] = True
        return data, {}
    phase = current_phase(session)
    pairs = None if kept is None else kept.current(session, phase)
    table = standings_of(session, phase, start, pairs)
    disqualified = set(session.scalars(select(Account.name).where(Account.disqualified)))
    byes = bye_points_by_name(session, phase)
    rows = ranked_rows(config.game, table.lines, byes, disqualified, config.rank_by)
    rounds = [
        {"number": number, "kind": kind, "state": state, "phase": round_phase}
        for number, kind, state, round_phase in session.execute(
            select(Round.number, Round.kind, Round.state, Round.phase)
            .where(COUNTED)
            .order_by(Round.number)
        )
    ]
    data = {
        "rows": rows,
        "rounds": rounds,
        "phase": phase,
        "contest_scored": table.contest_scored or config.rank_by == "contest",
        "ranking": {"by": config.rank_by, "rule": RANKING_RULES[config.rank_by]},
        "games": table.games,
        "frozen": False,
    }
    if not live:  # a page's, not an export's: when the schedule starts the next round
        data["next_round"] = next_round_words(session, config, now())
    return data, table.strengths


class Board:
    """The latest standings, computed by :meth:`refresh` (one at a time) and read by
    every page and stream at once; ``session`` opens a database session."""

    def __init__(self, config: ContestConfig, session: Callable[[], Session]) -> None:
        self._config = config
        self._session = session
        self._lock = threading.Lock()
        self._payload: tuple[int, dict[str, Any], str] | None = None
        self._strengths: dict[int, float] = {}
        self._kept = KeptTallies()
        self.computed = 0
        """How many times the standings were computed (a benchmark reads it)."""

    def refresh(self) -> tuple[int, str]:
        """Computes the standings now from the database and makes them the latest;
        returns their number (one more than the last) and JSON text. Not for a
        request's thread: the server's background work calls it after news."""
        with self._lock, self._session() as session:
            data, strengths = _computed(
                session, self._config, start=self._strengths, kept=self._kept
            )
            self._strengths = strengths or self._strengths
            number = self._payload[0] + 1 if self._payload is not None else 1
            self._payload = (number, data, json.dumps(data))
            self.computed += 1
            return number, self._payload[2]

    def adopt(self, number: int, payload: str) -> None:
        """Makes standings another process computed the latest (number ``number``,
        JSON text ``payload``): a process that does not lead serves the leader's."""
        with self._lock:
            self._payload = (number, json.loads(payload), payload)

    @property
    def number(self) -> int:
        """The latest standings' number (0: none yet)."""
        held = self._payload
        return 0 if held is None else held[0]

    def latest(self) -> tuple[int, str]:
        """The latest standings' number and JSON text, at once (computed here only
        before the first :meth:`refresh`, as a server starts)."""
        held = self._payload
        if held is None:
            return self.refresh()
        return held[0], held[2]

    def data(self) -> dict[str, Any]:
        """The latest standings (a copy: the caller may change it)."""
        self.latest()
        held = self._payload
        assert held is not None
        return dict(held[1])

    def payload(self) -> str:
        """The latest standings as JSON text."""
        return self.latest()[1]


def history(session: Session, name: str) -> list[RatingPoint]:
    """``name``'s stored rating after each finished round of the current phase it had
    played in by then (none for an unknown name)."""
    account = session.scalar(select(Account.id).where(Account.name == name))
    if account is None:
        return []
    return ratings.history(session, account, current_phase(session))
