"""Confining a contest program: what the machine gives to hold it (:func:`detect`), and
the chain of launchers that puts a program behind it: a cgroup where the machine
gives one (the driver is :mod:`arbiter.referee.cgroups`), rlimits elsewhere.

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
import os
import shlex
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from arbiter.referee.cgroups import V1_CONTROLLERS, Cgroup

FILE_SIZE_LIMIT = 1 << 30
"""The largest file a program may write, in bytes (rlimit)."""

OPEN_FILES_LIMIT = 1024
"""The most files a program may have open at once (rlimit)."""

LAUNCHERS = ("sh", "prlimit", "unshare", "ip", "setpriv", "bwrap", "mount")
"""The launcher tools the referee looks for (each ``exec``s the next)."""

PROGRAM_UIDS = range(60000, 61000)
"""The uids the referee runs programs as when it is root, one free uid per program
(isolate's boxes use the same range); ``ARBITER_PROGRAM_UIDS`` changes it."""

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36


@dataclass(frozen=True, slots=True)
class Confinement:
    """What one program is held to: its memory (bytes), its process count, network,
    whether it may start other processes at all, whether it gets a cgroup where the
    machine has them (``--isolation rlimits`` takes it away), and the largest file it
    may write (bytes; ``None``: :data:`FILE_SIZE_LIMIT`); ``cpus`` the cores it runs
    on (none: any), set by ``taskset`` before anything of it starts."""

    memory_limit: int | None = None
    max_processes: int | None = 256
    network: bool = False
    single_process: bool = False
    cgroup: bool = True
    disk_limit: int | None = None
    cpus: tuple[int, ...] = ()


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

    @property
    def cgroup_version(self) -> int | None:
        """1 or 2 for the machine's cgroups, ``None`` where programs get none."""
        return {"cgroup v1": 1, "cgroup v2": 2}.get(self.kind)

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
        if self.disks and self.namespaces:
            shared = "no: behind namespaces, and at user in a mount namespace of its own"
        elif self.disks and self.launcher("unshare") and self.launcher("mount"):
            shared = "no at user (a mount namespace of its own); yes below user"
        else:
            shared = "yes: the machine's /tmp, /var/tmp and /dev/shm (needs a capped disk)"
        lines.append(f"  programs share the machine's temporary folders: {shared}")
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
    if confinement.cpus:  # first: whatever follows runs on those cores, the program too
        taskset = shutil.which("taskset") or "taskset"
        chain += [taskset, "--cpu-list", ",".join(map(str, confinement.cpus))]
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
