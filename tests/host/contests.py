"""Contests set up straight in the database, for the storage tests: entrants with
accepted versions, and games played as a worker would play them (random agents, the
records stored under their leases)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from arbiter.agents.random import RandomAgent
from arbiter.games import find_game
from arbiter.host import accounts, queue
from arbiter.host.config import ContestConfig, from_dict
from arbiter.host.db import Database
from arbiter.host.models import Game, Version
from arbiter.host.settle import version_name
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


def play_round(db: Database, config: ContestConfig) -> None:
    """Plays every game the queue hands out, as a worker would."""
    while True:
        with db.session() as s:
            lease = queue.lease(s, "w", 60)
        if lease is None:
            return
        text = record_for(db, lease.game_id)
        with db.session() as s:
            queue.finish(s, lease.game_id, lease.token, text, ("", ""), ("alquerque", config.clock))
