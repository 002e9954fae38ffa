"""The running contest server's own work besides answering requests: each upload's
build and gate (in a process of its own, a few at a time), the local workers
(restarted if one dies), and the news pages wait for (a result stored, a round made,
a version accepted) pushed to every open standings page. A local worker gets a new
token each time it starts (ending any older process's) and dies with its server.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import Coroutine
from datetime import datetime
from pathlib import Path
from typing import Any

from arbiter.host import queue
from arbiter.host.config import ContestConfig
from arbiter.host.db import Database
from arbiter.host.intake import pending, tidy_builds
from arbiter.host.models import now
from arbiter.host.rounds import RoundError, make_round, schedule_due
from arbiter.host.workers import contest_id, new_worker
from arbiter.referee.sandbox import die_with_parent

RESTART_AFTER = 2.0
"""Seconds before a local worker that died is started again."""

SCHEDULE_POLL = 20.0
"""Seconds between two looks at the schedule (``[schedule] every``)."""


class News:
    """A counter pages wait on: every change to what a page shows raises it."""

    def __init__(self) -> None:
        self.number = 0
        self._changed = asyncio.Condition()
        self._loop: asyncio.AbstractEventLoop | None = None

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """Binds the news to the server's event loop (requests are answered in threads)."""
        self._loop = loop

    def announce(self) -> None:
        """Posts news from any thread."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(lambda: asyncio.ensure_future(self.post()))

    async def post(self) -> None:
        async with self._changed:
            self.number += 1
            self._changed.notify_all()

    async def wait(self, seen: int, timeout: float) -> int:
        """Waits until there is news after ``seen`` or ``timeout`` passes."""
        async with self._changed:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait_for(lambda: self.number > seen), timeout)
            return self.number


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
        self._builds = asyncio.Semaphore(builds_at_once)
        self._tasks: set[asyncio.Task[None]] = set()
        self.workers: dict[str, asyncio.subprocess.Process] = {}
        self._stopping = False
        self.loop: asyncio.AbstractEventLoop | None = None

    def start(self, url: str | None) -> None:
        """Resumes the builds a stopped server left and starts the local workers
        (against ``url``, the server's own address; none without one). Called in the
        server's event loop."""
        self.loop = asyncio.get_running_loop()
        self.news.bind(self.loop)
        with self.db.session() as session:
            contest_id(session)  # made once, before any request reads it
            session.commit()
            tidy_builds(session, self.config)
            for version_id in pending(session):
                self._spawn(self._intake(version_id))
        if self.config.calendar.every is not None:
            self._spawn(self._keep_schedule())
        if url is not None:
            for i in range(1, self.config.local_workers + 1):
                self._spawn(self._keep_worker(f"local-{i}", url))

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def intake(self, version_id: int) -> None:
        """Builds and checks a version in a process of its own, soon (from any thread)."""
        if self.loop is None:
            raise RuntimeError("the service has not started")
        self.loop.call_soon_threadsafe(lambda: self._spawn(self._intake(version_id)))

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
        await self.news.post()

    def ladder_step(self) -> bool:
        """On a ladder, schedules the placement games of every new accepted version
        as soon as no placement round is being played (after each version's intake
        and each round's end): the ladder runs by itself. True if a round was made."""
        if self.config.format.kind != "ladder":
            return False
        with self.db.session() as session:
            try:
                make_round(session, self.config)
            except RoundError:
                return False
        return True

    def scheduled_step(self, at: datetime | None = None) -> bool:
        """Starts the round the schedule says is due at ``at`` (now), unless play is
        paused; True if one was made."""
        with self.db.session() as session:
            if queue.paused(session) or not schedule_due(session, self.config, at or now()):
                return False
            try:
                make_round(session, self.config)
            except RoundError:
                return False
        return True

    async def _keep_schedule(self) -> None:
        while not self._stopping:
            await asyncio.sleep(SCHEDULE_POLL)
            if await asyncio.to_thread(self.scheduled_step):
                await self.news.post()

    async def _keep_worker(self, name: str, url: str) -> None:
        while not self._stopping:
            with self.db.session() as session:
                token = new_worker(session, name)
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
        leases run out) and the builds under way."""
        self._stopping = True
        for process in self.workers.values():
            if process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.terminate()
        for process in self.workers.values():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), 10)
            if process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
        for task in list(self._tasks):
            task.cancel()
