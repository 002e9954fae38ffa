"""How the server processes of one contest agree: one leads at a time and another
takes the lead once it is gone; a notice sent by one is heard by every process; a
step taken under ``exclusive`` is taken by one at a time; a SQLite contest is
served by one process."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from arbiter.errors import ConfigError
from arbiter.host.coordination import (
    CHANGED,
    STANDINGS,
    Leadership,
    Notices,
    exclusive,
    hold_sqlite,
)
from arbiter.host.db import Database
from arbiter.host.models import ExportJob
from arbiter.host.service import Service
from tests.host.contests import seeded


def test_one_process_leads_and_another_takes_the_lead_when_it_is_gone(postgres: str) -> None:
    engines = [create_engine(postgres) for _ in range(2)]
    one, other = (Leadership(e) for e in engines)
    assert one.lead() and one.leading
    assert not other.lead() and not other.leading
    assert one.lead()  # still leading at its next look
    one.resign()
    assert other.lead() and not one.lead()


def test_the_leaders_lock_is_held_outside_any_transaction(postgres: str) -> None:
    # a transaction left open would be ended by the server's
    # idle_in_transaction_session_timeout, and the lead with it
    one = Leadership(create_engine(postgres))
    assert one.lead() and one.lead()
    engine = create_engine(postgres)
    try:
        with engine.connect() as c:
            states = c.execute(
                text(
                    "SELECT a.state FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
                    "WHERE l.locktype = 'advisory' AND l.granted AND l.database = "
                    "(SELECT oid FROM pg_database WHERE datname = current_database())"
                )
            ).scalars()
            assert list(states) == ["idle"]
    finally:
        one.resign()
        engine.dispose()


def test_the_lead_of_a_killed_process_is_free_at_once(postgres: str) -> None:
    """A process killed with SIGKILL says nothing: its connection closes, and the
    lock with it."""
    script = (
        "import sys, time\n"
        "from sqlalchemy import create_engine\n"
        "from arbiter.host.coordination import Leadership\n"
        "held = Leadership(create_engine(sys.argv[1]))\n"
        "assert held.lead()\n"
        "print('leading', flush=True)\n"
        "time.sleep(600)\n"
    )
    leader = subprocess.Popen(
        [sys.executable, "-c", script, postgres], stdout=subprocess.PIPE, text=True
    )
    try:
        assert leader.stdout is not None and leader.stdout.readline() == "leading\n"
        waiting = Leadership(create_engine(postgres))
        assert not waiting.lead()
        leader.kill()
        leader.wait(10)
        deadline = time.monotonic() + 10
        while not waiting.lead():
            assert time.monotonic() < deadline, "the killed leader's lock was never freed"
            time.sleep(0.1)
    finally:
        leader.kill()
        leader.wait(10)


def test_a_notice_is_heard_by_every_process(postgres: str) -> None:
    heard: list[queue.Queue[tuple[str, str]]] = [queue.Queue(), queue.Queue()]
    listeners = [Notices(create_engine(postgres)) for _ in range(2)]
    try:
        for listener, box in zip(listeners, heard, strict=True):
            listener.listen(lambda channel, payload, box=box: box.put((channel, payload)))
        time.sleep(0.5)  # both listening
        for box in heard:  # each looks once when it connects
            while not box.empty():
                box.get()
        Notices(create_engine(postgres)).send(CHANGED, "7")
        for box in heard:
            assert box.get(timeout=5) == (CHANGED, "7")
    finally:
        for listener in listeners:
            listener.close()


def test_a_notice_on_sqlite_goes_to_its_own_process(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'cup.db'}")
    notices = Notices(db.engine)
    heard: list[tuple[str, str]] = []
    notices.listen(lambda channel, payload: heard.append((channel, payload)))
    notices.send(CHANGED, "1")
    assert heard == [(CHANGED, "1")]
    assert Leadership(db.engine).lead()  # the one process leads


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_an_exclusive_step_is_taken_by_one_at_a_time(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = request.getfixturevalue("postgres") if kind == "postgresql" else None
    db = Database(url or f"sqlite:///{tmp_path / 'cup.db'}")
    inside = 0
    most = 0
    guard = threading.Lock()

    def step() -> None:
        nonlocal inside, most
        with db.session() as session, exclusive(session, "rounds"):
            with guard:
                inside += 1
                most = max(most, inside)
            time.sleep(0.05)
            with guard:
                inside -= 1
            session.commit()

    threads = [threading.Thread(target=step) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert most == 1
    db.close()


def test_a_second_process_serving_a_sqlite_contest_is_refused(tmp_path: Path) -> None:
    database = tmp_path / "cup.db"
    held = hold_sqlite(database)
    try:
        with pytest.raises(ConfigError) as refused:
            hold_sqlite(database)
        assert "another arbiter host process serves" in str(refused.value)
        assert "use PostgreSQL for several" in str(refused.value)
    finally:
        held.close()
    hold_sqlite(database).close()  # free again once the first has stopped


class _Now:
    """An event loop stand-in that runs what a listener's thread hands it at once."""

    def call_soon_threadsafe(self, callback: Any, *args: Any) -> None:
        callback(*args)


def _service(tmp_path: Path, leading: bool) -> Service:
    db, config = seeded(tmp_path, f"sqlite:///{tmp_path / 'cup.db'}", ("alice",))
    service = Service(config, tmp_path / "cup.toml", db)
    service.loop = _Now()  # type: ignore[assignment]
    service.leadership = SimpleNamespace(leading=leading)  # type: ignore[assignment]
    return service


@pytest.mark.parametrize("leading", [True, False])
def test_a_process_acts_on_the_notices_of_its_part_only(tmp_path: Path, leading: bool) -> None:
    # the leader computes the standings again on a stored result, never on its own
    # published standings (it would publish, hear itself and compute again forever);
    # a follower reads what was published, and leaves computing to the leader
    service = _service(tmp_path, leading)
    service._heard(STANDINGS, "7")
    assert service._stale.is_set() is False
    assert service._published.is_set() is (not leading)
    service._published.clear()
    service._heard(CHANGED, "")
    assert service._stale.is_set() is leading and service._published.is_set() is False
    service._stale.clear()
    service._heard("", "")  # the listener reconnected: whatever was missed, each its part
    assert service._stale.is_set() is leading and service._published.is_set() is (not leading)


def test_the_new_leader_finishes_the_exports_left_running_and_only_those(tmp_path: Path) -> None:
    service = _service(tmp_path, True)
    with service.db.session() as s:
        running, done, failed = ExportJob(), ExportJob(state="done"), ExportJob(state="failed")
        s.add_all([running, done, failed])
        s.commit()
        wanted = running.id
    _, exports = service._take_up()
    assert exports == [wanted]


def test_a_server_process_s_name_is_its_own_even_where_its_id_comes_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A process id is used again (a container restarted starts from the same one): a
    name that were only the machine and the id would be an earlier process's, whose
    row says it leads. Two names made with the same machine and id differ; each fits
    its column (64 characters), the longest machine name cut."""
    from arbiter.host import service

    monkeypatch.setattr(service.socket, "gethostname", lambda: "m" * 80)
    monkeypatch.setattr(service.os, "getpid", lambda: 4194304)
    names = {service.process_name() for _ in range(20)}
    assert len(names) == 20
    assert all(n.startswith("m" * 40 + "-4194304-") and len(n) <= 64 for n in names)


def test_a_leader_that_loses_the_lead_lets_its_work_go_and_one_that_cannot_take_it_up_resigns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The lead lost (the database connection holding it broke): the leader's own work
    (its standings, schedule, local workers) is stopped, so two processes never do it
    at once, and it is said. A lead won whose taking up fails (the database away) is
    resigned at once and taken up again at the next poll."""
    import asyncio

    from sqlalchemy.exc import OperationalError

    from arbiter.host import service as service_module

    monkeypatch.setattr(service_module, "LEAD_POLL", 0.01)
    service = _service(tmp_path, True)
    answers = iter([True, True, False])  # then never again
    resigned: list[bool] = []
    service.leadership = SimpleNamespace(  # type: ignore[assignment]
        lead=lambda: next(answers, False), shared=True, resign=lambda: resigned.append(True)
    )
    takes = iter([OperationalError("SELECT", {}, Exception("the database is away")), ([], [])])

    def take_up() -> tuple[list[int], list[int]]:
        taken = next(takes)
        if isinstance(taken, Exception):
            raise taken
        return taken

    leader_work: list[asyncio.Task[None]] = []
    ended: list[bool] = []

    def lead(versions: list[int], exports: list[int]) -> None:
        service._spawn_leading(asyncio.sleep(3600))
        leader_work.extend(service._leader_tasks)

    async def end_workers() -> None:
        ended.append(True)

    monkeypatch.setattr(service, "_take_up", take_up)
    monkeypatch.setattr(service, "_lead", lead)
    monkeypatch.setattr(service, "_end_workers", end_workers)

    async def run() -> bool:
        keeping = asyncio.create_task(service._keep_leading())
        for _ in range(500):
            await asyncio.sleep(0.01)
            if leader_work and leader_work[0].done() and ended:
                break
        let_go = leader_work[0].cancelled()  # before the loop's end cancels what is left
        service._stopping = True
        await keeping
        return let_go

    assert asyncio.run(run())  # the second lead's work, let go
    assert resigned == [True]  # the first lead, whose taking up failed
    assert len(leader_work) == 1
    assert ended == [True]
    said = capsys.readouterr()
    assert "could not take up the lead: " in said.err and "the database is away" in said.err
    assert f"{service.process} lost the lead" in said.err
    assert said.out.count(f"{service.process} leads the contest's work") == 2


def test_an_export_whose_process_dies_is_failed_only_while_it_runs(tmp_path: Path) -> None:
    """An export's process that ends in an error marks its job failed, with the
    process's last words; a job its process had finished already keeps its state."""
    import asyncio

    service = _service(tmp_path, True)
    service.config_path = tmp_path / "no-such-contest.toml"  # its process cannot start
    with service.db.session() as s:
        running, done = ExportJob(), ExportJob(state="done", done=4, total=4)
        s.add_all([running, done])
        s.commit()
        ids = running.id, done.id
    for job_id in ids:
        asyncio.run(service._export(job_id))
    with service.db.session() as s:
        failed, kept = (s.get(ExportJob, i) for i in ids)
        assert failed is not None and kept is not None
        assert failed.state == "failed" and "no-such-contest.toml" in failed.detail
        assert (kept.state, kept.detail, kept.done) == ("done", "", 4)
