"""The organiser's operations view (the queue, games in progress with their worker,
each entrant's irregular and failed games, workers' last games) and the gate's
progress as a version's page shows it."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

from sqlalchemy import select

from arbiter.contract import Check
from arbiter.host import queue, settle
from arbiter.host.db import Database
from arbiter.host.intake import GateProgress
from arbiter.host.models import Game, ServerProcess, Version, now
from arbiter.host.operations import operations, servers
from arbiter.host.rounds import make_round
from arbiter.play.checkagent import Result
from tests.host.contests import play_round, seeded


def test_the_operations_view_shows_the_queue_the_games_under_way_and_the_trouble(
    tmp_path: Path, database_url: str
) -> None:
    db, config = seeded(tmp_path, database_url, ("alice", "bob", "carol"), kind="round-robin")
    with db.session() as s:
        make_round(s, config)  # three pairings, six games
        lease = queue.lease(s, "lab-7", 60)
        assert lease is not None
        queue.stream_moves(s, lease.game_id, lease.token, 0, [("c3-d4", 0.1)])
        g = s.scalars(select(Game).where(Game.state == "queued")).first()
        assert g is not None
        loser = g.first.account.name
        settle.forfeit(s, config, g, 0, "its program could not be fetched")
        s.commit()
        view = operations(s)
        assert view.queue == {"queued": 4, "leased": 1, "done": 1, "void": 0}
        (playing,) = view.playing
        assert (playing.game, playing.worker, playing.plies) == (lease.game_id, "lab-7", 1)
        trouble = {t.name: t for t in view.trouble}
        assert trouble[loser].irregular == {"forfeit": 1}
        queue.release(s, lease.game_id, lease.token)
    play_round(db, config)
    with db.session() as s:
        view = operations(s, ["w"])
        assert view.queue["done"] == 6 and not view.playing
        assert len(view.last_games["w"]) == 5  # a worker's last five games, newest first
        assert view.last_games["w"] == sorted(view.last_games["w"], reverse=True)


def test_the_gate_shows_each_check_as_it_starts_and_ends(tmp_path: Path, database_url: str) -> None:
    db, _ = seeded(tmp_path, database_url, ("alice",))
    with db.session() as s:
        version = s.scalars(select(Version)).one()
        shown = GateProgress(s, version, 3)
        first = Check("first seat", "a whole game moving first", 0)
        shown.started(first)
        with db.session() as other:  # committed: the page reloading itself sees it
            assert other.get(Version, version.id).reason == "check 1 of 3: first seat"  # type: ignore[union-attr]
        shown.finished(Result(first, True, "won"))
        shown.started(Check("second seat", "a whole game moving second", 1))
        with db.session() as other:
            seen = other.get(Version, version.id)
            assert seen is not None and seen.reason == "check 2 of 3: second seat"
            assert [c["name"] for c in json.loads(seen.checks)] == ["first seat"]


def test_server_processes_are_alive_for_30_s_of_silence_and_shown_for_an_hour(
    database_url: str,
) -> None:
    """A process stamps itself every 5 s: silent up to 30 s it is alive (and leads if it
    says so), longer it is gone (and leads nothing), after an hour it leaves the page."""
    db = Database(database_url)
    moment = now()
    ages = {"a-lead": 0, "b-quiet": 29, "c-gone-lead": 31, "d-gone": 59 * 60, "e-old": 61 * 60}
    with db.session() as s:
        for i, (name, age) in enumerate(ages.items()):
            seen = moment - timedelta(seconds=age)
            started = moment - timedelta(hours=2) + timedelta(seconds=i)
            s.add(ServerProcess(name=name, started=started, seen=seen, leads="lead" in name))
        s.commit()
        shown = {p.name: (p.alive, p.leads) for p in servers(s)}
    db.close()
    assert list(shown) == ["a-lead", "b-quiet", "c-gone-lead", "d-gone"]  # first started first
    assert shown == {
        "a-lead": (True, True),
        "b-quiet": (True, False),
        "c-gone-lead": (False, False),
        "d-gone": (False, False),
    }
