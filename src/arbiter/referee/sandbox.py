"""Confining a contest program: a cgroup where the machine gives one, rlimits elsewhere.

Contestants' programs are untrusted: they crash, hang, fork, detach children and
think on their opponent's time. What this machine gives decides how well the
referee can hold them (see :func:`detect` and ``arbiter doctor``):

- **cgroup v1 or v2** (root, or a delegated cgroup): each program runs in a cgroup
  of its own, joined before the program's first instruction. The cgroup gives the
  exact CPU and memory of everything the program starts, also what detached itself
  with ``setsid``; a process-count limit that stops fork bombs; a freeze for
  suspension; and a kill of every process in it.
- **rlimits** otherwise: core dumps off, a file-size and an open-files limit, an
  address-space limit where a memory limit is set; the referee becomes a child
  subreaper, so a detached grandchild is re-parented to it and killed at the end,
  though its CPU can no longer be told apart.

Always: the program gets a parent-death signal (it dies with its referee), and
every file it writes is held to its disk limit. Without ``network`` (the default) and
without bubblewrap's namespaces, a referee that is root runs it in network and IPC
namespaces of its own (``unshare``, and ``ip`` to bring up its loopback): a
loopback of its own, no SysV or POSIX message queue of anyone else's.

The confinement is applied by a chain of small launchers that each ``exec`` the
next (``sh`` to join the cgroup, ``prlimit``, ``unshare``, ``setpriv``), so the
program keeps the pid the referee started and nothing runs between fork and exec
in the referee's own process (safe with threads).
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import os
import select
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

V1_CONTROLLERS = ("cpuacct", "memory", "pids", "freezer")
"""The cgroup v1 controllers the referee uses, each optional."""

FILE_SIZE_LIMIT = 1 << 30
"""The largest file a program may write, in bytes (rlimit)."""

OPEN_FILES_LIMIT = 1024
"""The most files a program may have open at once (rlimit)."""

LAUNCHERS = ("sh", "prlimit", "unshare", "ip", "setpriv", "bwrap")
"""The launcher tools the referee looks for (each ``exec``s the next)."""

PROGRAM_UIDS = range(60000, 61000)
"""The uids the referee runs programs as when it is root, one free uid per program
(isolate's boxes use the same range); ``ARBITER_PROGRAM_UIDS`` changes it."""

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
_counter = itertools.count(1)


@dataclass(frozen=True, slots=True)
class Confinement:
    """What one program is held to: its memory (bytes), its process count, network,
    whether it may start other processes at all, whether it gets a cgroup where the
    machine has them (``--isolation rlimits`` takes it away), and the largest file it
    may write (bytes; ``None``: :data:`FILE_SIZE_LIMIT`)."""

    memory_limit: int | None = None
    max_processes: int | None = 256
    network: bool = False
    single_process: bool = False
    cgroup: bool = True
    disk_limit: int | None = None


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

    def limit(self, confinement: Confinement) -> None:
        """Sets the memory and process-count limits where the controllers exist."""
        if self.version == 1:
            if confinement.memory_limit is not None:
                self._write("memory", "memory.limit_in_bytes", str(confinement.memory_limit))
            if confinement.max_processes is not None:
                self._write("pids", "pids.max", str(confinement.max_processes))
        else:
            if confinement.memory_limit is not None:
                self._write("unified", "memory.max", str(confinement.memory_limit))
                self._write("unified", "memory.swap.max", "0")
            if confinement.max_processes is not None:
                self._write("unified", "pids.max", str(confinement.max_processes))

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


@dataclass(frozen=True, slots=True)
class Protection:
    """What this machine gives the referee to hold a program (see :func:`detect`)."""

    kind: str  # "cgroup v1", "cgroup v2" or "rlimits"
    parents: tuple[tuple[str, str], ...]  # (controller, directory) where cgroups are made
    launchers: tuple[tuple[str, str], ...]  # (tool, path) of the launchers found
    network_namespaces: bool
    root: bool = False  # the referee runs as root
    own_uids: bool = False  # programs can run as uids of their own (root and setpriv)
    namespaces: bool = False  # bubblewrap runs here (PID, mount, IPC, UTS namespaces)
    disks: bool = False  # a program's disk can be a size-limited file system of its own
    uids: range = PROGRAM_UIDS  # the uids programs run as, when they get their own

    @property
    def cgroups(self) -> bool:
        """True when programs get a cgroup of their own."""
        return self.kind != "rlimits"

    def launcher(self, name: str) -> str | None:
        """The path of a launcher tool, or None."""
        return dict(self.launchers).get(name)

    def describe(self) -> list[str]:
        """Says what is in force, and its limits, for ``arbiter doctor``."""
        lines = [f"confinement: {self.kind}"]
        if self.cgroups:
            for controller, path in self.parents:
                lines.append(f"  {controller}: cgroups made under {path}")
            have = {c for c, _ in self.parents}
            if self.kind == "cgroup v1":
                missing = [c for c in V1_CONTROLLERS if c not in have]
            else:
                missing = []
            if missing:
                lines.append(
                    f"  missing controllers: {', '.join(missing)} (psutil measures instead)"
                )
        else:
            lines.append(
                "  no cgroup: CPU and memory measured with psutil; a detached grandchild is "
                "found (the referee is a subreaper) and killed, but its CPU is not charged; "
                "no process-count limit"
            )
        for tool in LAUNCHERS:
            where = self.launcher(tool)
            lines.append(f"  {tool}: {where or 'not found'}")
        pdeath = "yes" if self.launcher("setpriv") else "no (setpriv missing)"
        lines.append(f"  programs die with the referee: {pdeath}")
        if self.network_namespaces or self.namespaces:
            net = "yes, by default (--network lets them use it)"
        else:
            net = "no (needs root and unshare, or bubblewrap)"
        lines.append(f"  programs cut off from the network: {net}")
        disk = (
            "yes: its work directory, /tmp and /dev/shm on a size-limited file system"
            if self.disks
            else "no (needs root, and the right to mount): only each file it writes"
        )
        lines.append(f"  what a program writes capped (--disk-limit): {disk}")
        if self.own_uids:
            uids = f"yes: {self.uids.start}-{self.uids.stop - 1}, one free uid for each program"
        else:
            uids = "no (needs root and setpriv)"
        lines.append(f"  a uid of its own for each program: {uids}")
        if self.namespaces:
            how = "" if self.root else " (in a user namespace)"
            ns = f"yes: bubblewrap{how}"
        elif self.launcher("bwrap"):
            ns = "no (bubblewrap is here but cannot make namespaces: user namespaces off?)"
        else:
            ns = "no (install bubblewrap)"
        lines.append(f"  PID, mount, IPC, UTS and network namespaces: {ns}")
        return lines


def _mounts() -> list[tuple[str, str, set[str]]]:
    """(mount point, file system type, options) of every mount."""
    found = []
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/mounts").read_text().splitlines():
            parts = line.split()
            if len(parts) >= 4:
                found.append((parts[1], parts[2], set(parts[3].split(","))))
    return found


def _own_cgroups() -> dict[str, str]:
    """The referee's own cgroup path per v1 controller, and ``""`` for v2."""
    own: dict[str, str] = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            for c in controllers.split(",") if controllers else [""]:
                own[c] = path
    return own


def _writable_dir(path: Path) -> bool:
    probe = path / f"arbiter-probe-{os.getpid()}"
    try:
        probe.mkdir()
    except OSError:
        return False
    with contextlib.suppress(OSError):
        probe.rmdir()
    return True


@cache
def detect() -> Protection:
    """Finds what this machine gives (cached). ``ARBITER_SANDBOX=rlimits`` (or ``v1``,
    ``v2``) forces a kind, for testing the others."""
    forced = os.environ.get("ARBITER_SANDBOX", "")
    launchers = tuple(
        (tool, path)
        for tool in LAUNCHERS
        if (path := shutil.which(tool, path="/usr/bin:/bin:/usr/sbin:/sbin"))
    )
    tools = dict(launchers)
    root = os.geteuid() == 0
    kind, parents = _cgroups(forced) if "sh" in tools else ("rlimits", ())
    return Protection(
        kind,
        parents,
        launchers,
        network_namespaces=root and "unshare" in tools,
        root=root,
        own_uids=root and "setpriv" in tools and not forced_off("uid"),
        namespaces="bwrap" in tools and not forced_off("ns") and _bwrap_works(tools["bwrap"]),
        disks=root and not forced_off("disk") and _tmpfs_works(),
        uids=program_uids(),
    )


def _cgroups(forced: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """The kind of cgroups the referee can make here and where: ``cgroup v2`` with its
    parent, ``cgroup v1`` with a parent per controller, or ``rlimits`` and none."""
    if forced == "rlimits":
        return "rlimits", ()
    mounts = _mounts()
    own = _own_cgroups()
    if forced in ("", "v2"):
        for point, fstype, _ in mounts:
            if fstype == "cgroup2" and (forced == "v2" or point == "/sys/fs/cgroup"):
                parent = Path(point) / own.get("", "/").lstrip("/")
                if _writable_dir(parent):
                    return "cgroup v2", (("unified", str(parent)),)
    if forced in ("", "v1"):
        parents = []
        for controller in V1_CONTROLLERS:
            for point, fstype, options in mounts:
                if fstype == "cgroup" and controller in options:
                    parent = Path(point) / own.get(controller, "/").lstrip("/")
                    if _writable_dir(parent):
                        parents.append((controller, str(parent)))
                    break
        if any(c == "cpuacct" for c, _ in parents):
            return "cgroup v1", tuple(parents)
    return "rlimits", ()


def forced_off(wall: str) -> bool:
    """True when ``ARBITER_WALLS_OFF`` (a comma-separated list of ``uid``, ``ns`` and
    ``disk``) takes a wall away, to test how the referee does without it."""
    return wall in os.environ.get("ARBITER_WALLS_OFF", "").split(",")


def program_uids() -> range:
    """The uids programs run as when they get their own: ``ARBITER_PROGRAM_UIDS``
    (``FIRST-LAST``), else :data:`PROGRAM_UIDS`. A malformed value is ignored."""
    text = os.environ.get("ARBITER_PROGRAM_UIDS", "")
    first, _, last = text.partition("-")
    if first.isdigit() and last.isdigit() and 0 < int(first) <= int(last) < 2**31:
        return range(int(first), int(last) + 1)
    return PROGRAM_UIDS


def mount_tmpfs(where: str, options: str) -> bool:
    """Mounts a tmpfs with ``options`` on the folder ``where`` (no device files, no
    set-uid programs); False (``errno`` set) where it cannot: the referee is not root,
    or a container took the right to mount away."""
    libc = ctypes.CDLL(None, use_errno=True)
    flags = 2 | 4  # MS_NOSUID | MS_NODEV
    done = libc.mount(b"tmpfs", os.fsencode(where), b"tmpfs", flags, options.encode())
    return bool(done == 0)


def unmount(where: str) -> None:
    """Detaches the file system mounted on ``where`` (lazily: it goes once unused)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.umount2(os.fsencode(where), 2)  # MNT_DETACH


def _tmpfs_works() -> bool:
    """True when this process can mount a size-limited tmpfs (tried on a folder of its
    own, unmounted at once)."""
    with tempfile.TemporaryDirectory(prefix="arbiter-probe-") as folder:
        if not mount_tmpfs(folder, "size=4096"):
            return False
        unmount(folder)
    return True


def _bwrap_works(bwrap: str) -> bool:
    """True when bubblewrap can make the namespaces here (user namespaces may be off
    for a user that is not root, or refused inside a container)."""
    argv = [bwrap, "--ro-bind", "/", "/", "--unshare-pid", "--unshare-ipc", "--unshare-uts"]
    if os.geteuid() != 0:
        argv.append("--unshare-user")
    try:
        done = subprocess.run(
            [*argv, "--", "true"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def new_cgroup(protection: Protection) -> Cgroup | None:
    """Makes a cgroup for one program, or returns None where there are none.

    Names are ``arbiter-PID-N``, unique within this referee process.
    """
    if not protection.cgroups:
        return None
    name = f"arbiter-{os.getpid()}-{next(_counter)}"
    dirs: dict[str, Path] = {}
    for controller, parent in protection.parents:
        d = Path(parent) / name
        try:
            d.mkdir()
        except OSError:
            continue
        dirs[controller] = d
    if not dirs:
        return None
    return Cgroup(1 if protection.kind == "cgroup v1" else 2, dirs)


def launch_argv(
    argv: Sequence[str],
    protection: Protection,
    confinement: Confinement,
    cgroup: Cgroup | None,
    box: Sequence[str] | None = None,
) -> list[str]:
    """Returns ``argv`` behind the launchers that confine it (each execs the next).

    ``box`` is the end of the chain that puts the program in its box (its namespaces
    and uid, :meth:`arbiter.referee.box.Box.prefix`); without one the last launcher
    only makes the program die with its parent.
    """
    chain: list[str] = []
    if cgroup is not None:
        sh = protection.launcher("sh") or "/bin/sh"
        join = "; ".join(f"echo $$ > {shlex.quote(str(f))}" for f in cgroup.join_files)
        chain += [sh, "-c", f'{join}; exec "$@"', "arbiter-agent"]
    prlimit = protection.launcher("prlimit")
    if prlimit is not None:
        fsize = confinement.disk_limit or FILE_SIZE_LIMIT
        chain += [prlimit, "--core=0", f"--nofile={OPEN_FILES_LIMIT}", f"--fsize={fsize}"]
        if cgroup is None and confinement.memory_limit is not None:
            # address space counts reserved memory too: a generous multiple of the limit
            chain.append(f"--as={4 * confinement.memory_limit + (256 << 20)}")
        chain.append("--")
    namespaced = box is not None and protection.launcher("bwrap") in box
    unshare = protection.launcher("unshare")
    if not confinement.network and not namespaced and unshare and protection.network_namespaces:
        chain += [unshare, "--net", "--ipc", "--"]
        ip = protection.launcher("ip")
        if ip is not None:  # its own loopback up, as bubblewrap's is
            sh = protection.launcher("sh") or "/bin/sh"
            up = f'{shlex.quote(ip)} link set lo up 2>/dev/null; exec "$@"'
            chain += [sh, "-c", up, "arbiter-net"]
    if box:
        return [*chain, *box, *argv]
    setpriv = protection.launcher("setpriv")
    if setpriv is not None:
        chain += [setpriv, "--pdeathsig", "KILL", "--"]
    return [*chain, *argv]


@cache
def become_subreaper() -> bool:
    """Makes this process the reaper of its orphaned descendants (Linux), so a program's
    detached grandchild is re-parented here and can be found and killed."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def die_with_parent(sig: int = signal.SIGTERM) -> bool:
    """Asks the kernel to send ``sig`` to this process when its parent dies (a pool
    worker whose referee was killed)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_PDEATHSIG, sig, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False
