"""The running contest server's own work besides answering requests: each upload's
build and gate (in a process of its own, a few at a time), the local workers
(restarted if one dies), and the standings: after a change (a result stored, a round
made, a version accepted) they are computed again away from the requests, at most
once every :data:`REFIT_EVERY` seconds while results stream in, with the ratings
after every round that finished, and then pushed to every open standings page. A
local worker gets a new token each time it starts (ending any older process's) and
dies with its server.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import signal
import socket
import sys
from collections.abc import Coroutine
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import SQLAlchemyError

from arbiter.host import queue
from arbiter.host.config import ContestConfig
from arbiter.host.coordination import (
    CHANGED,
    LEAD_POLL,
    STANDINGS,
    Leadership,
    Notices,
    exclusive,
)
from arbiter.host.db import Database, insert_of
from arbiter.host.intake import pending, tidy_builds
from arbiter.host.models import ExportJob, Published, ServerProcess, now
from arbiter.host.ratings import rate_finished_rounds
from arbiter.host.rounds import RoundError, make_round, schedule_due
from arbiter.host.signing import ContestKey
from arbiter.host.standings import Board
from arbiter.host.stream_slots import STREAMS_PER_CLIENT, StreamSlots
from arbiter.host.workers import contest_id, new_worker
from arbiter.referee.sandbox import die_with_parent

RESTART_AFTER = 2.0
"""Seconds before a local worker that died is started again."""

SCHEDULE_POLL = 20.0
"""Seconds between two looks at the schedule (``[schedule] every``)."""

REFIT_EVERY = 1.0
"""The fewest seconds between two computations of the standings: a change after a
quiet spell is shown at once, and a round's burst of results costs one table a
second, not one a result."""


def process_name() -> str:
    """A name for this server process, unique among the contest's: its machine, its
    process id and a few random characters (a process id is used again)."""
    return f"{socket.gethostname()[:40]}-{os.getpid()}-{secrets.token_hex(3)}"


class News:
    """A counter pages wait on: raised each time new standings are out. :attr:`next`
    is a future of the next piece of news, so a stream waits on it (and on its page
    leaving) with no task and no lock of its own."""

    def __init__(self) -> None:
        self.number = 0
        self._next: asyncio.Future[None] | None = None
        self._closing: asyncio.Future[None] | None = None

    @property
    def closing(self) -> asyncio.Future[None]:
        """Done once the server is stopping: every stream ends, and its page opens
        another (to another process behind the proxy)."""
        if self._closing is None:
            self._closing = asyncio.get_running_loop().create_future()
        return self._closing

    def close(self) -> None:
        """Ends every stream (in the server's event loop)."""
        if not self.closing.done():
            self.closing.set_result(None)

    @property
    def next(self) -> asyncio.Future[None]:
        """Done when the next piece of news is out (in the server's event loop)."""
        if self._next is None or self._next.done():
            self._next = asyncio.get_running_loop().create_future()
        return self._next

    async def post(self) -> None:
        self.number += 1
        done, self._next = self._next, None
        if done is not None and not done.done():
            done.set_result(None)


class Service:
    """The server's background work for one contest."""

    def __init__(
        self,
        config: ContestConfig,
        config_path: Path,
        db: Database,
        *,
        isolation: str = "auto",
        builds_at_once: int = 2,
    ) -> None:
        self.config = config
        self.config_path = config_path
        self.db = db
        self.isolation = isolation
        self.news = News()
        self.process = process_name()
        """This server process's name among the contest's processes."""
        self.slots = StreamSlots(db.session, self.process, STREAMS_PER_CLIENT)
        self.board = Board(config, db.session)
        self._stale = asyncio.Event()
        self._builds = asyncio.Semaphore(builds_at_once)
        self._tasks: set[asyncio.Task[None]] = set()
        self.workers: dict[str, asyncio.subprocess.Process] = {}
        self._exports: set[asyncio.subprocess.Process] = set()  # written at stop again
        self._stopping = False
        self.loop: asyncio.AbstractEventLoop | None = None
        self.leadership = Leadership(db.engine)
        self.notices = Notices(db.engine)
        self._published = asyncio.Event()  # (a follower) new standings were published
        self._leader_tasks: set[asyncio.Task[None]] = set()
        self._url: str | None = None

    def start(self, url: str | None) -> None:
        """Starts this process's part of the contest's work (against ``url``, the
        server's own address, for the local workers; none without one). Called in the
        server's event loop. Every process renews its streams and hears the news;
        the leader (:mod:`arbiter.host.coordination`) does the rest."""
        self.loop = asyncio.get_running_loop()
        self._url = url
        with self.db.session() as session, exclusive(session, "start"):
            contest_id(session)  # made once, before any request reads it
            session.commit()
        self.notices.listen(self._heard)
        self._spawn(self._keep_alive())
        self._spawn(self._keep_leading())
        self._spawn(self._follow_standings())

    def _take_up(self) -> tuple[list[int], list[int]]:
        """What the process that has just taken the lead reads first (blocking): the
        leases extended by the time nobody led, the builds and exports left
        unfinished (returned), the last leader's standings adopted."""
        with self.db.session() as session:
            # workers played on while the server was away: their leases wait for them
            queue.extend_leases(session, self.config.lease_seconds)
            tidy_builds(session, self.config)
            versions = list(pending(session))
            exports = list(
                session.scalars(select(ExportJob.id).where(ExportJob.state == "running"))
            )
            published = session.get(Published, 1)
            if published is not None:  # its numbers go on from the last leader's
                self.board.adopt(published.number, published.payload)
        return versions, exports

    def _lead(self, versions: list[int], exports: list[int]) -> None:
        """Starts the leader's work (in the event loop): the builds and exports left
        unfinished, the standings, the schedule and the local workers."""
        for version_id in versions:
            self._spawn(self._intake(version_id))
        for job_id in exports:
            self._spawn(self._export(job_id))  # a server stopped while writing it
        self._stale.set()  # the first table, and the ratings of rounds not yet rated
        self._spawn_leading(self._keep_standings())
        if self.config.calendar.every is not None:
            self._spawn_leading(self._keep_schedule())
        if self._url is not None:
            for i in range(1, self.config.local_workers + 1):
                self._spawn_leading(self._keep_worker(f"local-{i}", self._url))

    async def _keep_leading(self) -> None:
        """Takes the lead when it is free, and lets the leader's work go if the lead
        is lost (the database connection that held it broke)."""
        led = False
        while not self._stopping:
            try:
                leading = await asyncio.to_thread(self.leadership.lead)
            except Exception as e:  # pragma: no cover - a driver's surprise
                print(f"arbiter host: could not take the lead: {e}", file=sys.stderr)
                leading = False
            if leading and not led:
                if self.leadership.shared:
                    print(f"arbiter host: {self.process} leads the contest's work", flush=True)
                try:
                    self._lead(*await asyncio.to_thread(self._take_up))
                except SQLAlchemyError as e:
                    print(f"arbiter host: could not take up the lead: {e}", file=sys.stderr)
                    self.leadership.resign()
                    leading = False
            elif led and not leading:
                print(f"arbiter host: {self.process} lost the lead", file=sys.stderr)
                await self._let_go()
            led = leading
            await asyncio.sleep(LEAD_POLL)

    async def _let_go(self) -> None:
        for task in list(self._leader_tasks):
            task.cancel()
        await self._end_workers()

    def _spawn_leading(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coroutine)
        self._leader_tasks.add(task)
        task.add_done_callback(self._leader_tasks.discard)

    def _heard(self, channel: str, payload: str) -> None:
        """A notice from some process (in the listener's thread): the leader computes
        the standings again; the others read the ones published."""
        loop = self.loop
        if loop is None:
            return
        if self.leadership.leading and channel in (CHANGED, ""):
            loop.call_soon_threadsafe(self._stale.set)
        if not self.leadership.leading and channel in (STANDINGS, ""):
            loop.call_soon_threadsafe(self._published.set)

    async def _follow_standings(self) -> None:
        """While another process leads: serves the standings it published, on its
        notice or every few seconds (a notice lost while reconnecting)."""
        while not self._stopping:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._published.wait(), 5.0)
            self._published.clear()
            if self.leadership.leading:
                continue
            try:
                news = await asyncio.to_thread(self._read_published)
            except SQLAlchemyError as e:
                print(f"arbiter host: could not read the standings: {e}", file=sys.stderr)
                continue
            if news:
                await self.news.post()

    def _read_published(self) -> bool:
        """Takes the published standings if they are not the ones served; True if so."""
        with self.db.session() as session:
            published = session.get(Published, 1)
        if published is None or published.number == self.board.number:
            return False
        self.board.adopt(published.number, published.payload)
        return True

    def _publish(self, number: int, payload: str) -> None:
        """Stores the standings just computed for every process and tells them."""
        if not self.leadership.shared:
            return
        with self.db.session() as session:
            insert = insert_of(session)
            values = {"number": number, "payload": payload}
            session.execute(
                insert(Published)
                .values(id=1, **values)
                .on_conflict_do_update(index_elements=["id"], set_=values)
            )
            session.commit()
        self.notices.send(STANDINGS, str(number))

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def stopping(self) -> None:
        """Says the server is stopping (from a signal handler): the live pages are
        told to reconnect at once, while the requests under way are finished."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self.news.close)

    def changed(self) -> None:
        """Says the standings may have changed (from any thread): the leader computes
        them again soon, away from the requests, and every process pushes them to its
        pages."""
        if self.loop is None:
            return
        if self.leadership.leading:  # (the leader does not tell itself twice)
            self.loop.call_soon_threadsafe(self._stale.set)
        elif self.leadership.shared:
            try:
                self.notices.send(CHANGED)
            except SQLAlchemyError as e:  # the leader's own changes come soon enough
                print(f"arbiter host: could not tell the leader: {e}", file=sys.stderr)

    def refit(self) -> None:
        """Stores the ratings after every finished round not yet rated, computes the
        standings and publishes them to the other processes (blocking: a thread of
        the leader's background work)."""
        with self.db.session() as session:
            rate_finished_rounds(session)
        number, payload = self.board.refresh()
        self._publish(number, payload)

    async def _keep_standings(self) -> None:
        while not self._stopping:
            await self._stale.wait()
            self._stale.clear()
            try:
                await asyncio.to_thread(self.refit)
            except Exception as e:  # a database gone away: the next change tries again
                print(f"arbiter host: the standings were not computed: {e}", file=sys.stderr)
            else:
                await self.news.post()
            await asyncio.sleep(REFIT_EVERY)

    def intake(self, version_id: int) -> None:
        """Builds and checks a version in a process of its own, soon (from any thread)."""
        if self.loop is None:
            raise RuntimeError("the service has not started")
        self.loop.call_soon_threadsafe(lambda: self._spawn(self._intake(version_id)))

    def export(self, job_id: int) -> None:
        """Writes export job ``job_id`` in a process of its own, now (from any thread)."""
        if self.loop is None:
            raise RuntimeError("the service has not started")
        self.loop.call_soon_threadsafe(lambda: self._spawn(self._export(job_id)))

    async def _export(self, job_id: int) -> None:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "arbiter.host.export",
            str(self.config_path),
            str(job_id),
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
            preexec_fn=die_with_parent,
        )
        self._exports.add(process)
        try:
            _, err = await process.communicate()
        finally:
            self._exports.discard(process)
        if process.returncode and not self._stopping:
            print(f"arbiter host: export {job_id}: {err.decode()[-300:]}", file=sys.stderr)
            with self.db.session() as session:  # a job whose process died says so
                session.execute(
                    update(ExportJob)
                    .where(ExportJob.id == job_id, ExportJob.state == "running")
                    .values(state="failed", detail=err.decode()[-300:].strip(), finished=now())
                )
                session.commit()

    async def _intake(self, version_id: int) -> None:
        async with self._builds:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "arbiter.host.intake",
                str(self.config_path),
                str(version_id),
                self.isolation,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.PIPE,
            )
            _, err = await process.communicate()
            if process.returncode:
                print(
                    f"arbiter host: intake of version {version_id}: {err.decode()[-300:]}",
                    file=sys.stderr,
                )
        self._stale.set()

    def ladder_step(self) -> bool:
        """On a ladder, schedules the placement games of every new accepted version
        as soon as no placement round is being played (after each version's intake
        and each round's end): the ladder runs by itself. True if a round was made."""
        if self.config.format.kind != "ladder":
            return False
        with self.db.session() as session, exclusive(session, "rounds"):
            try:
                make_round(session, self.config)
            except RoundError:
                return False
        return True

    def scheduled_step(self, at: datetime | None = None) -> bool:
        """Starts the round the schedule says is due at ``at`` (now), unless play is
        paused; True if one was made."""
        with self.db.session() as session, exclusive(session, "rounds"):
            if queue.paused(session) or not schedule_due(session, self.config, at or now()):
                return False
            try:
                make_round(session, self.config)
            except RoundError:
                return False
        return True

    async def _keep_alive(self) -> None:
        """Stamps the time every few seconds: at the next start, the leases are
        extended by how long the server was away (:func:`queue.extend_leases`)."""
        while not self._stopping:
            await asyncio.sleep(queue.ALIVE_EVERY)
            try:
                await asyncio.to_thread(self._stamp)
            except Exception as e:  # a database gone away: the next beat tries again
                print(f"arbiter host: could not note the time: {e}", file=sys.stderr)

    def _stamp(self) -> None:
        with self.db.session() as session:
            queue.stamp_alive(session)
            insert = insert_of(session)
            values = {"seen": now(), "leads": self.leadership.leading}
            session.execute(
                insert(ServerProcess)
                .values(name=self.process, started=now(), **values)
                .on_conflict_do_update(index_elements=["name"], set_=values)
            )
            session.commit()
        self.slots.renew()

    async def _keep_schedule(self) -> None:
        while not self._stopping:
            await asyncio.sleep(SCHEDULE_POLL)
            if await asyncio.to_thread(self.scheduled_step):
                self._stale.set()

    async def _keep_worker(self, name: str, url: str) -> None:
        while not self._stopping:
            key = ContestKey.of_folder(self.config.folder).public_raw
            with self.db.session() as session:
                token = new_worker(session, name, key)
                session.commit()
            env = dict(os.environ, ARBITER_WORKER_TOKEN=token)
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "arbiter.host.worker",
                url,
                "--name",
                name,
                "--isolation",
                self.isolation,
                env=env,
                preexec_fn=die_with_parent,  # no local worker outlives its server
            )
            self.workers[name] = process
            await process.wait()
            if not self._stopping:
                await asyncio.sleep(RESTART_AFTER)

    async def stop(self) -> None:
        """Stops the local workers (their leased games go back to the queue when the
        leases run out), the exports being written (each is written again when the
        server starts) and the builds under way."""
        self._stopping = True
        self.notices.close()
        await self._end_workers()
        for task in list(self._tasks) + list(self._leader_tasks):
            task.cancel()
        with contextlib.suppress(Exception):  # the database gone: the rows go stale
            await asyncio.to_thread(self.slots.close)
        self.leadership.resign()

    async def _end_workers(self) -> None:
        """Ends the local workers (as Ctrl-C does: each gives its game back at once,
        where SIGTERM would finish it first) and the exports being written."""
        for process, sig in [
            *((w, signal.SIGINT) for w in self.workers.values()),
            *((e, signal.SIGTERM) for e in self._exports),
        ]:
            if process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.send_signal(sig)
        for process in [*self.workers.values(), *self._exports]:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), 10)
            if process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
