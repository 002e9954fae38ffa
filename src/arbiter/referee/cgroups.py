"""A program's cgroup, v1 or v2: made for one program, joined before its first
instruction, read for its CPU, memory and process count, frozen while it waits, and
killed whole at the end. Which hierarchy and where is found by
:func:`arbiter.referee.sandbox.detect`; this module only drives a cgroup.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import select
import signal
import time
from collections.abc import Callable, Sequence
from pathlib import Path

V1_CONTROLLERS = ("cpuacct", "memory", "pids", "freezer")
"""The cgroup v1 controllers the referee uses, each optional."""

_counter = itertools.count(1)


class Cgroup:
    """One program's cgroup, v1 (one directory per controller) or v2 (one directory).

    Every method tolerates a controller that is missing: its measure is ``None``.
    """

    def __init__(self, version: int, dirs: dict[str, Path]) -> None:
        self.version = version
        self.dirs = dirs  # controller (or "unified") -> directory
        # the cgroup.procs files a process writes its pid to, to join (one a
        # hierarchy); named once, as pids() reads them at every check of a move
        self.join_files = [d / "cgroup.procs" for d in dict.fromkeys(dirs.values())]
        # the files read or written on every move, kept open: opening a cgroup file
        # costs more than the read or write itself
        self._open: dict[tuple[str, str, int], int] = {}

    def _fd(self, controller: str, name: str, mode: int) -> int | None:
        key = (controller, name, mode)
        fd = self._open.get(key)
        if fd is None:
            d = self.dirs.get(controller)
            if d is None:
                return None
            try:
                fd = self._open[key] = os.open(d / name, mode | os.O_CLOEXEC)
            except OSError:
                return None
        return fd

    def close_files(self) -> None:
        """Closes the files kept open (the cgroup can then be removed)."""
        for fd in self._open.values():
            with contextlib.suppress(OSError):
                os.close(fd)
        self._open.clear()

    def _read(self, controller: str, name: str) -> str | None:
        fd = self._fd(controller, name, os.O_RDONLY)
        if fd is None:
            return None
        try:
            return os.pread(fd, 1 << 16, 0).decode()
        except OSError:
            return None

    def _write(self, controller: str, name: str, value: str) -> bool:
        fd = self._fd(controller, name, os.O_WRONLY)
        if fd is None:
            return False
        try:
            os.write(fd, value.encode())
        except OSError:
            return False
        return True

    def limit(self, memory: int | None, processes: int | None) -> None:
        """Sets the memory (bytes, no swap) and process-count limits, each where its
        controller exists (``None``: no limit)."""
        if self.version == 1:
            if memory is not None:
                self._write("memory", "memory.limit_in_bytes", str(memory))
            if processes is not None:
                self._write("pids", "pids.max", str(processes))
        else:
            if memory is not None:
                self._write("unified", "memory.max", str(memory))
                self._write("unified", "memory.swap.max", "0")
            if processes is not None:
                self._write("unified", "pids.max", str(processes))

    def cpu_time(self) -> float | None:
        """User+sys CPU seconds of every process that ever ran in the cgroup."""
        if self.version == 1:
            usage = self._read("cpuacct", "cpuacct.usage")
            return None if usage is None else int(usage) / 1e9
        stat = self._read("unified", "cpu.stat")
        if stat is None:
            return None
        for line in stat.splitlines():
            key, _, value = line.partition(" ")
            if key == "usage_usec":
                return int(value) / 1e6
        return None

    def memory(self) -> int | None:
        """Resident memory of the cgroup (anonymous memory, not the page cache)."""
        keys: tuple[str, ...]
        if self.version == 1:
            stat = self._read("memory", "memory.stat")
            keys = ("total_rss", "total_rss_huge")
        else:
            stat = self._read("unified", "memory.stat")
            keys = ("anon",)
        if stat is None:
            return None
        total = 0
        for line in stat.splitlines():
            key, _, value = line.partition(" ")
            if key in keys:
                total += int(value)
        return total

    def oom_killed(self) -> bool:
        """True when the kernel killed a process of the cgroup for its memory limit."""
        name = "memory.oom_control" if self.version == 1 else "memory.events"
        text = self._read("memory" if self.version == 1 else "unified", name) or ""
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill" and int(value) > 0:
                return True
        return False

    @property
    def can_freeze(self) -> bool:
        """True when the cgroup can be frozen."""
        return "freezer" in self.dirs if self.version == 1 else "unified" in self.dirs

    def freeze(self, frozen: bool) -> None:
        """Freezes (or thaws) every process of the cgroup. A freeze waits briefly until
        every process is stopped, so none thinks on the opponent's time; a thaw returns
        at once (a process charged by its CPU time loses nothing while it wakes)."""
        if self.version == 1:
            want = "FROZEN" if frozen else "THAWED"
            self._write("freezer", "freezer.state", want)
            if frozen:
                self._await(
                    lambda: (self._read("freezer", "freezer.state") or want).strip() == want
                )
        else:
            self._write("unified", "cgroup.freeze", "1" if frozen else "0")
            if frozen:
                # the kernel signals a change of cgroup.events to poll(2)
                fd = self._fd("unified", "cgroup.events", os.O_RDONLY)
                self._await(
                    lambda: "frozen 1" in (self._read("unified", "cgroup.events") or "frozen 1"), fd
                )

    @staticmethod
    def _await(done: Callable[[], bool], fd: int | None = None, timeout: float = 0.2) -> None:
        """Waits up to ``timeout`` seconds until ``done()``: woken by a change of the file
        ``fd`` where the kernel reports one, else checking at short, growing intervals
        (a process stops within microseconds unless the kernel is busy)."""
        deadline = time.monotonic() + timeout
        poller = None
        if fd is not None:
            poller = select.poll()
            try:
                poller.register(fd, select.POLLPRI | select.POLLERR)
            except OSError:
                poller = None
        pause = 0.00005
        while not done():
            left = deadline - time.monotonic()
            if left <= 0:
                return
            if poller is not None:
                poller.poll(min(left, 0.01) * 1000)
            else:
                time.sleep(min(pause, left))
                pause = min(pause * 2, 0.002)

    def pids(self) -> list[int]:
        """The processes now in the cgroup, read from its first hierarchy's
        ``cgroup.procs``: a process joins every hierarchy before the program starts,
        and its children are born in all of them, so one holds them all (the referee
        asks at every check of a move; opened afresh each time, since the kernel
        lists it only once per opening)."""
        return self._listing() or []

    def _listing(self) -> list[int] | None:
        """:meth:`pids`, or None when no ``cgroup.procs`` could be read."""
        for f in self.join_files:
            try:
                return sorted(int(x) for x in f.read_bytes().split())
            except (OSError, ValueError):
                continue
        return None

    def kill(self, timeout: float = 2.0) -> bool:
        """Kills every process of the cgroup and waits until none is left (or
        ``timeout``): new ones started meanwhile are killed too. True when it was seen
        empty."""
        if self.version == 2:
            self._write("unified", "cgroup.kill", "1")
        deadline = time.monotonic() + timeout
        while True:
            pids = self._listing()
            if pids is None or time.monotonic() > deadline:
                return False
            if not pids:
                return True
            for pid in pids:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            if self.version == 1 and "freezer" in self.dirs:
                self._write("freezer", "freezer.state", "THAWED")
            time.sleep(0.005)

    def remove(self) -> None:
        """Removes the cgroup's directories (once it is empty)."""
        self.close_files()
        for d in dict.fromkeys(self.dirs.values()):
            for _ in range(50):
                try:
                    d.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.01)


def new_cgroup(version: int | None, parents: Sequence[tuple[str, str]]) -> Cgroup | None:
    """Makes a cgroup for one program under ``parents`` (controller, directory) of a
    ``version`` 1 or 2 hierarchy, or returns None where there are none (``version``
    ``None``, or no directory could be made).

    Names are ``arbiter-PID-N``, unique within this referee process.
    """
    if version is None:
        return None
    name = f"arbiter-{os.getpid()}-{next(_counter)}"
    dirs: dict[str, Path] = {}
    for controller, parent in parents:
        d = Path(parent) / name
        try:
            d.mkdir()
        except OSError:
            continue
        dirs[controller] = d
    if not dirs:
        return None
    return Cgroup(version, dirs)
