"""The contest's table and ratings, from the tallies (:mod:`arbiter.host.tallies`):
each entrant's results and its Bradley-Terry rating, at a cost that follows the pairs
that met, never the games; and the ratings after each round, stored once when the
round is over.

:func:`contest_table` is what the standings, the Swiss pairing and the final's top
group read. Its fit starts from the previous table's strengths when it is given
them, so one result more costs a Newton step or two. :func:`rate_finished_rounds`
stores every finished round's ratings that are not stored yet (the server runs it
away from requests, after results); a page reads them with :func:`history` and
never fits anything.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from arbiter.host import tallies
from arbiter.host.models import COUNTED, Account, Rated, Round, now
from arbiter.host.tallies import PairTallies
from arbiter.tournament.bradley_terry import ELO, Rating, fit_arrays


@dataclass(frozen=True, slots=True)
class Line:
    """One entrant's line of the table: its results, contest points, irregular losses
    (games lost by a fault) and rating."""

    account: int
    name: str
    games: int
    wins: int
    draws: int
    losses: int
    points: float
    contest_points: float
    faults: int
    rating: Rating


@dataclass(frozen=True, slots=True)
class ContestTable:
    """The table of a phase: lines best rating first (then points, then name), the
    games counted, whether some game scored otherwise than 1-½-0, each entrant's
    log-strength (by account, to start the next fit from) and how the fit went."""

    lines: tuple[Line, ...]
    games: int
    contest_scored: bool
    strengths: dict[int, float]
    steps: int
    converged: bool

    def points(self, name: str) -> float:
        """``name``'s game points (0 without a game)."""
        return next((line.points for line in self.lines if line.name == name), 0.0)


def contest_table(
    session: Session,
    phase: str,
    start: Mapping[int, float] | None = None,
    pairs: PairTallies | None = None,
) -> ContestTable:
    """The table of ``phase`` from its tallies (or from ``pairs``, tallies read
    already), the fit started from ``start`` (log-strengths by account) where it
    knows the entrant. Only entrants who played are in it (one without a game would
    pull the ratings' centre). Sums over the pairs are array sums, so twenty
    thousand pairs cost what two hundred entrants' lines do."""
    if pairs is None:
        pairs = tallies.read(session, phase)
    first, second = pairs.column("first").astype(np.intp), pairs.column("second").astype(np.intp)
    accounts = np.unique(np.concatenate([first, second]))
    n = len(accounts)
    a, b = np.searchsorted(accounts, first), np.searchsorted(accounts, second)

    def both(mine: NDArray[np.float64], theirs: NDArray[np.float64]) -> list[float]:
        summed: list[float] = (np.bincount(a, mine, n) + np.bincount(b, theirs, n)).tolist()
        return summed

    count = pairs.column("games")
    first_wins, draws = pairs.column("first_wins"), pairs.column("draws")
    games = both(count, count)
    wins = both(first_wins, count - first_wins - draws)
    drawn = both(draws, draws)
    contest = both(pairs.column("first_points"), pairs.column("second_points"))
    faults = both(pairs.column("first_faults"), pairs.column("second_faults"))
    names = dict(
        session.execute(
            select(Account.id, Account.name).where(Account.id.in_(accounts.tolist()))
        ).all()
    )
    begin = None if start is None else [start.get(int(x), 0.0) for x in accounts]
    fitted = fit_arrays(n, (a, b, count, first_wins + 0.5 * draws), start=begin)
    lines = [
        Line(
            int(account),
            names.get(int(account), f"#{account}"),
            int(games[i]),
            int(wins[i]),
            int(drawn[i]),
            int(games[i] - wins[i] - drawn[i]),
            wins[i] + 0.5 * drawn[i],
            contest[i],
            int(faults[i]),
            fitted.ratings[i],
        )
        for i, account in enumerate(accounts)
    ]
    lines.sort(key=lambda s: (-s.rating.elo, -s.points, s.name))
    return ContestTable(
        tuple(lines),
        int(count.sum()),
        bool(pairs.column("rescored").any()),
        dict(zip(accounts.tolist(), fitted.strengths, strict=True)),
        fitted.steps,
        fitted.converged,
    )


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """An entrant's rating after a round: Elo and its 95% half-width."""

    round: int
    elo: float
    error: float


def rate_round(session: Session, rnd: Round) -> None:
    """Stores every entrant's rating after the finished round ``rnd`` (over the games
    of its phase up to it), marking it rated (not committed). The latest round of
    its phase reads the tallies (a row per pair); an earlier one (a contest
    upgraded, rounds rated late) sums its games' columns."""
    latest = _latest(session, rnd.phase)
    pairs = None
    if latest == rnd.number:
        pairs = tallies.read(session, rnd.phase)
        if _latest(session, rnd.phase) != latest:  # a round was made meanwhile
            pairs = None
    if pairs is None:
        pairs = tallies.recount(session, rnd.phase, last_round=rnd.number)
    start = latest_strengths(session, rnd.phase, before=rnd.number)
    table = contest_table(session, rnd.phase, start, pairs)
    session.execute(delete(Rated).where(Rated.round_id == rnd.id))
    for line in table.lines:
        error = line.rating.error
        session.add(
            Rated(
                round_id=rnd.id,
                account_id=line.account,
                elo=line.rating.elo,
                error=error if error != float("inf") else None,
                games=line.games,
            )
        )
    rnd.rated = now()


def latest_strengths(session: Session, phase: str, before: int | None = None) -> dict[int, float]:
    """Each entrant's log-strength after the latest rated round of ``phase`` (before
    round ``before``, if given): where a fit of the phase's table starts."""
    query = select(Round.id).where(Round.phase == phase, Round.rated.is_not(None))
    if before is not None:
        query = query.where(Round.number < before)
    latest = session.scalar(query.order_by(Round.number.desc()).limit(1))
    rows = session.execute(select(Rated.account_id, Rated.elo).where(Rated.round_id == latest))
    return {account: elo / ELO for account, elo in rows}


def _latest(session: Session, phase: str) -> int | None:
    return session.scalar(select(func.max(Round.number)).where(Round.phase == phase))


def rate_finished_rounds(session: Session) -> int:
    """Stores the ratings after every finished round of the contest that has none
    yet, in order (committed round by round); returns how many rounds it rated."""
    rated = 0
    while True:
        rnd = session.scalar(
            select(Round)
            .where(COUNTED, Round.state == "done", Round.rated.is_(None))
            .order_by(Round.number)
            .limit(1)
        )
        if rnd is None:
            return rated
        rate_round(session, rnd)
        session.commit()
        rated += 1


def unrate(session: Session, rnd: Round) -> None:
    """Forgets the ratings after ``rnd`` (played again; not committed)."""
    session.execute(delete(Rated).where(Rated.round_id == rnd.id))
    rnd.rated = None


def history(session: Session, account: int, phase: str) -> list[RatingPoint]:
    """The entrant ``account``'s stored rating after each rated round of ``phase`` it
    had played in by then."""
    rows = session.execute(
        select(Round.number, Rated.elo, Rated.error)
        .join(Round, Round.id == Rated.round_id)
        .where(Rated.account_id == account, Round.phase == phase)
        .order_by(Round.number)
    )
    return [
        RatingPoint(number, elo, float("inf") if error is None else error)
        for number, elo, error in rows
    ]
