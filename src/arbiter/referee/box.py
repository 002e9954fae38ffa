"""A program's box for one game: its work directory, its own uid, what it may see.

A :class:`Box` is made by the seat that runs a program, for one game, and closed
when the game ends (isolate's boxes, nsjail's jails). What it holds depends on the
walls of :mod:`arbiter.referee.isolation`:

- **Always** a work directory of its own: ``arbiter-game-PID-XXXX/work`` in the
  temporary directory, fresh for each game. A program with a directory of its own
  (``--dirs``, ``dir =``) gets a copy of it there, so games played at once never
  share files and the original is never written. The parent folder belongs to the
  referee and no program can write it, so no program can swap its work directory
  for a link to somewhere else. Where the machine lets the referee mount, the work
  directory lives on a size-limited file system of its own (its disk limit), with
  the program's private ``/tmp`` and ``/dev/shm`` beside it.
- **A uid of its own** (root): a free uid of :data:`~arbiter.referee.sandbox.PROGRAM_UIDS`,
  held with a lock for the game (games played by other referee processes at the same
  time take other uids), its work directory made its own. Before the uid is used and
  after, any process still running under it is killed, unless the referee knows none
  can be (see :data:`CLEAN` and :attr:`Box.contained`); without a mount namespace the
  files it left in the shared temporary directories are removed.
- **Namespaces** (bubblewrap): the program sees the system (``/usr``, ``/etc``,
  the libraries) read-only, the Python the referee runs on and arbiter's package
  read-only (so a built-in agent runs as a program), its program files read-only
  (the files and directories its command names, the interpreter of a script, the
  paths ``--expose`` names, each with its own permissions), a private ``/dev`` and
  ``/proc``, a private and writable ``/tmp`` and ``/dev/shm``, and its work
  directory; nothing else: not the referee's home, key, records, database or working
  directory, not another program's files, and no network but a loopback of its own
  (unless it is given the network).

A box never decides who wins; a box that cannot be made raises
:class:`~arbiter.errors.Crash` (the program cannot start) or
:class:`~arbiter.errors.ConfigError` (the machine's set-up is wrong).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pwd
import select
import shutil
import signal
import stat
import sys
import tempfile
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path

import psutil

from arbiter.errors import ConfigError, Crash
from arbiter.referee.isolation import Walls
from arbiter.referee.sandbox import Protection, detect, mount_tmpfs, unmount
from arbiter.referee.watchdog import WATCHDOG

BOX_PREFIX = "arbiter-game-"
"""How the folders of boxes are named in the temporary directory."""

SYSTEM_PATHS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
"""The system a program sees read-only in its namespaces."""

SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"
"""The ``PATH`` every program gets, after its own command's and interpreter's folders
(:func:`command_folders`): the system's tools, none of the referee's own folders (a
home's ``~/.cargo/bin``, say)."""

SHARED_TEMP = ("/tmp", "/var/tmp", "/dev/shm")
"""World-writable folders a program without a mount namespace may leave files in."""

TMP_SIZE = 64 << 20
"""The size of a namespaced program's private ``/tmp`` and ``/dev/shm`` each where its
disk is not capped as a whole (a referee that is not root cannot mount its file
system; ``TMPDIR`` names its work directory)."""

DEVICE_PATHS = ("/dev", "/proc", "/sys")
"""Where a path on a program's command line is never bound into its box: its own
``/dev`` and ``/proc`` stand there (``--log /dev/stderr`` names its own)."""

DISK_FILES = 1 << 16
"""How many files and folders a program may make on its capped disk (a file system
of its own counts them; without a limit each costs the machine's memory)."""


_LOCK_DIRS = ("/run/arbiter/uids",)

CLEAN = b"clean"
"""What a uid's lock file holds when its last holder let it go with nothing of it left
running. Taking the uid overwrites it with :data:`TAKEN`, so a holder that dies without
letting go (a referee killed outright) leaves that, and the next holder kills what was
left. Looking through every process of the machine for leftovers costs milliseconds,
twice a program a game, so it is done only when this mark is missing."""

TAKEN = b"taken"
"""What a uid's lock file holds while the uid is held (as long as :data:`CLEAN`: the
mark is overwritten in place, as shortening a file costs more than writing it)."""


class UidLease:
    """A uid held for one program: a lock on a file of its own, released by
    :meth:`release` or when this process ends (POSIX record locks are per process,
    so a worker forked later does not inherit it)."""

    def __init__(self, uid: int, fd: int) -> None:
        self.uid = uid
        self._fd: int | None = fd

    def release(self, *, empty: bool = False) -> None:
        """Lets the uid go, first killing what still runs under it, unless ``empty``
        (the caller knows nothing does: see :attr:`Box.contained`). The lock file is
        then marked :data:`CLEAN`, so the next holder need not look for leftovers."""
        if self._fd is None:
            return
        if empty or kill_uid(self.uid):
            with contextlib.suppress(OSError):
                os.pwrite(self._fd, CLEAN, 0)
        with contextlib.suppress(OSError):
            os.close(self._fd)  # closing the file drops its lock
        self._fd = None
        _HELD.discard(self.uid)


_HELD: set[int] = set()
"""The uids this process holds: a process may lock again what it has locked, so the
lock keeps other processes out and this set the other seats of this one."""


def _lock_dir() -> Path:
    """The folder of the uid locks: ``/run/arbiter/uids``, or one in the temporary
    directory, made by root and private to it.

    :raises ConfigError: if neither can be made safely.
    """
    for where in (*_LOCK_DIRS, os.path.join(tempfile.gettempdir(), "arbiter-uids-0")):
        path = Path(where)
        with contextlib.suppress(OSError):
            path.mkdir(mode=0o700, parents=True, exist_ok=True)
            info = path.lstat()
            if stat.S_ISDIR(info.st_mode) and info.st_uid == 0 and not info.st_mode & 0o022:
                return path
    raise ConfigError("cannot make a private folder for the programs' uid locks")


def lease_uid(uids: range) -> UidLease:
    """Takes a free uid of ``uids`` (no account of the system has it and no other
    program holds it), killing anything a program left running under it (unless its
    last holder marked it :data:`CLEAN`).

    :raises ConfigError: when every uid of the range is taken.
    """
    folder = _lock_dir()
    for uid in uids:
        if uid in _HELD:
            continue
        with contextlib.suppress(KeyError):
            pwd.getpwuid(uid)
            continue  # an account of this machine: never a program's
        fd = os.open(folder / f"{uid}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        try:
            clean = os.pread(fd, len(CLEAN), 0) == CLEAN
            os.pwrite(fd, TAKEN, 0)
        except OSError:
            clean = False
        if not clean:
            kill_uid(uid)
        _HELD.add(uid)
        return UidLease(uid, fd)
    raise ConfigError(
        f"every program uid ({uids.start}-{uids.stop - 1}) is in use: "
        "set ARBITER_PROGRAM_UIDS to a wider range"
    )


def kill_uid(uid: int) -> bool:
    """Kills every process whose real or effective uid is ``uid``; True when none is
    left (False: some would not die within about ten seconds).

    Each is signalled through a pidfd taken before its uid is read again, so a pid
    that a process of someone else took over in between is never signalled. The
    machine's processes are read from ``/proc`` directly: psutil's objects cost four
    times as much as the reading."""
    for _ in range(20):
        held = []
        for pid in _pids_of(uid):
            with contextlib.suppress(OSError):
                fd = os.pidfd_open(pid)
                if _uid_of(pid, uid):  # the pidfd holds this process, whatever the pid
                    signal.pidfd_send_signal(fd, signal.SIGKILL)
                    held.append(fd)
                else:
                    os.close(fd)
        if not held:
            return True
        try:
            for fd in held:  # each pidfd turns readable when its process has exited
                select.select([fd], [], [], 0.5)
        finally:
            for fd in held:
                os.close(fd)
    return False


def _uid_of(pid: int, uid: int) -> bool:
    """True if process ``pid``'s real or effective uid is ``uid`` (False if it is gone
    or dead: a zombie waits only for its parent)."""
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            text = f.read()
    except OSError:
        return False
    at = text.find(b"\nUid:")
    if at < 0 or b"\nState:\tZ" in text:
        return False
    real, effective = text[at + 5 : text.find(b"\n", at + 1)].split()[:2]
    return uid in (int(real), int(effective))


def _pids_of(uid: int) -> list[int]:
    """The processes of the machine whose real or effective uid is ``uid``."""
    return [int(name) for name in os.listdir("/proc") if name.isdigit() and _uid_of(int(name), uid)]


def remove_files_of(uid: int, folders: Iterable[str] = SHARED_TEMP) -> None:
    """Removes what ``uid`` left at the top of the shared temporary folders."""
    for folder in folders:
        with contextlib.suppress(OSError), os.scandir(folder) as entries:
            for entry in entries:
                with contextlib.suppress(OSError):
                    if entry.stat(follow_symlinks=False).st_uid != uid:
                        continue
                    if entry.is_dir(follow_symlinks=False):
                        shutil.rmtree(entry.path, ignore_errors=True)
                    else:
                        os.unlink(entry.path)


def sweep_boxes(folder: str | None = None) -> None:
    """Removes the box folders of referee processes that no longer run (a referee
    killed outright leaves its boxes behind; the watchdog removes them too)."""
    folder = folder or tempfile.gettempdir()
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            if not entry.name.startswith(BOX_PREFIX):
                continue
            owner = entry.name[len(BOX_PREFIX) :].split("-", 1)[0]
            if owner.isdigit() and not psutil.pid_exists(int(owner)):
                with contextlib.suppress(OSError):
                    if entry.stat(follow_symlinks=False).st_uid == os.geteuid():
                        remove_box(entry.path)


_swept = False


class Box:
    """One program's box for one game; see the module docstring.

    ``own_dir`` is the program's own directory (copied into the work directory),
    ``argv`` its command (the files it names are its program files), ``expose``
    more paths it may read, ``search`` the ``PATH`` its command is looked up in,
    ``disk_limit`` the bytes it may write (see :meth:`_make_disk`).

    :raises Crash: if the work directory cannot be made or the program's directory
        cannot be copied.
    :raises ConfigError: if no program uid is free.
    """

    def __init__(
        self,
        walls: Walls,
        *,
        own_dir: str | None = None,
        argv: Sequence[str] = (),
        expose: Sequence[str] = (),
        search: str | None = None,
        name: str = "",
        protection: Protection | None = None,
        disk_limit: int | None = None,
    ) -> None:
        global _swept
        if not _swept:
            _swept = True
            sweep_boxes()
        self.walls = walls
        self.protection = protection or detect()
        self.name = name or " ".join(argv)
        self.lease: UidLease | None = None
        self._running = 0  # runs started in the box and not yet seen to end
        self._strays = False  # a run ended without its cgroup seen empty
        self.folder = tempfile.mkdtemp(prefix=f"{BOX_PREFIX}{os.getpid()}-")
        WATCHDOG.watch_folder(self.folder)
        self.disk: str | None = None  # the capped file system, where one is mounted
        self.path = os.path.join(self.folder, "work")
        self.folders: list[str] = []  # its command's and interpreter's folders, for PATH
        try:
            if walls.own_uid:
                self.lease = lease_uid(self.protection.uids)
            if disk_limit is not None and self.protection.disks:
                self._make_disk(disk_limit, own_dir)
            self._make_work(own_dir)
        except BaseException:
            self.close()
            raise
        self.read_only = self._program_files(argv, expose, search)

    def _make_disk(self, limit: int, own_dir: str | None) -> None:
        """Mounts a file system of ``limit`` bytes (and :data:`DISK_FILES` files), more
        the size of ``own_dir``, that holds the program's work directory and, behind
        namespaces, its ``/tmp`` and ``/dev/shm``: what it writes fills that, never the
        referee's disk, and it sees ENOSPC when it is full. Its pages are memory, so
        they count towards the program's memory limit where it has one. Where the
        mount fails after all, the box does without (each file is held to the limit).
        """
        size, files = _tree_size(own_dir) if own_dir is not None else (0, 0)
        disk = os.path.join(self.folder, "disk")
        os.mkdir(disk, 0o711)
        options = f"size={limit + size},nr_inodes={DISK_FILES + files},mode=0711"
        if not mount_tmpfs(disk, options):
            os.rmdir(disk)
            return
        self.disk = disk
        self.path = os.path.join(disk, "work")
        for name in ("tmp", "shm"):  # its own, or open to all as the system's are
            folder = os.path.join(disk, name)
            os.mkdir(folder)
            if self.lease is not None:
                os.chown(folder, self.lease.uid, self.lease.uid)
            os.chmod(folder, 0o700 if self.lease is not None else 0o1777)

    @property
    def uid(self) -> int | None:
        """The program's own uid, or None (it runs as the referee's user)."""
        return None if self.lease is None else self.lease.uid

    def _make_work(self, own_dir: str | None) -> None:
        try:
            if own_dir is not None:
                shutil.copytree(own_dir, self.path, symlinks=True)
            else:
                os.mkdir(self.path)
            os.chmod(self.path, 0o700)
            if self.lease is not None:
                os.chmod(self.folder, 0o711)  # the program may pass, not list or write
                _chown_tree(self.path, self.lease.uid)
        except OSError as e:
            what = f"copy {own_dir!r}" if own_dir is not None else "make its work directory"
            why = e.strerror or str(e)
            raise Crash(f"{self.name}: cannot {what}: {why}", f"cannot {what}: {why}") from None

    # -- what it sees ----------------------------------------------------------

    def _program_files(
        self,
        argv: Sequence[str],
        expose: Sequence[str],
        search: str | None,
    ) -> list[str]:
        """The paths the program may read besides the system and its work directory:
        the files its command names, the platform's Python and arbiter's package, and
        ``expose``. Each keeps its own permissions: a program with a uid of its own
        reads only what others may read (its own directory is copied into its work
        directory and made its own)."""
        found: dict[str, None] = {}

        def add(path: str, depth: int = 0) -> None:
            if not os.path.isabs(path) or not os.path.lexists(path) or depth > 4:
                return
            path = os.path.normpath(path)
            if path in found or _under(path, (*SYSTEM_PATHS, *DEVICE_PATHS, self.folder)):
                return
            found[path] = None
            real = os.path.realpath(path)
            if real != path:
                add(real, depth + 1)
            interpreter = _interpreter(real)
            if interpreter is not None:
                add(interpreter, depth + 1)

        for i, arg in enumerate(argv):
            if i == 0:
                if os.sep not in arg:
                    arg = shutil.which(arg, path=search) or arg
                self.folders = command_folders(arg, search)  # found once, for both
            add(arg)
        for path in (*python_paths(), *expose):
            add(path)
        # a path inside another one is bound with it
        ordered = sorted(found)
        kept: list[str] = []
        for path in ordered:
            if not any(_under(path, (k,)) for k in kept):
                kept.append(path)
        return kept

    def prefix(self, *, network: bool) -> list[str]:
        """The launchers that put the program in this box, up to (and with) the one
        that makes it die with its parent: bubblewrap's namespaces and view, then
        ``setpriv`` for its uid."""
        chain: list[str] = []
        bwrap = self.protection.launcher("bwrap")
        if self.walls.namespaces and bwrap is not None:
            chain += [bwrap, *self.view(network=network), "--"]
        setpriv = self.protection.launcher("setpriv")
        if setpriv is not None:
            chain.append(setpriv)
            if self.lease is not None:
                uid = str(self.lease.uid)
                chain += ["--reuid", uid, "--regid", uid, "--clear-groups"]
                chain += ["--inh-caps=-all", "--bounding-set=-all"]
            if self.walls.own_uid or self.walls.namespaces:
                chain.append("--no-new-privs")
            chain += ["--pdeathsig", "KILL", "--"]
        return chain

    def view(self, *, network: bool) -> list[str]:
        """bubblewrap's arguments for the program's namespaces and file system."""
        args = ["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]
        args += ["--hostname", "arbiter", "--die-with-parent"]
        if not self.protection.root:
            args.append("--unshare-user")
        if not network:
            args.append("--unshare-net")
        for path in SYSTEM_PATHS:
            if os.path.islink(path):
                args += ["--symlink", os.readlink(path), path]
            elif os.path.isdir(path):
                args += ["--ro-bind", path, path]
        args += ["--proc", "/proc", "--dev", "/dev"]
        if self.disk is not None:  # on its capped disk, its own (writable, private)
            args += ["--bind", os.path.join(self.disk, "tmp"), "/tmp"]
            args += ["--bind", os.path.join(self.disk, "shm"), "/dev/shm"]
        else:
            for where in ("/tmp", "/dev/shm"):
                args += ["--perms", "1777", "--size", str(TMP_SIZE), "--tmpfs", where]
        made = {"/", "/tmp", *SYSTEM_PATHS}

        def folders_to(path: str) -> list[str]:
            # bubblewrap makes missing folders private to root: make them passable
            out = []
            for parent in reversed(Path(path).parents):
                if str(parent) not in made:
                    made.add(str(parent))
                    out += ["--perms", "0755", "--dir", str(parent)]
            return out

        for path in self.read_only:
            args += folders_to(path)
            if os.path.islink(path):
                args += ["--symlink", os.readlink(path), path]
            else:
                args += ["--ro-bind", path, path]
        args += folders_to(self.path)
        args += ["--bind", self.path, self.path, "--chdir", self.path]
        return args

    def started(self) -> None:
        """A run of the program has started in the box."""
        self._running += 1

    def ended(self, *, contained: bool) -> None:
        """A run of the program has ended: ``contained`` when its cgroup, which holds
        everything the run ever started, was seen empty after its kill."""
        self._running -= 1
        self._strays = self._strays or not contained

    @property
    def contained(self) -> bool:
        """True when nothing can still run under the box's uid: every run ended with
        its cgroup seen empty, behind namespaces (no way out to the rest of the
        machine's daemons), so there is no need to look for what it left running."""
        return self.walls.namespaces and self._running == 0 and not self._strays

    def close(self) -> None:
        """Removes the work directory and lets the uid go (killing what still runs
        under it, unless the box is :attr:`contained`; without namespaces, removing
        what it left in the shared folders)."""
        if self.lease is not None:
            uid = self.lease.uid
            self.lease.release(empty=self.contained)
            self.lease = None
            if not self.walls.namespaces:
                remove_files_of(uid)
        remove_box(self.folder)
        self.disk = None
        WATCHDOG.forget_folder(self.folder)


def unmount_under(folder: str) -> None:
    """Detaches every file system mounted in ``folder`` (a box's capped disk), deepest
    first, so removing the folder removes everything."""
    prefix = folder.rstrip("/") + "/"
    points = []
    with contextlib.suppress(OSError), open("/proc/self/mounts", "rb") as f:
        for line in f:
            fields = line.split()
            if len(fields) > 1:
                point = os.fsdecode(fields[1]).replace("\\040", " ")
                if point.startswith(prefix):
                    points.append(point)
    for point in sorted(points, key=len, reverse=True):
        unmount(point)


def remove_box(folder: str) -> None:
    """Removes a box's folder, its capped disk first unmounted."""
    unmount_under(folder)
    shutil.rmtree(folder, ignore_errors=True)


def command_folders(command: str, search: str | None) -> list[str]:
    """The folders a program's ``PATH`` must hold besides the system's: that of its
    command, looked up in ``search`` (``python3`` in a virtual environment), and that
    of the interpreter a script asks ``/usr/bin/env`` for (``#!/usr/bin/env python3``
    finds the same Python as the referee's ``PATH``).

    >>> command_folders("/bin/sh", None)
    []
    """
    found = shutil.which(command, path=search) if os.sep not in command else command
    out: list[str] = []
    if found is None:
        return out
    folder = os.path.dirname(os.path.abspath(found))
    if folder not in SYSTEM_PATH.split(":"):
        out.append(folder)
    words = _shebang(os.path.realpath(found))
    if len(words) > 1 and os.path.basename(words[0]) == "env":
        name = next((w for w in words[1:] if not w.startswith("-")), None)
        if name is not None and os.sep not in name:
            out += command_folders(name, search)
    return list(dict.fromkeys(out))


@cache
def python_paths() -> tuple[str, ...]:
    """The Python the referee runs on (its prefixes) and arbiter's own package: a
    built-in agent run as a program needs them, and they hold nothing private (the
    same for the whole life of the process, so found once)."""
    import arbiter

    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    paths.add(str(Path(arbiter.__file__).resolve().parent))
    return tuple(sorted(paths))


def _under(path: str, folders: Iterable[str]) -> bool:
    return any(path == f or path.startswith(f.rstrip("/") + "/") for f in folders)


def _interpreter(path: str) -> str | None:
    """The interpreter a script names on its ``#!`` line, if it is a script."""
    words = _shebang(path)
    return words[0] if words else None


def _shebang(path: str) -> list[str]:
    """The words of a script's ``#!`` line (none for a file that is not a script)."""
    try:
        with open(path, "rb") as f:
            head = f.read(256)
    except OSError:
        return []
    if not head.startswith(b"#!"):
        return []
    return [os.fsdecode(w) for w in head[2:].split(b"\n", 1)[0].split()]


def _tree_size(root: str) -> tuple[int, int]:
    """The bytes (rounded up to whole pages) and entries under ``root``."""
    size, count = 0, 1
    for folder, dirs, files in os.walk(root):
        count += len(dirs) + len(files)
        for name in files:
            with contextlib.suppress(OSError):
                size += -(-os.lstat(os.path.join(folder, name)).st_size // 4096) * 4096
    return size, count


def _chown_tree(root: str, uid: int) -> None:
    """Gives ``root`` and everything in it to ``uid`` (links themselves, never their
    targets)."""
    os.lchown(root, uid, uid)
    for folder, dirs, files in os.walk(root):
        for name in (*dirs, *files):
            os.lchown(os.path.join(folder, name), uid, uid)
