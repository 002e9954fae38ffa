"""The games waiting to be played, handed to workers under leases, as fishtest and
OpenBench do.

A worker asks for a game and gets one with a lease (a random token) that runs out
after ``seconds`` unless the worker's heartbeat renews it. The server alone writes
results, and only for the game's current lease: a worker that died, hung or lost its
network has its game put back in the queue when its lease runs out, another worker
plays it, and if the first one comes back its result is refused. So every game is
stored exactly once. Every change is a conditional ``UPDATE`` (state and lease in its
``WHERE``), which SQLite and PostgreSQL both make atomic, so two workers asking at
the same moment never get the same game.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import case, exists, select, update
from sqlalchemy.orm import Session

from arbiter.errors import ArbiterError, Reason
from arbiter.host import settle, tallies
from arbiter.host.db import insert_of
from arbiter.host.models import Game, GameFailure, Round, Setting, Worker, now, stored_utc
from arbiter.host.signing import ContestKey
from arbiter.host.wire import MAX_LIVE_PLIES
from arbiter.play.replay import replay
from arbiter.record import GameRecord

MAX_LOG = 256 * 1024
"""The most characters of a program's stderr kept per game."""


class ResultError(ArbiterError, ValueError):
    """A result the server does not store; the message says why."""


@dataclass(frozen=True, slots=True)
class Lease:
    """A game handed to a worker: the game's row id and the lease's token."""

    game_id: int
    token: str


def paused(session: Session) -> bool:
    return session.get(Setting, "paused") is not None


def expire(session: Session, max_attempts: int = 5) -> int:
    """Puts back in the queue every game whose lease ran out, except those it ran out
    on ``max_attempts`` times: they are made void (:func:`settle.void_abandoned`).
    Returns how many went back."""
    settle.void_abandoned(session, max_attempts)
    done = session.execute(
        update(Game)
        .where(Game.state == "leased", Game.lease_expires < now())
        .values(state="queued", lease=None, worker=None, lease_expires=None)
    )
    session.commit()
    return int(getattr(done, "rowcount", 0) or 0)


def lease(session: Session, worker: str, seconds: float, max_attempts: int = 5) -> Lease | None:
    """The next waiting game, leased to ``worker`` for ``seconds`` (None: nothing to
    play, or the contest is paused); see :func:`expire` for ``max_attempts``."""
    expire(session, max_attempts)
    # a worker plays one game at a time: asking again, it has lost the game it holds
    # (the answer to its last ask never reached it), which goes back in the queue now
    session.execute(
        update(Game)
        .where(Game.state == "leased", Game.worker == worker)
        .values(state="queued", lease=None, worker=None, lease_expires=None)
    )
    session.commit()
    if paused(session):
        return None
    while True:
        game_id = session.scalar(
            select(Game.id)
            .join(Round, Round.id == Game.round_id)
            .where(Game.state == "queued", Round.state == "playing")
            # a game a worker could not play goes to another
            .where(~exists().where(GameFailure.game_id == Game.id, GameFailure.worker == worker))
            # a candidate evaluation's games wait for every game of the contest's own
            .order_by(case((Round.phase == "candidate", 1), else_=0), Round.number, Game.number)
            .limit(1)
        )
        if game_id is None:
            return None
        token = secrets.token_urlsafe(24)
        taken = session.execute(
            update(Game)
            .where(Game.id == game_id, Game.state == "queued")
            .values(
                state="leased",
                lease=token,
                worker=worker,
                lease_expires=now() + timedelta(seconds=seconds),
                attempts=Game.attempts + 1,
                moves="",  # a game played again is watched from its start
            )
        )
        session.commit()
        if getattr(taken, "rowcount", 0) == 1:
            return Lease(game_id, token)
        # another worker took it between the two statements: the next one


ALIVE = "alive"
"""The setting a running server stamps with the time, every :data:`ALIVE_EVERY`
seconds: at its next start, how long it was away."""
ALIVE_EVERY = 5.0


def stamp_alive(session: Session) -> None:
    """Notes that the server is running now (committed)."""
    insert = insert_of(session)  # one statement: several processes stamp at once
    stamp = now().isoformat()
    session.execute(
        insert(Setting)
        .values(key=ALIVE, value=stamp)
        .on_conflict_do_update(index_elements=["key"], set_={"value": stamp})
    )
    session.commit()


def extend_leases(session: Session, lease_seconds: float) -> timedelta:
    """At a server's start: every lease extended by the time the server was away (its
    last :func:`stamp_alive` until now; a lease's term when it left no stamp), so a
    worker that played on while nobody answered still has its result stored.
    Returns the extension (committed)."""
    found = session.get(Setting, ALIVE)
    moment = now()
    away = timedelta(seconds=lease_seconds)
    if found is not None:
        try:
            last = datetime.fromisoformat(found.value)
        except ValueError:
            last = None
        if last is not None:
            away = max(timedelta(0), moment - last + timedelta(seconds=ALIVE_EVERY))
    for game in session.scalars(select(Game).where(Game.state == "leased")):
        if game.lease_expires is not None:
            game.lease_expires = stored_utc(game.lease_expires) + away
    stamp_alive(session)
    return away


def renew(session: Session, game_id: int, token: str, seconds: float) -> bool:
    """Extends a lease (a worker's heartbeat); False if the lease is no longer its."""
    done = session.execute(
        update(Game)
        .where(Game.id == game_id, Game.lease == token, Game.state == "leased")
        .values(lease_expires=now() + timedelta(seconds=seconds))
    )
    session.commit()
    return getattr(done, "rowcount", 0) == 1


def stream_moves(
    session: Session, game_id: int, token: str, start: int, moves: list[tuple[str, float]]
) -> bool:
    """Adds the moves from number ``start`` of a game being played to what its page
    shows (committed; moves it holds already are kept, a gap refused); False if the
    lease is not the caller's."""
    game = session.get(Game, game_id)
    if game is None or game.state != "leased" or game.lease != token:
        return False
    held = json.loads(game.moves) if game.moves else []
    if start > len(held):
        return True  # a beat went missing: the next call starts where the page is
    held = (held + [[t, round(s, 6)] for t, s in moves][len(held) - start :])[:MAX_LIVE_PLIES]
    game.moves = json.dumps(held, separators=(",", ":"))
    session.commit()
    return True


def release(session: Session, game_id: int, token: str) -> bool:
    """Gives a leased game back (a worker stopping); False if it was not its."""
    done = session.execute(
        update(Game)
        .where(Game.id == game_id, Game.lease == token, Game.state == "leased")
        .values(state="queued", lease=None, worker=None, lease_expires=None)
    )
    session.commit()
    return getattr(done, "rowcount", 0) == 1


def job(session: Session, game_id: int, contest: dict[str, Any]) -> dict[str, Any]:
    """What a worker needs to play a leased game: the game, clock, seed, start, and
    each seat's version, its packed program's hash and size (to fetch and check),
    name and language. ``contest`` holds the game, clock, supervision limits and
    each language's run command."""
    game = session.get(Game, game_id)
    if game is None:
        raise ResultError(f"no game {game_id}")
    players = []
    for version in (game.first, game.second):
        players.append(
            {
                "version": version.id,
                "program": version.program_sha256,
                "size": version.program_size,
                "name": f"{version.account.name} v{version.number}",
                "language": version.language,
            }
        )
    return {
        "id": game.id,
        "round": game.round.number,
        "number": game.number,
        "seed": game.seed,
        "start": game.start,
        "players": players,
        **contest,
    }


@dataclass(frozen=True, slots=True)
class Expected:
    """What the record of a leased game must say of it: its players (each version by
    name), its start, the contest's game and clock, its seed; and, played by a worker,
    the contest's own rules (no options) and a game played, not forfeited (only the
    server settles a game unplayed)."""

    players: tuple[str, str]
    start: str | None
    game: str
    clock: str
    seed: int

    @classmethod
    def of(cls, game: Game, contest: tuple[str, str]) -> Expected:
        """The expectations of ``game`` in a contest of ``contest`` (game, clock)."""
        names = (settle.version_name(game.first), settle.version_name(game.second))
        return cls(names, game.start, contest[0], contest[1], game.seed)

    def refusal(self, record: GameRecord) -> str | None:
        """Why ``record`` is not this game's as a worker played it, or None."""
        if (tuple(record.players), record.start) != (self.players, self.start) or (
            record.game,
            record.time_control,
        ) != (self.game, self.clock):
            return "the record is of another game or clock"
        if record.seed != self.seed:
            return "the record's seed is not the game's"
        if record.options:
            return f"the record changes the rules ({record.options})"
        if record.reason is Reason.FORFEIT:
            return "a worker plays games; it does not forfeit them"
        return None


def finish(
    session: Session,
    game_id: int,
    token: str,
    record_text: str,
    logs: tuple[str, str],
    contest: tuple[str, str],
    key: ContestKey | None = None,
) -> GameRecord:
    """Stores a leased game's result, once, signed with the contest's ``key`` (so it
    is served and exported as stored), its facts in columns of their own and in its
    pair's tally; ``contest`` is the game and clock every record must have.

    :raises ResultError: for a lease that is not the game's (ran out, or the game is
        stored already), or a record that is not this game's (its players, start, game,
        clock, seed and rules, none of them changed) or does not replay.
    """
    game = session.get(Game, game_id)
    if game is None or game.state != "leased" or game.lease != token:
        raise ResultError(f"game {game_id}: the lease is not this worker's (it ran out?)")
    try:
        record = GameRecord.from_json(record_text)
        replay(record)
    except ArbiterError as e:
        raise ResultError(f"game {game_id}: the record does not verify: {e}") from None
    refusal = Expected.of(game, contest).refusal(record)
    if refusal is not None:
        raise ResultError(f"game {game_id}: {refusal}")
    # the record names its round (the worker knows only the game's number in it); a
    # worker's own seal proves nothing here: the contest signs what it serves
    record = replace(record, round=game.round_number, seal=None)
    if key is not None:
        record = key.sign_record(record)
    columns = tallies.result_columns(record.winner, str(record.reason), record.score)
    done = session.execute(
        update(Game)
        .where(Game.id == game_id, Game.lease == token, Game.state == "leased")
        .values(
            state="done",
            lease=None,
            lease_expires=None,
            detail=record.detail,
            plies=len(record.moves),
            record=record.to_json(),
            moves="",
            log_first=logs[0][-MAX_LOG:],
            log_second=logs[1][-MAX_LOG:],
            finished=now(),
            **columns,
        )
    )
    if getattr(done, "rowcount", 0) != 1:
        session.rollback()
        raise ResultError(f"game {game_id}: the lease ran out while the result was stored")
    added = tallies.counts_of(
        record.winner,
        columns["irregular"],
        columns["score_first"],
        (columns["points_first"], columns["points_second"]),
    )
    tallies.add(session, game.phase, game.first_account_id, game.second_account_id, added)
    if game.worker is not None:
        session.execute(
            update(Worker)
            .where(Worker.name == game.worker)
            .values(stored=Worker.stored + 1, failing=0)
        )
    session.commit()
    return record
