"""A child process spoken to by lines, with its CPU time, memory and life under watch.

:class:`Channel` starts a program in its own session (so its whole process group
can be stopped, continued and killed), writes and reads lines, and measures the
user+sys CPU time and resident memory of its whole process tree with psutil.
``read_line`` polls those while it waits, so an agent that burns CPU past its
allowance, grows past its memory limit, or sleeps past the wall-clock backstop is
stopped at once rather than waited for. Failures raise :class:`AgentFault`
subclasses; nothing here decides who wins.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections import deque
from collections.abc import Sequence

import psutil

from arbiter.errors import Crash, Malformed, MemoryExceeded, Timeout

MAX_LINE = 1 << 16
"""The longest line an agent may write (bytes); longer output is malformed."""

TREE_REFRESH = 0.2
"""Seconds between listings of an agent's descendant processes."""


class Channel:
    """One child process with line-based stdin/stdout; ``name`` labels its messages."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        name: str = "",
        cwd: str | None = None,
        poll: float = 0.01,
    ) -> None:
        self.argv = list(argv)
        self.name = name or " ".join(self.argv)
        self.cwd = cwd
        self.poll = poll
        self.proc: asyncio.subprocess.Process | None = None
        self._ps: psutil.Process | None = None
        self._cpu = 0.0
        self._tree_cache: list[psutil.Process] = []
        # every descendant ever listed: one that left the tree (a daemon that called
        # setsid and was orphaned) is still killed at the end
        self._seen: dict[int, psutil.Process] = {}
        self._tree_at = -1e9
        self._stderr: deque[str] = deque(maxlen=20)
        self._stderr_task: asyncio.Task[None] | None = None
        self._read_task: asyncio.Task[bytes] | None = None
        self._stopped = False

    # -- life ---------------------------------------------------------------

    async def start(self) -> None:
        """Starts the program.

        :raises Crash: if it cannot be started (missing file, no permission).
        """
        try:
            self.proc = await asyncio.create_subprocess_exec(
                *self.argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                cwd=self.cwd,
                start_new_session=True,
                limit=MAX_LINE,
            )
        except OSError as e:
            raise Crash(
                f"{self.name}: cannot start {self.argv[0]!r}: {e.strerror or e}",
                detail=f"cannot start: {e.strerror or e}",
            ) from None
        try:
            self._ps = psutil.Process(self.proc.pid)
        except psutil.Error:
            self._ps = None
        self._stderr_task = asyncio.create_task(self._drain_stderr())

    async def _drain_stderr(self) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        while True:
            try:
                line = await self.proc.stderr.readline()
            except (ValueError, asyncio.LimitOverrunError):
                continue
            if not line:
                return
            self._stderr.append(line.decode("utf-8", "replace").rstrip())

    @property
    def stderr_tail(self) -> list[str]:
        """The last lines the program wrote to its standard error."""
        return list(self._stderr)

    def _tree(self, fresh: bool = False) -> list[psutil.Process]:
        """Returns the program's process and its descendants.

        Listing descendants scans every process of the machine, so the list is kept
        for ``TREE_REFRESH`` seconds unless ``fresh``; a child that comes and goes in
        between is still counted, through its parent's ``children_*`` times.
        """
        if self._ps is None:
            return []
        now = time.monotonic()
        if fresh or now - self._tree_at > TREE_REFRESH:
            try:
                self._tree_cache = [self._ps, *self._ps.children(recursive=True)]
            except psutil.Error:
                self._tree_cache = [self._ps]
            self._tree_at = now
            for p in self._tree_cache[1:]:
                self._seen.setdefault(p.pid, p)
        return self._tree_cache

    def cpu_time(self) -> float:
        """Returns user+sys CPU seconds of the process tree so far (never decreasing).

        Children that have exited count once their parent has waited for them.
        """
        total = 0.0
        for p in self._tree():
            try:
                t = p.cpu_times()
            except psutil.Error:
                continue
            total += t.user + t.system + t.children_user + t.children_system
        self._cpu = max(self._cpu, total)
        return self._cpu

    def memory(self) -> int:
        """Returns the resident memory of the process tree in bytes."""
        total = 0
        for p in self._tree():
            with contextlib.suppress(psutil.Error):
                total += p.memory_info().rss
        return total

    def _signal_group(self, sig: signal.Signals) -> None:
        """Signals every process of the program's group, even after the leader exited
        (Linux does not reuse a pid while it names a live process group)."""
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, sig)

    def suspend(self) -> None:
        """Stops the whole process group (SIGSTOP) while another player thinks."""
        self._signal_group(signal.SIGSTOP)
        self._stopped = True

    def resume(self) -> None:
        """Continues a suspended process group (SIGCONT)."""
        self._signal_group(signal.SIGCONT)
        self._stopped = False

    async def close(self, grace: float = 0.5) -> int | None:
        """Closes the program's input, waits up to ``grace`` seconds, then kills the tree:
        the process group, every current descendant, and every descendant ever seen.

        Returns the exit code (negative for a signal), or None if it never started.
        """
        proc = self.proc
        if proc is None:
            return None
        if self._stopped:
            self.resume()
        if proc.stdin is not None and not proc.stdin.is_closing():
            proc.stdin.close()
            with contextlib.suppress(Exception):
                await proc.stdin.wait_closed()
        descendants = self._tree(fresh=True)[1:]
        if proc.returncode is None:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(proc.wait(), grace)
        descendants += self._tree(fresh=True)[1:]
        self._signal_group(signal.SIGKILL)
        for p in [*descendants, *self._seen.values()]:
            with contextlib.suppress(psutil.Error):
                p.kill()  # psutil refuses a pid that now belongs to another process
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
        await proc.wait()
        if self._read_task is not None and not self._read_task.done():
            self._read_task.cancel()
        transport = getattr(proc, "_transport", None)
        if transport is not None:
            transport.close()
        if self._stderr_task is not None:
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(self._stderr_task, 1.0)
        return proc.returncode

    # -- lines --------------------------------------------------------------

    def _crash_detail(self) -> str:
        code = None if self.proc is None else self.proc.returncode
        if code is None:
            why = "closed its output"
        elif code < 0:
            try:
                why = f"killed by {signal.Signals(-code).name}"
            except ValueError:
                why = f"killed by signal {-code}"
        else:
            why = f"exited with code {code}"
        tail = next((line for line in reversed(self._stderr) if line.strip()), "")
        return f"{why}; last stderr: {tail}" if tail else why

    async def send_line(self, text: str) -> None:
        """Writes ``text`` and a newline.

        :raises Crash: if the program has exited or closed its input.
        """
        proc = self.proc
        assert proc is not None and proc.stdin is not None, "start() first"
        try:
            proc.stdin.write(text.encode() + b"\n")
            await proc.stdin.drain()
        except (BrokenPipeError, ConnectionResetError, RuntimeError):
            await self._settle()
            raise Crash(f"{self.name}: {self._crash_detail()}", self._crash_detail()) from None

    async def _settle(self) -> None:
        """Gives an exiting program a moment to report its exit code."""
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.proc.wait(), 0.2)

    async def read_line(
        self,
        *,
        cpu_limit: float | None = None,
        cpu_base: float = 0.0,
        wall_limit: float | None = None,
        memory_limit: int | None = None,
    ) -> str:
        """Returns the next line the program writes, without its line ending.

        While waiting it checks, every ``poll`` seconds, the tree's CPU time since
        ``cpu_base`` against ``cpu_limit``, its resident memory against
        ``memory_limit`` (bytes), and the wall time against ``wall_limit``.

        :raises Timeout: past the CPU allowance or the wall-clock backstop.
        :raises MemoryExceeded: past the memory limit.
        :raises Crash: if the program exits or closes its output first.
        :raises Malformed: for a line longer than :data:`MAX_LINE` or not UTF-8.
        """
        proc = self.proc
        assert proc is not None and proc.stdout is not None, "start() first"
        if self._read_task is None or self._read_task.done():
            self._read_task = asyncio.create_task(proc.stdout.readline())
        task = self._read_task
        started = time.monotonic()
        # check often near the start of a move, less often on long allowances
        poll = self.poll
        while not task.done():
            await asyncio.wait({task}, timeout=poll)
            poll = min(poll * 1.5, 0.1, max(self.poll, (cpu_limit or 0.0) / 50))
            if task.done():
                break
            if proc.returncode is not None:
                # exited, though a process it left behind may still hold its output open
                raise Crash(f"{self.name}: {self._crash_detail()}", self._crash_detail())
            if cpu_limit is not None:
                used = self.cpu_time() - cpu_base
                if used > cpu_limit:
                    raise Timeout(
                        f"{self.name}: used {used:.2f}s CPU, limit {cpu_limit:.2f}s",
                        detail=f"{used:.2f}s CPU > {cpu_limit:.2f}s",
                    )
            if memory_limit is not None:
                rss = self.memory()
                if rss > memory_limit:
                    raise MemoryExceeded(
                        f"{self.name}: {rss / 2**20:.0f} MB resident, "
                        f"limit {memory_limit / 2**20:.0f} MB",
                        detail=f"{rss / 2**20:.0f} MB > {memory_limit / 2**20:.0f} MB",
                    )
            if wall_limit is not None and time.monotonic() - started > wall_limit:
                idle = self.cpu_time() - cpu_base < 0.5 * wall_limit
                hint = " (idle: waiting for input, or output not flushed?)" if idle else ""
                raise Timeout(
                    f"{self.name}: no reply within {wall_limit:.1f}s wall time{hint}",
                    detail=f"no reply within {wall_limit:.1f}s wall time{hint}",
                )
        self._read_task = None
        try:
            raw = task.result()
        except (ValueError, asyncio.LimitOverrunError):
            raise Malformed(
                f"{self.name}: line longer than {MAX_LINE} bytes",
                detail=f"line longer than {MAX_LINE} bytes",
            ) from None
        if not raw:
            await self._settle()
            raise Crash(f"{self.name}: {self._crash_detail()}", self._crash_detail())
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise Malformed(f"{self.name}: output is not UTF-8: {raw!r}", repr(raw)) from None
        return text.rstrip("\r\n")
