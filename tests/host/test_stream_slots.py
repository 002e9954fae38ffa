"""The live streams' bound per address holds over every server process of a contest:
two processes' slots over one database count together, a stream given back frees
its slot, and the streams of a process that stopped renewing them (killed) stop
counting and are deleted."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from sqlalchemy import func, select, update

from arbiter.host import stream_slots
from arbiter.host.db import Database
from arbiter.host.models import LiveStream, now
from arbiter.host.stream_slots import STALE, StreamSlots


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = Database(database_url)
    yield database
    database.close()


def rows(db: Database) -> int:
    with db.session() as s:
        return s.scalar(select(func.count(LiveStream.id))) or 0


def test_two_processes_count_an_address_s_streams_together(db: Database) -> None:
    one, other = StreamSlots(db.session, "one", 3), StreamSlots(db.session, "other", 3)
    taken = [one.take("10.0.0.1"), other.take("10.0.0.1"), one.take("10.0.0.1")]
    assert None not in taken
    assert other.take("10.0.0.1") is None and one.take("10.0.0.1") is None
    assert other.take("10.0.0.2") is not None  # another address has its own bound
    first = taken[0]
    assert first is not None
    one.give_back(first)
    assert other.take("10.0.0.1") is not None  # a slot given back is free to either


def test_slots_taken_at_once_never_pass_the_bound(db: Database) -> None:
    slots = [StreamSlots(db.session, f"p{i}", 4) for i in range(3)]
    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(lambda i: slots[i % 3].take("10.0.0.3"), range(24)))
    assert sum(g is not None for g in got) == 4


def test_a_killed_process_s_streams_stop_counting_and_are_deleted(db: Database) -> None:
    killed, alive = StreamSlots(db.session, "killed", 2), StreamSlots(db.session, "alive", 2)
    assert killed.take("10.0.0.4") is not None and killed.take("10.0.0.4") is not None
    assert alive.take("10.0.0.4") is None
    alive.renew()  # renewing one's own rows leaves another live process's alone
    assert rows(db) == 2
    with db.session() as s:  # "killed" stops renewing: its rows age past STALE
        past = now() - timedelta(seconds=STALE + 5)
        s.execute(update(LiveStream).where(LiveStream.process == "killed").values(seen=past))
        s.commit()
    assert alive.take("10.0.0.4") is not None  # stale rows no longer count
    alive.renew()
    assert rows(db) == 1  # and are deleted by a live process's renewal


def test_a_stream_renewed_exactly_stale_seconds_ago_still_counts_and_is_kept(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    moment = now()
    monkeypatch.setattr(stream_slots, "now", lambda: moment)
    quiet, alive = StreamSlots(db.session, "quiet", 1), StreamSlots(db.session, "alive", 1)
    assert quiet.take("10.0.0.7") is not None
    with db.session() as s:
        then = moment - timedelta(seconds=STALE)
        s.execute(update(LiveStream).values(seen=then))
        s.commit()
    alive.renew()
    assert rows(db) == 1 and alive.take("10.0.0.7") is None  # kept, and counted
    moment += timedelta(seconds=1)
    alive.renew()
    assert rows(db) == 0  # a second later: gone


def test_a_stopping_process_frees_every_slot_of_its_own(db: Database) -> None:
    one, other = StreamSlots(db.session, "one", 8), StreamSlots(db.session, "other", 8)
    for address in ("10.0.0.5", "10.0.0.6"):
        assert one.take(address) is not None
    assert other.take("10.0.0.5") is not None
    one.close()
    assert rows(db) == 1


def test_an_address_longer_than_its_column_is_counted_by_its_first_characters(
    db: Database,
) -> None:
    # an address as long as a client may make it (a forwarded header through a proxy
    # the server believes) is stored and counted, never refused by the database
    slots = StreamSlots(db.session, "one", 2)
    long, other = "2001:db8::" + "a" * 200, "2001:db8::" + "a" * 53 + "b"
    assert slots.take(long) is not None and slots.take(long + "x") is not None
    assert slots.take(long) is None  # the same first 64 characters: the same address
    assert slots.take(other) is not None  # another in its first 64
