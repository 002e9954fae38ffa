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
import math
import threading
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from arbiter.errors import Reason
from arbiter.game import Outcome
from arbiter.games import find_game
from arbiter.host.config import ContestConfig
from arbiter.host.models import Account, Round, Setting
from arbiter.host.rounds import RatingPoint, bye_points, rating_histories, standings_of

RANKING_RULES = {
    "contest": "contest points, then fewer irregular losses, then rating",
    "points": "game points (a win 1, a draw ½), then fewer irregular losses, then rating",
    "rating": "rating, then game points",
}
"""Each ranking in words, as the standings page names it (``rank_by``)."""


def win_without_play(config: ContestConfig) -> float:
    """The contest points a game won without being played is worth to its winner (as
    a forfeit is scored): what a Swiss bye is credited for each game of its round."""
    spec = find_game(config.game)
    rules = spec.make()
    return spec.score(rules, rules.initial(), Outcome(0, Reason.FORFEIT))[0]


def standings_data(session: Session, config: ContestConfig) -> dict[str, Any]:
    """The standings as pages and ``/api/standings`` show them: rows in the contest's
    ranking (``rank_by``: contest points, game points or rating, ties by fewer
    irregular losses then rating), Swiss byes credited as games won without play in
    both units, disqualified entrants marked; the rounds; whether frozen."""
    frozen = session.get(Setting, "frozen")
    if frozen is not None:
        data: dict[str, Any] = json.loads(frozen.value)
        data["frozen"] = True
        return data
    table = standings_of(session, config)
    byes = bye_points(session)
    per_game = win_without_play(config)
    accounts = {a.name: a for a in session.scalars(select(Account))}
    rows = []
    for line in table.lines:
        account = accounts.get(line.name)
        extra = byes.get(account.id, 0.0) if account is not None else 0.0
        rows.append(
            _row(
                line.name,
                (line.games, line.wins, line.draws, line.losses),
                (line.points + extra, line.contest_points + extra * per_game, extra),
                line.faults,
                line.rating.elo,
                line.rating.error,
                account is not None and account.disqualified,
            )
        )
    played = {line.name for line in table.lines}
    for name, account in accounts.items():  # a bye before a first game
        if name not in played and account.id in byes:
            extra = byes[account.id]
            rows.append(
                _row(
                    name,
                    (0, 0, 0, 0),
                    (extra, extra * per_game, extra),
                    0,
                    0.0,
                    math.inf,
                    account.disqualified,
                )
            )
    rows.sort(key=_ranking(config.rank_by))
    rounds = [
        {"number": r.number, "kind": r.kind, "state": r.state}
        for r in session.scalars(select(Round).order_by(Round.number))
    ]
    return {
        "rows": rows,
        "rounds": rounds,
        "contest_scored": table.contest_scored or config.rank_by == "contest",
        "ranking": {"by": config.rank_by, "rule": RANKING_RULES[config.rank_by]},
        "games": table.games,
        "frozen": False,
    }


def _ranking(rank_by: str) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    """The sort key of a standings row for the ranking ``rank_by``."""
    if rank_by == "rating":
        return lambda r: (-r["elo_exact"], -r["points"], r["name"])
    first = "contest_points" if rank_by == "contest" else "points"
    return lambda r: (-r[first], r["faults"], -r["elo_exact"], r["name"])


def _row(
    name: str,
    counts: tuple[int, int, int, int],
    points: tuple[float, float, float],
    faults: int,
    elo: float,
    error: float,
    disqualified: bool,
) -> dict[str, Any]:
    """A standings row: ``points`` are (game points, contest points, byes' game points),
    byes included."""
    games, wins, draws, losses = counts
    game_points, contest_points, byes = points
    return {
        "name": name,
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "points": game_points,
        "byes": byes,
        "contest_points": contest_points,
        "faults": faults,
        "disqualified": disqualified,
        "elo": round(elo),
        "elo_exact": elo,
        "error": round(error) if math.isfinite(error) else None,
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
                    .where(Round.state == "done")
                    .order_by(Round.number)
                )
            )
            if self._histories is None or self._histories[0] != done:
                fitted = rating_histories(connected, self._config, [n for n, _ in done])
                self._histories = (done, fitted)
            return list(self._histories[1].get(name, ()))


def _stamp(moment: datetime | None) -> str:
    return "" if moment is None else moment.isoformat()
