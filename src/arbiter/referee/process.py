"""An agent's process: started in a session of its own and watched as a whole tree.

:class:`AgentProcess` is the one place a contest program is started, measured,
suspended and killed; the transports on top of it (:mod:`arbiter.referee.pipe`
for programs spoken to in lines, :mod:`arbiter.referee.filerun` for programs run
once per move) only move text.

- It starts the program in a new session, so its process group can be stopped,
  continued and killed together, confined as :mod:`arbiter.referee.sandbox` says
  (a cgroup of its own where the machine gives one, rlimits otherwise; it dies
  with the referee), with the environment and working directory it is given.
- ``cpu_time`` is user+sys CPU of the whole tree. With a cgroup it is the cgroup's
  count, exact for everything the program ever started; without, live processes
  are measured with psutil (found through the kernel's lists of each process's
  children, never a scan of the machine's processes) and exited ones through their
  parents' ``children_*`` times, and once the program has exited its ``wait4``
  usage is exact.
- ``suspend`` and ``resume`` freeze and thaw the cgroup, or else stop and continue
  the process group and every descendant ever seen, also one that left the group.
- ``kill`` kills everything in the cgroup, the group and every descendant ever
  seen (and, without a cgroup, every orphan re-parented to the referee), then reaps
  the program.

The program is reaped here (``wait4``), not by asyncio's child watcher, so its
exact resource usage is known and no watcher warns about a pid it did not reap.
Failures to start raise :class:`~arbiter.errors.Crash`; nothing here decides who wins.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import subprocess
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, BinaryIO

import psutil

from arbiter.contract import program_problem
from arbiter.errors import Crash, visible
from arbiter.referee.cgroups import Cgroup, new_cgroup
from arbiter.referee.descendants import children, descendants
from arbiter.referee.program_pipes import Pipes
from arbiter.referee.sandbox import Confinement, become_subreaper, detect, launch_argv
from arbiter.referee.schedstat import Scheduling, scheduling
from arbiter.referee.watchdog import WATCHDOG

if TYPE_CHECKING:
    from arbiter.referee.box import Box

MAX_LINE = 1 << 16
"""The longest line an agent may write (bytes); longer output is malformed."""

TREE_REFRESH = 0.2
"""Seconds between listings of an agent's descendant processes."""

STDERR_LINES = 20
"""How many of the last standard-error lines are kept to explain a crash."""

_LIVE: set[int] = set()
"""The pids of the programs this referee process runs now (not orphans)."""


class AgentProcess:
    """One running contest program and everything it starts.

    ``stdin`` decides whether the program gets a pipe for its input (programs spoken
    to in lines) or no input at all (programs run once per move). ``env`` is its
    whole environment (``None``: the referee's). ``on_stderr`` is given each line the
    program writes to its standard error, as it arrives (a transcript keeps them all;
    the process keeps only the last few).
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        name: str = "",
        cwd: str | None = None,
        stdin: bool = True,
        env: Mapping[str, str] | None = None,
        confinement: Confinement | None = None,
        on_stderr: Callable[[str], None] | None = None,
        box: Box | None = None,
    ) -> None:
        self.argv = list(argv)
        self.box = box
        # bubblewrap's own processes (its monitor, the pid 1 of the program's namespace)
        # run in the program's tree and cgroup but are not the program's
        self._namespaced = False
        self._launchers: set[int] = set()
        self.on_stderr = on_stderr
        self.name = name or " ".join(self.argv)
        self.cwd = cwd
        self.env = None if env is None else dict(env)
        self.confinement = confinement or Confinement()
        self.cgroup: Cgroup | None = None
        self._want_stdin = stdin
        self.popen: subprocess.Popen[bytes] | None = None
        # the referee's ends of the program's pipes
        self._output: BinaryIO | None = None
        self._errors: BinaryIO | None = None
        self._input: BinaryIO | None = None
        self.stdout: asyncio.StreamReader | None = None
        self.stdin: asyncio.StreamWriter | None = None
        self.returncode: int | None = None
        self._ps: psutil.Process | None = None
        self._rusage_cpu: float | None = None
        self._cpu = 0.0
        self._tree_cache: list[psutil.Process] = []
        self._tree_at = -1e9
        # every descendant ever listed: one that left the tree (a daemon that called
        # setsid and was orphaned) is still measured, stopped and killed
        self._seen: dict[int, psutil.Process] = {}
        self._stderr: deque[str] = deque(maxlen=STDERR_LINES)
        self._pidfd: int | None = None  # readable once the program has exited
        self._tasks: list[asyncio.Task[None]] = []
        self._transports: list[asyncio.BaseTransport] = []
        self.suspended = False
        self._in_box = False  # started in its box and its end not yet told to the box
        self._stderr_task: asyncio.Task[None] | None = None

    @property
    def pid(self) -> int | None:
        """The program's process id, once started."""
        return None if self.popen is None else self.popen.pid

    # -- life -----------------------------------------------------------------

    async def start(self) -> None:
        """Starts the program and connects its pipes.

        :raises Crash: if it cannot be started (missing file, no permission).
        """
        self._check_program()
        protection = detect()
        self.cgroup = (
            new_cgroup(protection.cgroup_version, protection.parents)
            if self.confinement.cgroup
            else None
        )
        if self.cgroup is not None:
            self.cgroup.limit(self.confinement.memory_limit, self.confinement.max_processes)
        else:
            become_subreaper()
        box = None if self.box is None else self.box.prefix(network=self.confinement.network)
        self._namespaced = bool(box) and protection.launcher("bwrap") in (box or ())
        held = self.confinement
        if self.box is not None and self.box.disk is not None:
            held = replace(held, disk_limit=None)  # its disk is capped whole: ENOSPC
        argv = launch_argv(self.argv, protection, held, self.cgroup, box)
        pipes = Pipes(self._want_stdin, None if self.box is None else self.box.uid)
        try:
            self.popen = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL if pipes.stdin is None else pipes.stdin[0],
                stdout=pipes.stdout[1],
                stderr=pipes.stderr[1],
                cwd=self.cwd,
                env=self.env,
                start_new_session=True,
            )
        except OSError as e:
            pipes.close()
            self._drop_cgroup()
            why = e.strerror or str(e)
            raise Crash(f"cannot start: {why}", who=f"{self.name} ({self.argv[0]!r})") from None
        self._output, self._errors, self._input = pipes.ours()
        _LIVE.add(self.popen.pid)
        if self.box is not None:
            self.box.started()
            self._in_box = True
        try:
            self._pidfd = os.pidfd_open(self.popen.pid)
        except (AttributeError, OSError):  # not Linux 5.3+: exits are polled
            self._pidfd = None
        WATCHDOG.watch(self.popen.pid, self.cgroup)
        try:
            self._ps = psutil.Process(self.popen.pid)
        except psutil.Error:
            self._ps = None
        loop = asyncio.get_running_loop()
        output = self.stdout = asyncio.StreamReader(limit=MAX_LINE, loop=loop)
        out, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(output), self._output
        )
        errors = asyncio.StreamReader(limit=MAX_LINE, loop=loop)
        err, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(errors), self._errors
        )
        self._transports += [out, err]
        if self._input is not None:
            wt, wp = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, self._input)
            self.stdin = asyncio.StreamWriter(wt, wp, None, loop)
            self._transports.append(wt)
        self._stderr_task = asyncio.create_task(self._drain_stderr(errors))
        self._tasks.append(self._stderr_task)
        if not self._want_stdin:
            # a program run once per move answers in a file: what it prints is drained
            # and dropped, so a chatty program never blocks on a full pipe
            self._tasks.append(asyncio.create_task(self._discard(output)))

    async def _discard(self, reader: asyncio.StreamReader) -> None:
        while await reader.read(1 << 16):
            pass

    def _check_program(self) -> None:
        """Raises Crash for a program that is not there or cannot be run (the launchers
        would otherwise report it only as an exit code)."""
        exe = self.argv[0] if self.argv else ""
        why = program_problem(exe, self.cwd, (self.env or os.environ).get("PATH", os.defpath))
        if why is not None:
            raise Crash(f"cannot start: {why}", who=f"{self.name} ({exe!r})")

    def _drop_cgroup(self) -> None:
        if self.cgroup is not None:
            self.cgroup.kill()
            self.cgroup.remove()
            self.cgroup = None

    async def _drain_stderr(self, errors: asyncio.StreamReader) -> None:
        while True:
            try:
                line = await errors.readline()
            except (ValueError, asyncio.LimitOverrunError):
                continue
            if not line:
                return
            text = visible(line.decode("utf-8", "replace").rstrip(), 300)
            self._stderr.append(text)
            if self.on_stderr is not None:
                self.on_stderr(text)

    async def stderr_ended(self, timeout: float) -> None:
        """Waits up to ``timeout`` seconds until the program's standard error has been
        read to its end: a program that has exited may have written why just before,
        and those lines can still be in the pipe when its output's end is seen."""
        task = self._stderr_task
        if task is not None and not task.done():
            await asyncio.wait({task}, timeout=timeout)

    def poll(self) -> int | None:
        """Returns the exit code once the program has exited (negative: killed by that
        signal), reaping it and keeping its exact resource usage; else ``None``."""
        if self.returncode is not None or self.popen is None:
            return self.returncode
        try:
            pid, status, usage = os.wait4(self.popen.pid, os.WNOHANG)
        except ChildProcessError:
            self.returncode = self.popen.returncode if self.popen.returncode is not None else -1
            return self.returncode
        if pid == 0:
            return None
        self._rusage_cpu = usage.ru_utime + usage.ru_stime
        self.returncode = os.waitstatus_to_exitcode(status)
        if self._namespaced and 128 < self.returncode < 128 + signal.NSIG:
            # bubblewrap reports a program killed by a signal as 128 plus the signal
            self.returncode = 128 - self.returncode
        self.popen.returncode = self.returncode
        return self.returncode

    async def wait(self, timeout: float | None = None, poll: float = 0.005) -> int | None:
        """Waits up to ``timeout`` seconds (``None``: for ever) for the program to exit;
        returns its exit code, or ``None`` if it is still running.

        Where Linux gives a pidfd the exit wakes the wait at once; elsewhere it is
        polled at growing intervals from ``poll`` seconds (up to 50 ms late).
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while (code := self.poll()) is None:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return None
            if self._pidfd is not None:
                await _readable(self._pidfd, 1.0 if left is None else min(left, 1.0))
            else:
                await asyncio.sleep(poll if left is None else min(poll, left))
                poll = min(poll * 1.5, 0.05)
        return code

    # -- measures -------------------------------------------------------------

    def _tree(self, fresh: bool = False) -> list[psutil.Process]:
        """Returns the live processes of the tree: the program (while it runs), its
        descendants, and every descendant seen before that is still alive.

        Descendants are listed from the kernel's lists of each process's children
        (:mod:`arbiter.referee.descendants`: the tree's own processes, never the
        machine's), and the list is kept for :data:`TREE_REFRESH` seconds unless
        ``fresh``; a child that comes and goes in between is still counted, through
        its parent's ``children_*`` times.
        """
        now = time.monotonic()
        if fresh or now - self._tree_at > TREE_REFRESH:
            found: list[psutil.Process] = []
            if self._ps is not None and self.returncode is None:
                found.append(self._ps)
                for pid in descendants(self._ps.pid):
                    if pid not in self._seen:
                        with contextlib.suppress(psutil.Error):
                            self._seen[pid] = psutil.Process(pid)
            for pid, p in list(self._seen.items()):
                try:
                    alive = p.is_running() and p.status() != psutil.STATUS_ZOMBIE
                except psutil.Error:
                    alive = False
                if alive:
                    found.append(p)
                else:
                    del self._seen[pid]
            self._tree_cache = found
            self._tree_at = now
        return self._tree_cache

    def scheduling(self) -> Scheduling:
        """How the kernel is scheduling the tree's live threads (:func:`scheduling`):
        what tells a program starved by a busy machine from an idle one."""
        return scheduling({p.pid for p in self._tree()})

    def cpu_time(self) -> float:
        """Returns user+sys CPU seconds of the whole tree so far (never decreasing)."""
        self.poll()
        if self.cgroup is not None and (counted := self.cgroup.cpu_time()) is not None:
            self._cpu = max(self._cpu, counted)
            return self._cpu
        total = self._rusage_cpu or 0.0
        for p in self._tree():
            if p is self._ps and self._rusage_cpu is not None:
                continue
            try:
                t = p.cpu_times()
            except psutil.Error:
                continue
            total += t.user + t.system + t.children_user + t.children_system
        self._cpu = max(self._cpu, total)
        return self._cpu

    def process_count(self) -> int:
        """Returns how many processes (not threads) of the program are alive: its
        cgroup's, or the tree's as last listed (never counting bubblewrap's own)."""
        return len(self._pids() - self._launcher_pids())

    def _pids(self, fresh: bool = False) -> set[int]:
        """The pids of the program's processes: its cgroup's, or its tree's."""
        if self.cgroup is not None:
            return set(self.cgroup.pids())
        return {p.pid for p in self._tree(fresh=fresh)}

    def output_open(self) -> bool:
        """False once no process of the program holds its output open (it closed its
        standard output but runs on). Only bubblewrap's own processes, which hold a
        namespaced program's output for as long as they run, hide that from the pipe;
        elsewhere the pipe's end of file says it, and this is True."""
        if not self._namespaced or self.popen is None or self._output is None:
            return True
        try:
            target = f"pipe:[{os.fstat(self._output.fileno()).st_ino}]"
        except (OSError, ValueError):
            return True
        own = self._pids(fresh=True) - self._launcher_pids()
        if not own:
            return True  # not started yet, or gone: the pipe or the exit will say
        for pid in own:  # where a program keeps it, first: one look, not a listing
            with contextlib.suppress(OSError):
                if os.readlink(f"/proc/{pid}/fd/1") == target:
                    return True
        for pid in own:
            fds = f"/proc/{pid}/fd"
            try:
                names = os.listdir(fds)
            except OSError:
                continue
            for name in names:
                with contextlib.suppress(OSError):
                    if os.readlink(f"{fds}/{name}") == target:
                        return True
        return False

    def _launcher_pids(self) -> set[int]:
        """bubblewrap's monitor (the process started) and the pid 1 it starts in the
        program's namespace, once seen."""
        if not self._namespaced or self.popen is None:
            return set()
        if len(self._launchers) < 2 and self._ps is not None:
            self._launchers.add(self._ps.pid)
            for pid in children(self._ps.pid):
                with contextlib.suppress(psutil.Error):
                    if psutil.Process(pid).name() == "bwrap":
                        self._launchers.add(pid)
        return self._launchers

    def memory(self) -> int:
        """Returns the resident memory of the live tree in bytes."""
        if self.cgroup is not None and (counted := self.cgroup.memory()) is not None:
            return counted
        total = 0
        for p in self._tree():
            with contextlib.suppress(psutil.Error):
                total += p.memory_info().rss
        return total

    # -- signals --------------------------------------------------------------

    def _signal_all(self, sig: signal.Signals) -> None:
        """Signals the process group and every descendant ever seen (Linux does not
        reuse a pid while it names a live process group; psutil refuses a pid that
        now belongs to another process)."""
        if self.popen is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.popen.pid, sig)
        for p in list(self._seen.values()):
            with contextlib.suppress(psutil.Error):
                p.send_signal(sig)

    def memory_exceeded(self) -> bool:
        """True when the kernel killed a process of the program for its memory limit."""
        return self.cgroup is not None and self.cgroup.oom_killed()

    def suspend(self) -> None:
        """Stops the whole tree (a cgroup freeze, or SIGSTOP) while the opponent thinks.

        Without a cgroup its process group is stopped first, at once, and only then are
        its descendants listed to stop those that left the group: a pondering thread
        gains nothing while they are."""
        if self.cgroup is not None and self.cgroup.can_freeze:
            self.cgroup.freeze(True)
        else:
            if self.popen is not None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(self.popen.pid, signal.SIGSTOP)
            self._tree(fresh=True)
            self._signal_all(signal.SIGSTOP)
        self.suspended = True

    def resume(self) -> None:
        """Continues a suspended tree."""
        if self.cgroup is not None and self.cgroup.can_freeze:
            self.cgroup.freeze(False)
        else:
            self._signal_all(signal.SIGCONT)
        self.suspended = False

    async def kill(self) -> int | None:
        """Kills the whole tree, reaps the program and closes its pipes; returns its
        exit code (negative for a signal), or ``None`` if it never started."""
        if self.popen is None:
            return None
        if self.cgroup is not None:
            self.cgroup.kill()  # everything it ever started is in the cgroup
        else:
            self._tree(fresh=True)  # list its descendants before they are orphaned
        self._signal_all(signal.SIGKILL)
        if self.suspended:
            self._signal_all(signal.SIGCONT)
            self.suspended = False
        code = await self.wait(timeout=5.0)
        _LIVE.discard(self.popen.pid)
        if self._pidfd is not None:
            with contextlib.suppress(OSError):
                os.close(self._pidfd)
            self._pidfd = None
        contained = False
        if self.cgroup is not None:
            contained = self.cgroup.kill()
            self.cgroup.remove()
        else:
            kill_orphans()
        if self._in_box and self.box is not None:
            self.box.ended(contained=contained and code is not None)
            self._in_box = False
        WATCHDOG.forget(self.popen.pid)
        for task in self._tasks:
            # the tree is gone, so its pipes end at once: read what is left in them
            await settle(task, 0.5)
        for transport in self._transports:
            transport.close()
        return code

    async def end(self, grace: float = 0.5) -> int | None:
        """Closes the program's input, gives it ``grace`` seconds to exit by itself,
        then kills what is left of its tree; returns its exit code."""
        if self.popen is None:
            return None
        if self.suspended:
            self.resume()
        if self.cgroup is None:
            self._tree(fresh=True)  # list its descendants while they are still its own
        if self.stdin is not None and not self.stdin.is_closing():
            self.stdin.close()
        await self.wait(timeout=grace)
        return await self.kill()

    def exit_detail(self) -> str:
        """Says how the program ended, with its last standard-error line."""
        code = self.poll()
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


async def _readable(fd: int, timeout: float) -> None:
    """Waits up to ``timeout`` seconds for ``fd`` to become readable."""
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[None] = loop.create_future()

    def wake() -> None:
        if not ready.done():
            ready.set_result(None)

    loop.add_reader(fd, wake)
    try:
        await asyncio.wait({ready}, timeout=timeout)
    finally:
        loop.remove_reader(fd)
        ready.cancel()


async def settle(task: asyncio.Task[None], timeout: float | None = None) -> None:
    """Waits up to ``timeout`` seconds for a helper task to end, then cancels it; its
    own failure or cancellation is over with, but a cancellation of the caller (an
    interrupted referee) goes on up, which ``suppress(CancelledError)`` would swallow."""
    await asyncio.wait({task}, timeout=timeout)
    if not task.done():
        task.cancel()
        await asyncio.wait({task})
    if not task.cancelled():
        task.exception()  # retrieved: a pump's failure was reported where it happened


def kill_orphans() -> None:
    """Kills and reaps the processes re-parented to this (subreaper) process that it did
    not start itself: what programs detached from their trees.

    Programs still running here and this process's own workers are left alone.
    """
    mine = []
    for pid in children(os.getpid()):
        with contextlib.suppress(psutil.Error):
            mine.append(psutil.Process(pid))
    ours = _LIVE | {p.pid for p in multiprocessing.active_children() if p.pid is not None}
    if WATCHDOG.pid is not None:
        ours.add(WATCHDOG.pid)
    for child in mine:
        if child.pid in ours:
            continue
        try:
            if _is_orphan(child):
                child.kill()
                child.wait(timeout=2)
        except (psutil.Error, psutil.TimeoutExpired):
            continue


def _is_orphan(child: psutil.Process) -> bool:
    """True for a process this one did not start: one that began in a session of its
    own other than this process's (programs run in their own sessions)."""
    try:
        return os.getsid(child.pid) != os.getsid(0)
    except OSError:
        return False
