"""The contest's data is the server's alone: its folder (sources, builds, packed
programs, logs, the key that signs sessions) is 0700 and the SQLite database 0600,
so no other account of the machine reads them, a contestant's program run at
``--isolation user`` (its own uid, no namespaces) included.

Modes are set explicitly rather than through a process-wide umask: the referee in
the same processes writes files a program must read (a Halma program's
``input.txt``), which a umask of 077 would hide from the program's uid.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from arbiter.errors import ConfigError


def private_folder(path: Path) -> Path:
    """Makes ``path`` (and missing parents) a folder only its owner may enter, or
    narrows one that exists.

    :raises ConfigError: if it cannot be made or narrowed.
    """
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        path.chmod(0o700)
    except OSError as e:
        raise ConfigError(f"cannot make {str(path)!r} private: {e.strerror}") from None
    return path


def private_file(path: Path) -> None:
    """Makes the file at ``path`` readable by its owner only; creates it empty if it
    is missing, so it is never readable by others even for a moment.

    A file that exists is never opened: closing any descriptor of a file drops every
    POSIX lock this process holds on it, and SQLite's locks on an open database
    would go with it.

    :raises ConfigError: if it cannot be made or narrowed.
    """
    try:
        with contextlib.suppress(FileExistsError):
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600))
        path.chmod(0o600)
    except OSError as e:
        raise ConfigError(f"cannot make {str(path)!r} private: {e.strerror}") from None


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL (None for another database or an in-memory one)."""
    if not url.startswith("sqlite") or "///" not in url:
        return None
    path = url.split("///", 1)[1].split("?", 1)[0]
    return None if path in ("", ":memory:") else Path(path)


def make_private(folder: Path, database_url: str) -> None:
    """Narrows a contest's folder and its SQLite database (with its WAL files, which
    SQLite otherwise makes with the database's mode) to the server's user.

    :raises ConfigError: if either cannot be narrowed.
    """
    private_folder(folder)
    path = sqlite_file(database_url)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        private_file(path)
        for suffix in ("-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                (path.parent / (path.name + suffix)).chmod(0o600)
