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
  can be (:mod:`arbiter.referee.uids`, and :attr:`Box.contained`); without a mount namespace the
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
import os
import shlex
import shutil
import sys
import tempfile
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path

import psutil

from arbiter.errors import Crash
from arbiter.referee.isolation import Walls
from arbiter.referee.sandbox import Protection, detect, mount_tmpfs, unmount
from arbiter.referee.uids import UidLease, lease_uid, remove_files_of
from arbiter.referee.watchdog import WATCHDOG

BOX_PREFIX = "arbiter-game-"
"""How the folders of boxes are named in the temporary directory."""

SYSTEM_PATHS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
"""The system a program sees read-only in its namespaces."""

SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"
"""The ``PATH`` every program gets, after its own command's and interpreter's folders
(:func:`command_folders`): the system's tools, none of the referee's own folders (a
home's ``~/.cargo/bin``, say)."""

TEMPORARY_FOLDERS = (("/var/tmp", "vartmp"), ("/dev/shm", "shm"), ("/tmp", "tmp"))
"""The machine's shared temporary folders, each made a private folder of the
program's capped disk (behind bubblewrap, or at ``user`` in a mount namespace);
``/tmp`` last, since the capped disk itself usually lies in it."""

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
        for name in ("tmp", "vartmp", "shm"):  # its own, or open to all as the system's are
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
            raise Crash(f"cannot {what}: {why}", who=self.name) from None

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
        elif self.walls.own_uid:
            chain += self.private_temporary()
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

    def private_temporary(self) -> list[str]:
        """Without bubblewrap, at a uid of its own: a mount namespace of the program's
        (``unshare``) in which ``/tmp``, ``/var/tmp`` and ``/dev/shm`` are folders of
        its capped disk, so what it writes there counts towards its disk limit and
        no other program can meet it through a file or a socket there. The files it
        must read that lie under those folders (its program, unpacked by a worker
        into ``/tmp``) are bound read-only at their own paths inside. Empty (no such
        wall) without a capped disk, ``unshare`` and ``mount``."""
        unshare = self.protection.launcher("unshare")
        mount = self.protection.launcher("mount")
        sh = self.protection.launcher("sh") or "/bin/sh"
        if self.disk is None or unshare is None or mount is None or not self.protection.root:
            return []
        steps = ["set -e"]
        for root, name in TEMPORARY_FOLDERS:
            if not os.path.isdir(root):
                continue
            private = os.path.join(self.disk, name)
            for path in self.read_only:
                if not _under(path, (root,)):
                    continue
                inside = private + path[len(root) :]
                made = (
                    f"mkdir -p {q(inside)}"
                    if os.path.isdir(path)
                    else (f"mkdir -p {q(os.path.dirname(inside))}; : > {q(inside)}")
                )
                steps.append(made)
                steps.append(f"{q(mount)} --bind {q(path)} {q(inside)}")
                steps.append(f"{q(mount)} -o remount,bind,ro {q(inside)}")
            steps.append(f"{q(mount)} --rbind {q(private)} {q(root)}")
        steps.append('exec "$@"')
        script = "\n".join(steps)
        return [
            unshare,
            "--mount",
            "--propagation",
            "private",
            "--",
            sh,
            "-c",
            script,
            "arbiter-tmp",
        ]

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


def q(text: str) -> str:
    return shlex.quote(text)


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
