"""A version's program as workers get it: packed once, when the version is accepted,
into an archive named by its SHA-256 (``programs/HASH.tar.gz`` in the contest's
folder), sent as a file and checked by the worker against the size and hash the job
names before it unpacks a byte.

Packing per request (as a server once did) costs a worker's timeout on a large build
and the server's memory on every fetch; a named archive is written once, streamed
from disk, and identical builds share one file. The archive is deterministic (sorted
names, no owners, times or gzip date), so its hash is the build's.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import os
import shutil
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from arbiter.errors import ArbiterError

SUFFIX = ".tar.gz"


class ProgramError(ArbiterError):
    """A program archive that cannot be packed, fetched or unpacked; says why."""


@dataclass(frozen=True, slots=True)
class Packed:
    """A packed program: the archive's SHA-256 (hex) and its size in bytes."""

    sha256: str
    size: int


def store_of(folder: Path) -> Path:
    """The folder of a contest's program archives (``folder`` is the contest's)."""
    return folder / "programs"


def archive_path(store: Path, sha256: str) -> Path:
    """Where the archive of hash ``sha256`` is kept.

    :raises ProgramError: for a hash that is not 64 hex digits (never a path).
    """
    if len(sha256) != 64 or not all(c in "0123456789abcdef" for c in sha256):
        raise ProgramError(f"not a program hash: {sha256[:80]!r}")
    return store / f"{sha256}{SUFFIX}"


def pack(build: Path, store: Path) -> Packed:
    """Packs the folder ``build`` into the store (once: an archive of the same hash is
    kept as it is) and returns its hash and size. Only regular files and folders are
    packed, each file with its executable bit.

    :raises ProgramError: if the folder cannot be read or the store written.
    """
    try:
        store.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, partial = tempfile.mkstemp(prefix=".packing-", dir=store)
    except OSError as e:
        raise ProgramError(f"cannot write the program store {str(store)!r}: {e.strerror}") from e
    try:
        with (
            os.fdopen(fd, "wb") as raw,
            gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as zipped,
            tarfile.open(fileobj=zipped, mode="w", format=tarfile.PAX_FORMAT) as archive,
        ):
            for path in _entries(build):
                info = _member(build, path)
                if info.isdir():
                    archive.addfile(info)
                else:
                    with path.open("rb") as f:
                        archive.addfile(info, f)
        packed = Packed(file_sha256(Path(partial)), os.path.getsize(partial))
        os.replace(partial, archive_path(store, packed.sha256))  # the same bytes if there
    except OSError as e:
        with contextlib.suppress(OSError):
            os.unlink(partial)
        raise ProgramError(f"cannot pack {str(build)!r}: {e.strerror or e}") from e
    return packed


def file_sha256(path: Path) -> str:
    """The SHA-256 (hex) of the file at ``path``, read in pieces."""
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _entries(root: Path) -> list[Path]:
    """The folders and regular files under ``root``, sorted, links left out."""
    found = []
    for folder, dirs, files in os.walk(root, followlinks=False):
        for name in (*dirs, *files):
            path = Path(folder) / name
            if not path.is_symlink() and (path.is_dir() or path.is_file()):
                found.append(path)
    return sorted(found, key=lambda p: p.relative_to(root).parts)


def _member(root: Path, path: Path) -> tarfile.TarInfo:
    """The entry of ``path``: its name under ``root``, no owner, no time, and only
    the executable bit of its mode."""
    info = tarfile.TarInfo(str(path.relative_to(root)))
    status = path.lstat()
    if path.is_dir():
        info.type = tarfile.DIRTYPE
        info.mode = 0o755
    else:
        info.size = status.st_size
        info.mode = 0o755 if status.st_mode & 0o100 else 0o644
    return info


def unpack(archive: Path, target: Path) -> None:
    """Unpacks a fetched archive into the new folder ``target`` (tarfile's ``data``
    filter: no absolute names, no ``..``, no links out, no devices).

    :raises ProgramError: for an archive that is not a clean tar.gz.
    """
    try:
        with tarfile.open(archive, mode="r:gz") as opened:
            opened.extractall(target, filter="data")
    except (tarfile.TarError, OSError, EOFError) as e:
        raise ProgramError(f"the program archive does not unpack: {e}") from e


def unpack_once(archive: Path, folder: Path) -> None:
    """Unpacks ``archive`` into ``folder`` (named by its hash, so the same for every
    process of the machine that wants it) whole or not at all: into a hidden sibling,
    then renamed into place; another process that got there first keeps its copy. The
    folder is this user's alone (``mkdtemp``'s mode): the walls copy a program into its
    own box, as its own user, before it runs.

    :raises ProgramError: for an archive that does not unpack.
    """
    folder.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=f".{folder.name[:16]}-", dir=folder.parent))
    try:
        unpack(archive, partial)
        partial.rename(folder)
    except OSError:
        if not folder.is_dir():
            raise ProgramError(f"cannot put the program in {folder}") from None
    finally:
        shutil.rmtree(partial, ignore_errors=True)
