"""A watchdog that kills a referee's programs if the referee dies first.

A program's direct process gets a parent-death signal, but what it started does
not, and a referee killed with SIGKILL runs no clean-up. So the first program a
referee process starts also starts one small watchdog process in a session of its
own. The referee tells it, over a pipe, each program's process group and cgroup
as it starts and ends, and each box folder as it is made and removed; when the pipe
reaches end of file (the referee is gone, however it ended) the watchdog thaws,
kills every group and cgroup still listed, removes the cgroups, and unmounts and
removes the box folders (nothing of a game is left in the temporary directory).
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import threading
from pathlib import Path

from arbiter.referee.cgroups import Cgroup

_WATCHDOG = r"""
import os, shutil, signal, sys, time
groups, folders = {}, set()
for line in sys.stdin:
    op, _, rest = line.rstrip("\n").partition("\t")
    if op == "F":
        folders.add(rest)
        continue
    if op == "f":
        folders.discard(rest)
        continue
    pid, *dirs = rest.split("\t")
    if op == "+":
        groups[pid] = dirs
    else:
        groups.pop(pid, None)
for pid, dirs in groups.items():
    try:
        os.killpg(int(pid), signal.SIGKILL)
    except OSError:
        pass
    for d in dirs:  # a frozen process dies only once thawed
        for name, value in (("freezer.state", "THAWED"), ("cgroup.freeze", "0")):
            try:
                with open(os.path.join(d, name), "w") as f:
                    f.write(value)
            except OSError:
                pass
    for _ in range(100):
        left = set()
        for d in dirs:
            try:
                left.update(int(x) for x in open(os.path.join(d, "cgroup.procs")).read().split())
            except OSError:
                pass
        if not left:
            break
        for p in left:
            try:
                os.kill(p, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.01)
    for d in dirs:
        try:
            os.rmdir(d)
        except OSError:
            pass
points = []
try:
    for line in open("/proc/self/mounts"):
        fields = line.split()
        if len(fields) > 1:
            points.append(fields[1])
except OSError:
    pass
libc = None
for folder in folders:
    for point in sorted(points, key=len, reverse=True):  # a box's capped disk
        if point.startswith(folder.rstrip("/") + "/"):
            import ctypes
            libc = libc or ctypes.CDLL(None, use_errno=True)
            libc.umount2(point.encode(), 2)  # MNT_DETACH
    shutil.rmtree(folder, ignore_errors=True)
"""


class Watchdog:
    """This referee process's watchdog; started on first use."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()

    def _send(self, line: str) -> None:
        with self._lock:
            if self._proc is None or self._proc.poll() is not None:
                self._proc = subprocess.Popen(
                    [sys.executable, "-c", _WATCHDOG],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                )
            assert self._proc.stdin is not None
            with contextlib.suppress(OSError):
                self._proc.stdin.write(line.encode() + b"\n")
                self._proc.stdin.flush()

    @property
    def pid(self) -> int | None:
        """The watchdog's pid, while it runs."""
        proc = self._proc
        return proc.pid if proc is not None and proc.poll() is None else None

    def watch(self, pid: int, cgroup: Cgroup | None) -> None:
        """Lists a program (its process group is ``pid``) and its cgroup."""
        dirs = [] if cgroup is None else [str(Path(f).parent) for f in cgroup.join_files]
        self._send("\t".join(["+", str(pid), *dirs]))

    def forget(self, pid: int) -> None:
        """The program has been killed and its cgroup removed."""
        if self._running():
            self._send(f"-\t{pid}")

    def watch_folder(self, path: str) -> None:
        """Lists a folder to remove if the referee dies (a program's box)."""
        self._send(f"F\t{path}")

    def forget_folder(self, path: str) -> None:
        """The folder has been removed."""
        if self._running():
            self._send(f"f\t{path}")

    def _running(self) -> bool:
        with self._lock:
            return self._proc is not None and self._proc.poll() is None


WATCHDOG = Watchdog()
"""The watchdog of this process."""
