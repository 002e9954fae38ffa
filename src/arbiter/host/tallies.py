"""Results in the shape the tables need: a stored game's facts as columns of its own,
and each pair's tallies kept as results are stored.

When a game is stored (played, or settled by a forfeit) :func:`result_columns` gives
the columns its result fills (winner, reason, the first seat's game points, the
contest's points, whether the loser lost by a fault) and :func:`count` adds it to the
tally of its two entrants in its phase, in the same transaction; playing a round
again takes its games out (:func:`count` with ``-1``). The standings, the ratings and
the pairing read those tallies: a row for each pair that met, whatever the number of
games. :func:`recount` sums the tallies again from the games' columns, which is what
a migration fills them with and what a test holds them to.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import case, func, select, update
from sqlalchemy.orm import Session

from arbiter.errors import Reason
from arbiter.host.db import insert_of
from arbiter.host.models import Game, Tally, TallyClock

COUNTS = (
    "games",
    "first_wins",
    "draws",
    "first_points",
    "second_points",
    "first_faults",
    "second_faults",
    "rescored",
)
"""A tally's counts, in the order :func:`counts_of` gives them."""


def result_columns(
    winner: int | None, reason: str, score: tuple[float, float] | None
) -> dict[str, Any]:
    """The columns a stored result fills from its winner (seat, or None for a draw),
    reason and contest score."""
    irregular = winner is not None and _is_fault(reason)
    return {
        "winner": winner,
        "reason": reason,
        "score_first": 0.5 if winner is None else float(winner == 0),
        "points_first": None if score is None else score[0],
        "points_second": None if score is None else score[1],
        "irregular": irregular,
    }


def _is_fault(reason: str) -> bool:
    try:
        return Reason(reason).is_fault
    except ValueError:
        return False


def counts_of(
    winner: int | None,
    irregular: bool,
    score_first: float | None,
    points: tuple[float | None, float | None],
) -> tuple[float, ...]:
    """What one stored game adds to its pair's tally, in the order of :data:`COUNTS`."""
    first, second = points
    rescored = first is not None and (first != score_first or second != 1 - (score_first or 0))
    return (
        1,
        int(winner == 0),
        int(winner is None),
        first or 0.0,
        second or 0.0,
        int(irregular and winner == 1),
        int(irregular and winner == 0),
        int(rescored),
    )


def count(session: Session, game: Game, sign: int = 1) -> None:
    """Adds the stored ``game`` (its columns as they are now) to its pair's tally, or
    with ``sign`` -1 takes it out (not committed)."""
    added = counts_of(
        game.winner, game.irregular, game.score_first, (game.points_first, game.points_second)
    )
    add(session, game.phase, game.first_account_id, game.second_account_id, added, sign)


def add(
    session: Session,
    phase: str,
    first: int,
    second: int,
    added: Iterable[float],
    sign: int = 1,
) -> None:
    """Adds ``added`` (in the order of :data:`COUNTS`) times ``sign`` to the tally of
    ``first`` against ``second`` in ``phase``, making it if need be: one statement,
    atomic on SQLite and PostgreSQL alike (not committed)."""
    values = {name: sign * value for name, value in zip(COUNTS, added, strict=True)}
    key = {"phase": phase, "first_id": first, "second_id": second}
    insert = insert_of(session)
    stamp = session.execute(
        update(TallyClock)
        .where(TallyClock.id == 1)
        .values(value=TallyClock.value + 1)
        .returning(TallyClock.value)
    ).scalar_one()
    statement = insert(Tally).values(**key, **values, stamp=stamp)
    changes = {name: getattr(Tally, name) + statement.excluded[name] for name in COUNTS}
    statement = statement.on_conflict_do_update(
        index_elements=["phase", "first_id", "second_id"], set_={**changes, "stamp": stamp}
    )
    session.execute(statement)


COLUMNS = ("first", "second", *COUNTS)
"""The columns of :class:`PairTallies`: the two entrants' accounts, then the counts."""


class PairTallies:
    """Tallies read: one row a pair (the first seat's entrant against the second's),
    the columns of :data:`COLUMNS`, as one array of floats; a table of a few
    thousand pairs is read and summed without an object a row."""

    def __init__(self, rows: Sequence[Sequence[float]] | NDArray[np.float64]) -> None:
        array = np.array(rows, dtype=float).reshape(-1, len(COLUMNS))
        # in one order whatever the database's, so two readings compare equal
        self.rows: NDArray[np.float64] = array[np.lexsort((array[:, 1], array[:, 0]))]

    def __len__(self) -> int:
        return len(self.rows)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PairTallies) and np.array_equal(self.rows, other.rows)

    def __hash__(self) -> int:  # pragma: no cover - read, never a key
        return hash(self.rows.tobytes())

    def column(self, name: str) -> NDArray[np.float64]:
        """One column of every row (a name of :data:`COLUMNS`)."""
        return self.rows[:, COLUMNS.index(name)]


def read(session: Session, phase: str) -> PairTallies:
    """Every pair's tally in ``phase`` (pairs whose games were all taken out left
    aside). Its rows are read straight from the driver's cursor: SQLAlchemy's own
    rows cost ten times the query at twenty thousand pairs."""
    mark = "?" if session.get_bind().dialect.name == "sqlite" else "%s"
    names = ", ".join(("first_id", "second_id", *COUNTS))
    result = session.connection().exec_driver_sql(
        f"SELECT {names} FROM tallies WHERE phase = {mark} AND games > 0", (phase,)
    )
    return _rows_of(result)


def changed(session: Session, phase: str, since: int) -> tuple[PairTallies, int]:
    """The tallies of ``phase`` changed after the clock's reading ``since`` (those whose
    games were all taken out too, with no games), and the latest reading among them
    (``since`` if none): what a table kept in memory reads to be current."""
    mark = "?" if session.get_bind().dialect.name == "sqlite" else "%s"
    names = ", ".join(("first_id", "second_id", *COUNTS, "stamp"))
    result = session.connection().exec_driver_sql(
        f"SELECT {names} FROM tallies WHERE phase = {mark} AND stamp > {mark}", (phase, since)
    )
    try:
        rows = np.array(result.cursor.fetchall(), dtype=float).reshape(-1, len(COLUMNS) + 1)
    finally:
        result.close()
    latest = int(rows[:, -1].max()) if len(rows) else since
    return PairTallies(rows[:, :-1]), latest


class KeptTallies:
    """A phase's tallies kept in memory and brought up to date from the pairs changed
    since the last reading (:func:`changed`): a table computed after one result reads
    a row, not one row for every pair that ever met."""

    def __init__(self) -> None:
        self.phase: str | None = None
        self.since = -1
        self._rows: NDArray[np.float64] = np.zeros((0, len(COLUMNS)))
        self._index: dict[tuple[int, int], int] = {}

    def current(self, session: Session, phase: str) -> PairTallies:
        """The tallies of ``phase`` as the database holds them now."""
        if phase != self.phase:  # another phase (the final begun): read it whole
            self.phase, self.since = phase, -1
            self._rows, self._index = np.zeros((0, len(COLUMNS))), {}
        fresh, self.since = changed(session, phase, self.since)
        added: list[NDArray[np.float64]] = []
        for row in fresh.rows:
            key = (int(row[0]), int(row[1]))
            at = self._index.get(key)
            if at is None:
                self._index[key] = len(self._rows) + len(added)
                added.append(row)
            else:
                self._rows[at] = row
        if added:
            self._rows = np.vstack([self._rows, np.array(added)])
        return PairTallies(self._rows[self._rows[:, COLUMNS.index("games")] > 0])


def _rows_of(result: Any) -> PairTallies:
    try:
        return PairTallies(result.cursor.fetchall())
    finally:
        result.close()


def recount(session: Session, phase: str, last_round: int | None = None) -> PairTallies:
    """The tallies of ``phase`` summed from the games' columns (of the rounds up to
    ``last_round`` if given): what :func:`read` gives when nothing went wrong. It
    reads a row per game: for a migration, a test, or a past round's ratings."""
    first_wins = func.sum(_when(Game.winner == 0))
    draws = func.sum(_when(Game.winner.is_(None)))
    query = (
        select(
            Game.first_account_id,
            Game.second_account_id,
            func.count(Game.id),
            first_wins,
            draws,
            func.sum(func.coalesce(Game.points_first, 0.0)),
            func.sum(func.coalesce(Game.points_second, 0.0)),
            func.sum(_when(Game.irregular & (Game.winner == 1))),
            func.sum(_when(Game.irregular & (Game.winner == 0))),
            func.sum(
                _when(
                    Game.points_first.is_not(None)
                    & (
                        (Game.points_first != Game.score_first)
                        | (Game.points_second != 1 - Game.score_first)
                    )
                )
            ),
        )
        .where(Game.phase == phase, Game.state == "done")
        .group_by(Game.first_account_id, Game.second_account_id)
    )
    if last_round is not None:
        query = query.where(Game.round_number <= last_round)
    return _rows_of(session.connection().execute(query))


def _when(condition: Any) -> Any:
    return case((condition, 1), else_=0)
