"""The line pipe: a program started once per game and spoken to in lines.

:class:`LinePipe` writes lines to an :class:`~arbiter.referee.process.AgentProcess`
and reads its replies. While it waits for a reply it checks the tree's CPU time,
its resident memory and the wall time against the limits it is given, at the first
moment each could be passed, so a program that burns CPU past its allowance, grows
past its memory limit, or sleeps past its deadline is stopped at once rather than
waited for, and one that replies in good time is not looked at in between.
:class:`LineTransport` is what a line seat talks through: a pipe, or a scripted
stand-in in tests (:mod:`arbiter.referee.scripted`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from arbiter.errors import (
    AgentFault,
    Crash,
    Forked,
    Malformed,
    MemoryExceeded,
    Timeout,
    visible,
)
from arbiter.referee.box import Box
from arbiter.referee.process import MAX_LINE, AgentProcess, settle
from arbiter.referee.sandbox import Confinement

QUEUE_LINES = 64
"""Unread lines kept from a program; what it writes beyond them is discarded."""

LONGEST_LOOK = 0.25
"""The longest a thinking program goes unlooked at (for what only a look sees: its
memory without a cgroup, a process it must not start, its output closed while it
runs on behind bubblewrap, or its exit while a process it left holds its output)."""

CORES = os.cpu_count() or 1
"""The most CPU seconds a program's tree can use in a second of wall time."""


class LineTransport(Protocol):
    """Lines to and from one program, with its CPU time and its suspension."""

    async def start(self) -> None: ...
    async def send_line(self, text: str) -> None: ...
    async def read_line(
        self,
        *,
        cpu_limit: float | None = None,
        cpu_base: float = 0.0,
        wall_limit: float | None = None,
        memory_limit: int | None = None,
    ) -> str: ...
    def pending(self) -> list[str]: ...
    def cpu_time(self) -> float: ...
    def suspend(self) -> None: ...
    def resume(self) -> None: ...
    async def close(self, grace: float = 0.5) -> int | None: ...


class LinePipe:
    """Line I/O with one program; ``poll`` is the first check interval in seconds.

    A pump reads the program's output all the time, whether or not the referee is
    waiting for a reply, so a program that writes more than a pipe holds never blocks
    (nor, through it, the referee): up to :data:`QUEUE_LINES` unread lines are kept,
    the rest is discarded, and everything is drained until the program is gone.
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        name: str = "",
        cwd: str | None = None,
        poll: float = 0.01,
        env: Mapping[str, str] | None = None,
        confinement: Confinement | None = None,
        on_stderr: Callable[[str], None] | None = None,
        box: Box | None = None,
    ) -> None:
        self.process = AgentProcess(
            argv,
            name=name,
            cwd=cwd,
            env=env,
            confinement=confinement,
            on_stderr=on_stderr,
            box=box,
        )
        self.name = self.process.name
        self.poll = poll
        self._lines: deque[bytes | Malformed] = deque()
        self._eof = False
        self._arrived = asyncio.Event()
        self._pump_task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Starts the program and the pump that reads its output.

        :raises Crash: if it cannot be started.
        """
        await self.process.start()
        self._pump_task = asyncio.create_task(self._pump())

    async def _pump(self) -> None:
        reader = self.process.stdout
        assert reader is not None
        skipping = False  # inside the rest of an over-long line
        while True:
            try:
                raw = await reader.readline()
            except (ValueError, asyncio.LimitOverrunError):
                if not skipping:
                    self._keep(Malformed(f"line longer than {MAX_LINE} bytes", who=self.name))
                skipping = True
                continue
            if not raw:
                self._eof = True
                self._arrived.set()
                return
            if skipping:
                skipping = not raw.endswith(b"\n")
                continue
            self._keep(raw)

    def _keep(self, item: bytes | Malformed) -> None:
        if len(self._lines) < QUEUE_LINES:
            self._lines.append(item)
        self._arrived.set()

    def pending(self) -> list[str]:
        """The lines the program has written that no one has read yet."""
        return [
            visible(x.decode("utf-8", "backslashreplace").rstrip("\r\n"))
            if isinstance(x, bytes)
            else "(a line too long)"
            for x in self._lines
        ]

    def cpu_time(self) -> float:
        """User+sys CPU seconds of the program's whole tree so far."""
        return self.process.cpu_time()

    def suspend(self) -> None:
        """Stops the program's whole tree until :meth:`resume`."""
        self.process.suspend()

    def resume(self) -> None:
        """Continues the program's tree."""
        self.process.resume()

    async def close(self, grace: float = 0.5) -> int | None:
        """Closes the program's input, waits up to ``grace`` seconds, then kills its
        whole tree; returns its exit code (negative for a signal)."""
        code = await self.process.end(grace)
        if self._pump_task is not None and not self._pump_task.done():
            self._pump_task.cancel()
            await settle(self._pump_task)
        return code

    async def _crashed(self) -> AgentFault:
        """The fault of a program whose input or output ended, or that exited, after a
        moment for its exit code and for the last lines of its standard error, which
        say why (they can still be unread when its end is seen first)."""
        if await self.process.wait(timeout=0.2) is not None:
            await self.process.stderr_ended(timeout=0.2)
        return self._crash()

    def _crash(self) -> AgentFault:
        if self.process.memory_exceeded():
            limit = self.process.confinement.memory_limit or 0
            why = f"killed for going over its {limit / 2**20:.0f} MB memory limit"
            return MemoryExceeded(why, who=self.name)
        detail = self.process.exit_detail()
        return Crash(detail, who=self.name)

    async def send_line(self, text: str) -> None:
        """Writes ``text`` and a newline.

        :raises Crash: if the program has exited or closed its input.
        """
        writer = self.process.stdin
        assert writer is not None, "start() first"
        try:
            writer.write(text.encode() + b"\n")
            await writer.drain()
        except (BrokenPipeError, ConnectionResetError, RuntimeError):
            raise await self._crashed() from None

    async def read_line(
        self,
        *,
        cpu_limit: float | None = None,
        cpu_base: float = 0.0,
        wall_limit: float | None = None,
        memory_limit: int | None = None,
    ) -> str:
        """Returns the next line the program writes, without its line ending.

        While waiting it checks the tree's CPU time since ``cpu_base`` against
        ``cpu_limit``, its resident memory against ``memory_limit`` (bytes), and the
        wall time since the call against ``wall_limit``, each at the first moment it
        could be passed (:func:`next_look`): at most ``poll`` seconds late.

        :raises Timeout: past the CPU limit or the wall-clock limit.
        :raises MemoryExceeded: past the memory limit.
        :raises Crash: if the program exits or closes its output first.
        :raises Malformed: for a line longer than :data:`MAX_LINE` or not UTF-8.
        """
        process = self.process
        started = time.monotonic()
        used = process.cpu_time() - cpu_base if cpu_limit is not None else 0.0
        while not self._lines:
            if self._eof:
                raise await self._crashed()
            self._arrived.clear()
            waited = time.monotonic() - started
            wait = next_look(self.poll, used, cpu_limit, waited, wall_limit)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):  # unlike wait_for, never eats a cancel
                    await self._arrived.wait()
            if self._lines or self._eof:
                continue
            if process.poll() is not None or not process.output_open():
                # exited, though a process it left behind may still hold its output
                # open; or it closed its output and runs on. What it wrote before is
                # read first: its end can be seen here before its last lines are
                if self._pump_task is not None:
                    await asyncio.wait({self._pump_task}, timeout=0.2)
                if self._lines or self._eof:
                    continue
                raise await self._crashed()
            used = check_limits(process, self.name, cpu_limit, cpu_base, memory_limit)
            if wall_limit is not None and time.monotonic() - started > wall_limit:
                raise await self._out_of_wall_time(started, wall_limit)
        item = self._lines.popleft()
        check_single(process, self.name)  # a child started since the last poll
        return _text(item, self.name)

    async def _out_of_wall_time(self, started: float, wall_limit: float) -> Timeout:
        """The time-out of a program past its wall limit, after :data:`IDLE_LOOK`
        seconds watching it: a reply that comes in that look is late (said, with by how
        much, and kept as :attr:`Timeout.late` for its transcript); otherwise what it
        was doing (:func:`what_it_was_doing`)."""
        look = Look(self.process)
        self._arrived.clear()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(IDLE_LOOK):
                await self._arrived.wait()
        if self._lines:
            late = time.monotonic() - started - wall_limit
            item = self._lines.popleft()
            text = item.decode("utf-8", "backslashreplace") if isinstance(item, bytes) else None
            return Timeout(
                f"replied {late:.3f}s late, after its {wall_limit:.2f}s wall time",
                who=self.name,
                late=None if text is None else text.rstrip("\r\n"),
            )
        hint = look.finish()
        return Timeout(f"no reply within {wall_limit:.2f}s wall time ({hint})", who=self.name)


def _text(item: bytes | Malformed, name: str) -> str:
    """A line the program wrote, as text without its line ending.

    :raises Malformed: for a line that was too long, or is not UTF-8.
    """
    if isinstance(item, Malformed):
        raise item
    try:
        text = item.decode("utf-8")
    except UnicodeDecodeError:
        shown = item.decode("utf-8", "backslashreplace").rstrip("\r\n")
        raise Malformed(f"output is not UTF-8: {shown!r}", who=name, offending=shown) from None
    return text.rstrip("\r\n")


def next_look(
    shortest: float,
    used: float,
    cpu_limit: float | None,
    waited: float,
    wall_limit: float | None,
) -> float:
    """Seconds until the next look at a program that has not replied, having used
    ``used`` CPU seconds and waited ``waited``: when it could first be past its CPU
    limit (its CPU time left spread over every core of the machine) or its wall limit,
    never sooner than ``shortest`` and never later than :data:`LONGEST_LOOK`. So a
    program on a long clock is not looked at during a short move at all (its reply,
    its output's end and its exit wake the wait), and one near its limit is looked at
    every ``shortest`` seconds."""
    wait = LONGEST_LOOK
    if cpu_limit is not None:
        wait = min(wait, (cpu_limit - used) / CORES)
    if wall_limit is not None:
        wait = min(wait, wall_limit - waited)
    return max(wait, shortest)


IDLE_LOOK = 0.2
"""Seconds a program that ran out of wall time is watched before it is stopped, to
tell one waiting (for input it thinks it lacks, or with its reply unflushed) from one
computing (on a machine too busy for it, or simply too long)."""


class Look:
    """A look at a program out of wall time, from its making to :meth:`finish`: its
    share of a core, and how long its threads waited on the machine's run queues.
    (Its CPU since the move began says nothing where the machine was busy: a program
    at a third of a core computes all the while.)"""

    def __init__(self, process: AgentProcess) -> None:
        self.process = process
        self.started = time.monotonic()
        self.cpu = process.cpu_time()
        self.before = process.scheduling()

    def finish(self) -> str:
        """What the program was doing over the look, for the verdict."""
        seconds = max(time.monotonic() - self.started, 1e-3)
        share = (self.process.cpu_time() - self.cpu) / seconds
        after = self.process.scheduling()
        wait = 0.0
        if after.waited is not None and self.before.waited is not None:
            wait = (after.waited - self.before.waited) / seconds
        runnable = self.before.runnable or after.runnable
        return what_it_was_doing(share, wait, runnable)


def what_it_was_doing(share: float, wait: float, runnable: bool) -> str:
    """Says what a program stopped for wall time was doing, from its ``share`` of a
    core, the share of the time its threads ``wait``-ed for one (a thread's wait is
    counted when it next runs: one starved all the look shows none) and whether a
    thread was ``runnable`` at the look's start or end.

    >>> what_it_was_doing(0.0, 0.0, False)
    'idle: waiting for input, or output not flushed?'
    >>> what_it_was_doing(0.01, 0.0, True)
    'starved of CPU: runnable, but a busy machine gave it 1% of a core'
    >>> what_it_was_doing(0.02, 0.9, False)
    'starved of CPU: runnable, but a busy machine gave it 2% of a core'
    >>> what_it_was_doing(0.6, 0.4, True)
    'computing: 60% of a core when stopped, waiting 40% of the time for one (a busy machine)'
    >>> what_it_was_doing(1.0, 0.0, True)
    'computing: 100% of a core when stopped'
    """
    if share < 0.05 and not runnable and wait < 0.05:
        return "idle: waiting for input, or output not flushed?"
    if share < 0.05:
        return f"starved of CPU: runnable, but a busy machine gave it {share:.0%} of a core"
    # a wait is counted when the thread next runs, so a look can hold more than its own
    wait = min(wait, 1.0)
    busy = f", waiting {wait:.0%} of the time for one (a busy machine)" if wait >= 0.1 else ""
    return f"computing: {share:.0%} of a core when stopped{busy}"


def check_limits(
    process: AgentProcess,
    name: str,
    cpu_limit: float | None,
    cpu_base: float,
    memory_limit: int | None,
) -> float:
    """Raises if ``process``'s tree is past its CPU limit (since ``cpu_base``) or its
    memory limit; returns the CPU seconds it used since ``cpu_base`` (0.0 where there
    is no CPU limit, not read).

    :raises Timeout: past the CPU limit.
    :raises MemoryExceeded: past the memory limit.
    :raises Forked: for another process where the program must be alone.
    """
    check_single(process, name)
    used = 0.0
    if cpu_limit is not None:
        used = process.cpu_time() - cpu_base
        if used > cpu_limit:
            raise Timeout(f"{used:.2f}s CPU > {cpu_limit:.2f}s", who=name)
    if memory_limit is not None:
        rss = process.memory()
        if rss > memory_limit:
            raise MemoryExceeded(f"{rss / 2**20:.0f} MB > {memory_limit / 2**20:.0f} MB", who=name)
    return used


def check_single(process: AgentProcess, name: str) -> None:
    """Raises if ``process`` must run alone (:attr:`Confinement.single_process`) and
    has started another process that is still alive.

    :raises Forked: naming how many processes it has.
    """
    if process.confinement.single_process and (count := process.process_count()) > 1:
        raise Forked(f"started another process ({count} running)", who=name)
