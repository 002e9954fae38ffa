"""Contests set up straight in the database, for the storage tests: entrants with
accepted versions, and games played as a worker would play them (random agents, the
records stored under their leases)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from arbiter.agents.random import RandomAgent
from arbiter.errors import Reason
from arbiter.games import find_game
from arbiter.host import accounts, queue, tallies
from arbiter.host.config import ContestConfig, from_dict
from arbiter.host.db import Database
from arbiter.host.models import Account, Game, Round, Version
from arbiter.host.settle import version_name
from arbiter.host.signing import ContestKey
from arbiter.record import GameRecord
from arbiter.referee.match import play_game
from arbiter.referee.seat import LocalSeat


def version(account_id: int, number: int, state: str = "accepted") -> Version:
    """A version row of an account (a C upload; its files are never read here)."""
    return Version(
        account_id=account_id,
        number=number,
        language="c",
        filename="main.c",
        size=1,
        sha256=f"{number:064d}",
        state=state,
    )


def seeded(
    tmp_path: Path, url: str, names: tuple[str, ...], kind: str = "swiss"
) -> tuple[Database, ContestConfig]:
    """An Alquerque contest (two Swiss rounds) on ``url`` whose entrants ``names``
    each have one accepted version."""
    config = from_dict(
        {"game": "alquerque", "format": {"kind": kind, "rounds": 2}, "database": url},
        base=tmp_path,
        stem="cup",
        where="cup.toml",
    )
    db = Database(config.database)
    with db.session() as s:
        for name in names:
            s.add(version(accounts.create(s, name, "a long enough password").id, 1))
        s.commit()
    return db, config


def record_for(db: Database, game_id: int, start: str | None = None, **options: Any) -> str:
    """A real game between random agents, as a worker would send it (from ``start``
    or with rule ``options``, as a worker forging another game would)."""
    with db.session() as s:
        g = s.get(Game, game_id)
        assert g is not None
        names = (version_name(g.first), version_name(g.second))
        spec = find_game("alquerque")
        game = spec.make()
        seats = [
            LocalSeat(RandomAgent(), game, spec.contest, seed=i, name=n)
            for i, n in enumerate(names)
        ]
        record: GameRecord = asyncio.run(
            play_game(
                spec,
                spec.make(options),
                seats,
                spec.time_control,
                seed=g.seed,
                options=options,
                start=None if start is None else spec.notation.parse_position(start),
            )
        )
        return record.to_json()


def play_round(db: Database, config: ContestConfig, key: ContestKey | None = None) -> None:
    """Plays every game the queue hands out, as a worker would (the results stored
    signed with ``key``, as the server stores them)."""
    while True:
        with db.session() as s:
            lease = queue.lease(s, "w", 60)
        if lease is None:
            return
        text = record_for(db, lease.game_id)
        with db.session() as s:
            contest = ("alquerque", config.clock)
            queue.finish(s, lease.game_id, lease.token, text, ("", ""), contest, key)


def stored_game(
    s: Session,
    rnd: Round,
    number: int,
    entrants: tuple[str, str],
    winner: int | None,
    reason: Reason,
    score: tuple[float, float],
) -> Game:
    """A game of ``rnd`` between the newest versions of ``entrants``, stored with a
    record of no moves and the given result as the server stores one: its columns
    and its pair's tally (not committed)."""
    versions = [
        s.scalar(
            select(Version)
            .join(Account, Account.id == Version.account_id)
            .where(Account.name == name)
            .order_by(Version.number.desc())
            .limit(1)
        )
        for name in entrants
    ]
    first, second = versions
    assert first is not None and second is not None
    record = GameRecord(
        "alquerque",
        (version_name(first), version_name(second)),
        (),
        (),
        winner,
        reason,
        round=rnd.number,
        score=score,
    )
    game = Game(
        round_id=rnd.id,
        number=number,
        pair=number,
        first_id=first.id,
        second_id=second.id,
        seed=number,
        state="done",
        phase=rnd.phase or "test",
        round_number=rnd.number,
        first_account_id=first.account_id,
        second_account_id=second.account_id,
        record=record.to_json(),
        **tallies.result_columns(winner, str(reason), score),
    )
    s.add(game)
    s.flush()
    tallies.count(s, game)
    rnd.size = max(rnd.size or 0, number)
    return game
