"""Worker tokens: known by their hash only, naming their contest, one live process
each, revoked by the organiser (its games back in the queue at once)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from arbiter.host import queue, workers
from arbiter.host.config import ContestConfig
from arbiter.host.db import Database
from arbiter.host.models import Account, Game, Worker, now
from arbiter.host.rounds import make_round
from tests.host.contests import seeded


@pytest.fixture
def contest(tmp_path: Path, database_url: str) -> tuple[Database, ContestConfig]:
    db, config = seeded(tmp_path, database_url, ("alice", "bob"), kind="round-robin")
    with db.session() as s:
        make_round(s, config)
    return db, config


def test_a_token_names_its_contest_and_is_kept_only_as_a_hash(
    contest: tuple[Database, ContestConfig],
) -> None:
    db, _ = contest
    with db.session() as s:
        token = workers.new_worker(s, "lab-7")
        s.commit()
        assert token.split(".", 1)[0] == workers.contest_id(s)
        worker = workers.claim(s, token, "p1", 60)
        assert worker.name == "lab-7" and token not in worker.token_hash
        for wrong in ("", token + "x", token.split(".", 1)[1]):
            with pytest.raises(workers.TokenRefused, match="unknown") as refused:
                workers.claim(s, wrong, "p1", 60)
            assert refused.value.status == 401
        with pytest.raises(workers.TokenRefused, match="X-Worker-Instance"):
            workers.claim(s, token, "", 60)
        fresh = workers.new_worker(s, "lab-7")  # a new token replaces the old one
        with pytest.raises(workers.TokenRefused, match="unknown"):
            workers.claim(s, token, "p1", 60)
        assert workers.claim(s, fresh, "p1", 60).name == "lab-7"
        assert s.query(Account).count() == 2  # no account was made for it


def test_one_live_process_per_token(contest: tuple[Database, ContestConfig]) -> None:
    db, _ = contest
    with db.session() as s:
        token = workers.new_worker(s, "lab")
        first = workers.claim(s, token, "p1", 60)
        with pytest.raises(workers.TokenRefused, match="in use") as refused:
            workers.claim(s, token, "p2", 60)
        assert refused.value.status == 409
        workers.claim(s, token, "p1", 60)  # the live one goes on
        # once the first has been quiet past the live time, another may take over
        first.last_seen = now() - timedelta(seconds=workers.live_seconds(60) + 1)
        assert workers.claim(s, token, "p2", 60).instance == "p2"
        # and one that says goodbye frees it at once
        workers.goodbye(s, first, "p2")
        assert workers.claim(s, token, "p3", 60).instance == "p3"


def test_a_revoked_token_opens_nothing_and_its_games_go_back(
    contest: tuple[Database, ContestConfig],
) -> None:
    db, _ = contest
    with db.session() as s:
        token = workers.new_worker(s, "lab")
        s.commit()
        got = queue.lease(s, "lab", 60)
        assert got is not None
        assert workers.revoke(s, "lab") == [got.game_id]
        s.commit()
        with pytest.raises(workers.TokenRefused, match="revoked") as refused:
            workers.claim(s, token, "p1", 60)
        assert refused.value.status == 401
        game = s.get(Game, got.game_id)
        assert game is not None and (game.state, game.lease) == ("queued", None)
        with pytest.raises(Exception, match="no worker"):
            workers.revoke(s, "nobody")
        # a new token for the machine lifts the revocation
        workers.new_worker(s, "lab")
        assert not s.query(Worker).one().revoked
