"""Program uids: a uid of its own for each program that runs, held for one game.

A free uid of :data:`~arbiter.referee.sandbox.PROGRAM_UIDS` is taken with a lock on a
file of its own (games played by other referee processes at the same time take other
uids), never one that an account of the machine has. Before the uid is used and
after, any process still running under it is killed, unless its last holder marked
it :data:`CLEAN`; what it left in the shared temporary folders can be removed.

:func:`lease_uid` raises :class:`~arbiter.errors.ConfigError` when no uid is free or
no private folder for the locks can be made.
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
import tempfile
from collections.abc import Iterable
from pathlib import Path

from arbiter.errors import ConfigError

SHARED_TEMP = ("/tmp", "/var/tmp", "/dev/shm")
"""World-writable folders a program without a mount namespace may leave files in."""

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
