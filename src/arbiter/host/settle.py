"""Games a round cannot wait for: settled without being played, so one broken
program, one broken machine or one disqualification never holds up a contest.

- A game workers report they cannot play (:func:`fail`) goes back in the queue until
  ``max_failures`` different workers have failed it; then it is **forfeited** by the
  seat whose program every one of them blamed (too large, did not unpack), or, when
  they did not all blame the same program, made **void**.
- A game whose lease runs out ``max_attempts`` times (its workers die or vanish while
  playing it) is made void (:func:`void_abandoned`).
- Disqualifying an entrant forfeits its unplayed games at once (:func:`disqualify`).

A forfeit is stored as a record with no moves, the culprit losing by
:attr:`Reason.FORFEIT` and the contest's score for that loss, so standings, ratings
and exports count it like any game. A void game counts for nobody; the organiser sees
it and may queue it again (:func:`requeue`).
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from arbiter.errors import Reason
from arbiter.game import Outcome
from arbiter.games import find_game
from arbiter.host import tallies
from arbiter.host.config import ContestConfig
from arbiter.host.models import Game, GameFailure, Round, Version, Worker, now
from arbiter.host.ratings import unrate
from arbiter.record import GameRecord

UNPLAYED = ("queued", "leased")


def version_name(version: Version) -> str:
    """How a version plays in records: ``NAME vNUMBER``."""
    return f"{version.account.name} v{version.number}"


def forfeit_record(config: ContestConfig, game: Game, loser: int, why: str) -> GameRecord:
    """The record of ``game`` lost unplayed by seat ``loser`` (0 or 1) for ``why``."""
    spec = find_game(config.game)
    rules = spec.make({})
    s = rules.initial() if game.start is None else spec.notation.parse_position(game.start)
    out = Outcome(1 - loser, Reason.FORFEIT, why)
    return GameRecord(
        game=spec.name,
        players=(version_name(game.first), version_name(game.second)),
        moves=(),
        times=(),
        winner=out.winner,
        reason=out.reason,
        detail=why,
        time_control=config.clock,
        seed=game.seed,
        start=game.start,
        date=datetime.now(UTC).isoformat(timespec="seconds"),
        round=game.round_number,
        score=spec.score(rules, s, out),
    )


def forfeit(session: Session, config: ContestConfig, game: Game, loser: int, why: str) -> None:
    """Stores ``game`` as lost unplayed by seat ``loser`` (not committed)."""
    record = forfeit_record(config, game, loser, why)
    game.state = "done"
    game.lease = game.lease_expires = None
    for column, value in tallies.result_columns(
        record.winner, str(record.reason), record.score
    ).items():
        setattr(game, column, value)
    game.detail = why
    game.plies = 0
    game.record = record.to_json()
    game.finished = now()
    tallies.count(session, game)


def void(game: Game, why: str) -> None:
    """Sets ``game`` aside unplayed, counting for nobody (not committed)."""
    game.state = "void"
    game.lease = game.lease_expires = None
    game.winner = None
    game.reason = "void"
    game.detail = why
    game.finished = now()


def fail(
    session: Session,
    game_id: int,
    token: str,
    worker: str,
    culprit: int | None,
    why: str,
    config: ContestConfig,
) -> str | None:
    """Worker ``worker``, holding lease ``token``, could not play game ``game_id``
    (``culprit``: the seat whose program it blames, if any). Returns the game's new
    state (``queued``, ``done`` for a forfeit, or ``void``; committed), or None if the
    lease is not the worker's.

    The game is settled once ``config.max_failures`` *different* workers reported it
    (a worker's second report replaces its first, and it is not handed the game
    again), so no one machine, honest or not, settles a game by itself; a seat
    forfeits only if every one of them blamed that seat's program. A worker that
    fails ``config.pause_after`` games in a row without storing a result is paused.
    """
    game = session.get(Game, game_id)
    if game is None or game.state != "leased" or game.lease != token:
        return None
    report = session.get(GameFailure, (game_id, worker))
    if report is None:
        report = GameFailure(game_id=game_id, worker=worker)
        session.add(report)
        game.failures += 1
    report.culprit = culprit if culprit in (0, 1) else None
    report.reason = why
    report.at = now()
    machine = session.scalar(select(Worker).where(Worker.name == worker))
    if machine is not None:
        machine.failures += 1
        machine.failing += 1
        machine.paused = machine.paused or machine.failing >= config.pause_after
    detail = f"could not be played on {game.failures} workers: {why}"
    if game.failures < config.max_failures:
        game.state = "queued"
        game.lease = game.worker = game.lease_expires = None
        game.detail = detail
    else:
        session.flush()
        blamed = set(
            session.scalars(select(GameFailure.culprit).where(GameFailure.game_id == game_id))
        )
        seat = blamed.pop() if len(blamed) == 1 else None
        if seat is not None:
            forfeit(session, config, game, seat, detail)
        else:
            void(game, detail)
    session.commit()
    return game.state


def void_abandoned(session: Session, max_attempts: int) -> int:
    """Makes void every game whose lease ran out for the ``max_attempts``-th time (its
    workers keep dying on it); returns how many (committed)."""
    done = session.execute(
        update(Game)
        .where(
            Game.state == "leased",
            Game.lease_expires < now(),
            Game.attempts >= max_attempts,
        )
        .values(
            state="void",
            lease=None,
            lease_expires=None,
            reason="void",
            detail=f"its workers stopped answering {max_attempts} times while playing it",
            finished=now(),
        )
    )
    session.commit()
    return int(getattr(done, "rowcount", 0) or 0)


def disqualify(session: Session, config: ContestConfig, account_id: int) -> set[int]:
    """Forfeits every unplayed game of a round under way that account ``account_id``
    plays in (void where both seats are its own); returns the rounds they are in
    (not committed). A worker still playing one has its result refused: its lease is
    gone."""
    games = session.scalars(
        select(Game)
        .join(Round, Round.id == Game.round_id)
        .where(Round.state == "playing", Game.state.in_(UNPLAYED))
    )
    rounds = set()
    why = "disqualified by the organiser"
    for game in games:
        out = [game.first.account_id == account_id, game.second.account_id == account_id]
        if not any(out):
            continue
        if all(out):
            void(game, why)
        else:
            forfeit(session, config, game, out.index(True), why)
        rounds.add(game.round_id)
    return rounds


def requeue(session: Session, game_id: int) -> bool:
    """Puts a void game of the latest round back in the queue (and its round back in
    play; not committed); False if the game is not one (an earlier round's results
    paired the rounds after it)."""
    game = session.get(Game, game_id)
    latest = session.scalar(select(func.max(Round.number)))
    if game is None or game.state != "void" or game.round.number != latest:
        return False
    game.state = "queued"
    game.reason = game.detail = ""
    game.finished = None
    game.failures = game.attempts = 0
    session.execute(delete(GameFailure).where(GameFailure.game_id == game_id))
    game.round.state = "playing"
    game.round.finished = None
    unrate(session, game.round)
    return True
