"""Leases: a game goes to one worker at a time, back to the queue when its lease runs
out, and is stored once, by the holder of its current lease only."""

from __future__ import annotations

import json
import threading
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import update

from arbiter.host import queue
from arbiter.host.config import ContestConfig
from arbiter.host.db import Database
from arbiter.host.models import Game, Setting, now
from arbiter.host.rounds import finish_round_if_done, make_round
from arbiter.record import GameRecord
from tests.host.contests import record_for, seeded


@pytest.fixture
def contest(tmp_path: Path, database_url: str) -> tuple[Database, ContestConfig]:
    db, config = seeded(tmp_path, database_url, ("alice", "bob", "carol"), kind="round-robin")
    with db.session() as s:
        make_round(s, config)
    return db, config


def test_a_game_is_leased_once_and_stored_once(contest: tuple[Database, ContestConfig]) -> None:
    db, config = contest
    with db.session() as s:
        first = queue.lease(s, "w1", 60)
        second = queue.lease(s, "w2", 60)
    assert first and second and first.game_id != second.game_id
    text = record_for(db, first.game_id)
    with db.session() as s:
        queue.finish(s, first.game_id, first.token, text, ("", ""), ("alquerque", config.clock))
        with pytest.raises(queue.ResultError, match="not this worker's"):
            queue.finish(s, first.game_id, first.token, text, ("", ""), ("alquerque", config.clock))


def test_each_seat_s_log_is_stored_as_its_last_256_kib(
    contest: tuple[Database, ContestConfig],
) -> None:
    """The end of a program's stderr is where it says why it failed: a long log keeps
    its last 256 KiB, a short one all of it, each under its own seat."""
    db, config = contest
    with db.session() as s:
        held = queue.lease(s, "w1", 60)
    assert held
    long = "early " + "x" * (256 * 1024) + " the end"
    with db.session() as s:
        queue.finish(
            s,
            held.game_id,
            held.token,
            record_for(db, held.game_id),
            (long, "second's words"),
            ("alquerque", config.clock),
        )
    with db.session() as s:
        game = s.get(Game, held.game_id)
        assert game is not None
        assert game.log_first == long[-256 * 1024 :] and game.log_first.endswith(" the end")
        assert game.log_second == "second's words"


def test_a_lost_lease_puts_the_game_back_and_the_late_result_is_refused(
    contest: tuple[Database, ContestConfig],
) -> None:
    db, config = contest
    with db.session() as s:
        lost = queue.lease(s, "dead", 60)
        assert lost is not None
        s.execute(
            update(Game)
            .where(Game.id == lost.game_id)
            .values(lease_expires=now() - timedelta(seconds=1))
        )
        s.commit()
        again = queue.lease(s, "alive", 60)
    assert again is not None and again.game_id == lost.game_id and again.token != lost.token
    text = record_for(db, lost.game_id)
    with db.session() as s:
        with pytest.raises(queue.ResultError):
            queue.finish(s, lost.game_id, lost.token, text, ("", ""), ("alquerque", config.clock))
        assert not queue.renew(s, lost.game_id, lost.token, 60)
        queue.finish(s, again.game_id, again.token, text, ("", ""), ("alquerque", config.clock))
        game = s.get(Game, lost.game_id)
        assert game is not None and game.state == "done" and game.attempts == 2


def test_a_server_away_longer_than_a_lease_keeps_it_for_its_worker(
    contest: tuple[Database, ContestConfig],
) -> None:
    db, config = contest
    with db.session() as s:
        held = queue.lease(s, "remote", 10)
        assert held is not None
        # the server last noted it was running 100 s ago, with 5 s of this lease left
        gone = now() - timedelta(seconds=100)
        s.merge(Setting(key=queue.ALIVE, value=gone.isoformat()))
        s.execute(
            update(Game)
            .where(Game.id == held.game_id)
            .values(lease_expires=gone + timedelta(seconds=5))
        )
        s.commit()
        away = queue.extend_leases(s, 10)  # the server starting again
        assert away >= timedelta(seconds=100)
        assert queue.lease(s, "other", 10) is not None  # the other game; not this one
        text = record_for(db, held.game_id)
        queue.finish(s, held.game_id, held.token, text, ("", ""), ("alquerque", config.clock))
        game = s.get(Game, held.game_id)
        assert game is not None and (game.state, game.attempts) == ("done", 1)


def test_a_running_server_s_stamp_moves_on_with_every_beat(
    contest: tuple[Database, ContestConfig],
) -> None:
    """The stamp is the last time the server was running, not the first: a restart
    soon after finds it barely away and extends no lease by hours."""
    db, _ = contest
    with db.session() as s:
        s.merge(Setting(key=queue.ALIVE, value=(now() - timedelta(hours=3)).isoformat()))
        s.commit()
        before = now()
        queue.stamp_alive(s)
        s.expire_all()
        found = s.get(Setting, queue.ALIVE)
        assert found is not None and datetime.fromisoformat(found.value) >= before


def test_a_record_of_another_game_or_one_that_does_not_verify_is_refused(
    contest: tuple[Database, ContestConfig],
) -> None:
    db, config = contest
    with db.session() as s:
        a = queue.lease(s, "w1", 60)
        b = queue.lease(s, "w2", 60)
    assert a and b
    mine = GameRecord.from_json(record_for(db, a.game_id))
    swapped = replace(mine, players=mine.players[::-1]).to_json()
    other = record_for(db, b.game_id)
    with db.session() as s:
        with pytest.raises(queue.ResultError, match="another game"):
            queue.finish(s, a.game_id, a.token, swapped, ("", ""), ("alquerque", config.clock))
        with pytest.raises(queue.ResultError, match="another game or clock"):
            queue.finish(s, a.game_id, a.token, mine.to_json(), ("", ""), ("alquerque", "1"))
        bad = other.replace('"moves":["', '"moves":["a1-a2","')
        with pytest.raises(queue.ResultError, match="does not verify"):
            queue.finish(s, b.game_id, b.token, bad, ("", ""), ("alquerque", config.clock))
        reseeded = replace(mine, seed=mine.seed + 1).to_json()  # verifies: seeds are not rules
        with pytest.raises(queue.ResultError, match="seed"):
            queue.finish(s, a.game_id, a.token, reseeded, ("", ""), ("alquerque", config.clock))
    # a game from another start: it verifies, and it is not the game leased
    elsewhere = record_for(
        db, a.game_id, start="w....../......./......./......./......./bbb..../ww..... w"
    )
    with db.session() as s, pytest.raises(queue.ResultError, match="another game"):
        queue.finish(s, a.game_id, a.token, elsewhere, ("", ""), ("alquerque", config.clock))
    short = record_for(db, a.game_id, max_plies=2)  # a two-ply draw, and it verifies
    assert GameRecord.from_json(short).reason == "move limit"
    with db.session() as s:
        with pytest.raises(queue.ResultError, match="changes the rules"):
            queue.finish(s, a.game_id, a.token, short, ("", ""), ("alquerque", config.clock))
        queue.finish(s, a.game_id, a.token, mine.to_json(), ("", ""), ("alquerque", config.clock))


def test_workers_asking_at_once_never_share_a_game(contest: tuple[Database, ContestConfig]) -> None:
    db, _ = contest
    got: list[int] = []
    lock = threading.Lock()

    def ask(name: str) -> None:
        for n in range(100):  # a worker holds one game: each ask is another worker's
            with db.session() as s:
                lease = queue.lease(s, f"{name}-{n}", 60)
            if lease is None:
                return
            with lock:
                got.append(lease.game_id)

    threads = [threading.Thread(target=ask, args=(f"w{i}",)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with db.session() as s:
        total = s.query(Game).count()
    assert sorted(got) == sorted(set(got)) and len(got) == total == 6


def test_a_worker_asking_again_has_lost_the_game_it_held(
    contest: tuple[Database, ContestConfig],
) -> None:
    db, config = contest
    with db.session() as s:
        lost = queue.lease(s, "w", 60)
        again = queue.lease(s, "w", 60)  # the answer to its first ask never reached it
        # the same game again (the first waiting), under a new lease: the old is dead
        assert lost and again and again.game_id == lost.game_id and again.token != lost.token
        assert not queue.renew(s, lost.game_id, lost.token, 60)
        assert queue.renew(s, again.game_id, again.token, 60)
    text = record_for(db, lost.game_id)
    with db.session() as s, pytest.raises(queue.ResultError, match="not this worker's"):
        queue.finish(s, lost.game_id, lost.token, text, ("", ""), ("alquerque", config.clock))


def test_a_game_is_given_back_by_its_lease_holder_only(
    contest: tuple[Database, ContestConfig],
) -> None:
    """A worker stopping gives its game back to the queue; a stale or wrong lease
    gives nothing back, says so, and leaves the holder playing."""
    db, _ = contest
    with db.session() as s:
        held = queue.lease(s, "w1", 60)
        assert held
        assert not queue.release(s, held.game_id, "0" * 32)
        game = s.get(Game, held.game_id)
        assert game and game.state == "leased" and game.worker == "w1"
        assert queue.release(s, held.game_id, held.token)
        s.refresh(game)
        assert game.state == "queued" and game.lease is None and game.worker is None
        assert not queue.release(s, held.game_id, held.token)  # given back once
        again = queue.lease(s, "w2", 60)
        assert again and again.game_id == held.game_id


def test_a_job_says_what_its_worker_needs_and_names_its_round_by_number(
    contest: tuple[Database, ContestConfig],
) -> None:
    """A worker plays and logs a game from its job alone: the round as the pages number
    it (an evaluation's rounds are numbered below zero, whatever their rows), the
    seed, the start and each seat's program, name and language."""
    db, _ = contest
    with db.session() as s:
        held = queue.lease(s, "w1", 60)
        assert held is not None
        game = s.get(Game, held.game_id)
        assert game is not None
        game.round.number = -3
        s.commit()
        sent = queue.job(s, held.game_id, {"game": "alquerque"})
        assert (sent["id"], sent["round"], sent["number"]) == (game.id, -3, game.number)
        assert (sent["seed"], sent["start"], sent["game"]) == (game.seed, game.start, "alquerque")
        for seat, version in zip(sent["players"], (game.first, game.second), strict=True):
            assert seat == {
                "version": version.id,
                "program": version.program_sha256,
                "size": version.program_size,
                "name": f"{version.account.name} v{version.number}",
                "language": version.language,
            }
        with pytest.raises(queue.ResultError, match="no game 999"):
            queue.job(s, 999, {})


def test_a_paused_contest_hands_out_no_game_and_a_round_ends_with_its_last_game(
    contest: tuple[Database, ContestConfig],
) -> None:
    db, config = contest
    with db.session() as s:
        s.add(Setting(key="paused", value="1"))
        s.commit()
        assert queue.lease(s, "w", 60) is None
        s.delete(s.get(Setting, "paused"))
        s.commit()
        leases = [queue.lease(s, f"w{i}", 60) for i in range(6)]
    for lease in leases:
        assert lease is not None
        text = record_for(db, lease.game_id)
        with db.session() as s:
            assert not finish_round_if_done(s, 1)
            queue.finish(s, lease.game_id, lease.token, text, ("", ""), ("alquerque", config.clock))
    with db.session() as s:
        assert finish_round_if_done(s, 1)


def test_a_games_moves_are_streamed_under_its_lease_only_and_in_order(
    contest: tuple[Database, ContestConfig],
) -> None:
    db, _ = contest
    with db.session() as s:
        lease = queue.lease(s, "w", 60)
        assert lease is not None
        gid, token = lease.game_id, lease.token
        assert not queue.stream_moves(s, gid, "not-the-lease", 0, [("c3-d4", 0.1)])
        assert s.get(Game, gid).moves == ""  # type: ignore[union-attr]
        assert queue.stream_moves(s, gid, token, 0, [("c3-d4", 0.1), ("e5*c3", 0.2)])
        # a send again from an earlier move keeps what is held and adds the rest
        assert queue.stream_moves(s, gid, token, 1, [("e5*c3", 0.2), ("b2*d4", 0.3)])
        assert queue.stream_moves(s, gid, token, 9, [("g7-f6", 0.1)])  # a gap: ignored
        held = json.loads(s.get(Game, gid).moves)  # type: ignore[union-attr]
        assert [m[0] for m in held] == ["c3-d4", "e5*c3", "b2*d4"]
        # asked again, the worker lost the game: the next lease starts from nothing
        again = queue.lease(s, "w", 60)
        assert again is not None and again.game_id == gid
        assert s.get(Game, gid).moves == ""  # type: ignore[union-attr]
        assert not queue.stream_moves(s, gid, token, 3, [("a1-a2", 0.1)])
