"""A contestant's upload made into a folder of sources: one file, or a zip or tar
archive, checked before anything is written.

An upload is data from an adversary, as a program's output file is. Its size is
checked before it is read whole; an archive's members must be plain files or folders
with relative names that stay inside the folder (no ``..``, no absolute path, no
link, no device: "zip slip"); their number and their unpacked size are bounded by
what is actually read, not by what the archive claims (a zip bomb claims little).
A single top folder (what zipping a folder gives) is dropped.
"""

from __future__ import annotations

import io
import os
import re
import stat
import tarfile
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path, PurePosixPath

from arbiter.errors import ArbiterError
from arbiter.host.languages import Language

FILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,99}")
"""A file name an upload may have, and each part of a name inside an archive."""

ARCHIVES = (".zip", ".tar", ".tar.gz", ".tgz")


class UploadError(ArbiterError, ValueError):
    """An upload refused before it was built; the message says why."""


@dataclass(frozen=True, slots=True)
class UploadLimits:
    upload_bytes: int
    files: int
    unpacked_bytes: int


def is_archive(filename: str) -> bool:
    return filename.lower().endswith(ARCHIVES)


def check_file_name(filename: str) -> str:
    """:raises UploadError: for a name with a folder, odd characters or over 100 long."""
    if not FILE_NAME.fullmatch(filename) or filename in (".", ".."):
        raise UploadError(
            f"file name {filename[:60]!r}: use letters, digits and . _ + - (at most 100)"
        )
    return filename


def language_of(filename: str, languages: dict[str, Language]) -> Language | None:
    """The language a single file's name says, if one says it."""
    lower = filename.lower()
    for language in languages.values():
        if any(s and lower.endswith(s) for s in language.suffixes):
            return language
    return None


def language_of_upload(
    data: bytes, filename: str, languages: dict[str, Language]
) -> Language | None:
    """The language an upload says: a single file's by its name; an archive's by its
    files' names (the language most of its source files are in, a tie going to the
    language whose main file it holds), without reading any file. ``None`` when
    nothing says (or the archive cannot be read: unpacking says why)."""
    if not is_archive(filename):
        return language_of(filename, languages)
    counts: dict[str, int] = {}
    mains: set[str] = set()
    try:
        for name, kind, _ in _entries(data, filename):
            if kind != "file":
                continue
            base = PurePosixPath(name).name
            found = language_of(base, languages)
            if found is not None:
                counts[found.key] = counts.get(found.key, 0) + 1
            mains |= {key for key, lang in languages.items() if lang.main == base}
    except UploadError:
        return None
    if not counts:
        return None
    best = max(counts.values())
    tied = [key for key, n in counts.items() if n == best]
    chosen = next((key for key in tied if key in mains), tied[0])
    return languages[chosen]


def unpack(
    data: bytes, filename: str, language: Language, folder: Path, limits: UploadLimits
) -> list[str]:
    """Writes the upload ``data`` (named ``filename``) into the new ``folder`` and
    returns the relative names written.

    :raises UploadError: naming the rule the upload broke: too big, a bad name, a
        member that escapes or is not a plain file, too many files or bytes, a
        "binary" that is not an ELF program, an archive that cannot be read.
    """
    check_file_name(filename)
    if len(data) > limits.upload_bytes:
        raise UploadError(f"the upload is larger than the limit of {_kb(limits.upload_bytes)}")
    if not data:
        raise UploadError("the upload is empty")
    folder.mkdir(parents=True, exist_ok=False)
    if not is_archive(filename):
        name = language.main
        if language.compile is None and not data.startswith(b"\x7fELF"):
            raise UploadError(f"{filename!r} is not a Linux program (an ELF file)")
        _write(folder, PurePosixPath(name), data, executable=language.compile is None)
        return [name]
    members = list(_members(data, filename, limits))
    top = {m[0].parts[0] for m in members}
    strip = len(top) == 1 and all(len(m[0].parts) > 1 for m in members)
    written = []
    for path, content in members:
        if content is None:
            continue
        rel = PurePosixPath(*path.parts[1:]) if strip else path
        _write(folder, rel, content, executable=False)
        written.append(str(rel))
    if not written:
        raise UploadError("the archive holds no file")
    if language.compile is None:
        player = folder / language.main
        if not player.is_file() or not player.read_bytes()[:4] == b"\x7fELF":
            raise UploadError(f"the archive has no Linux program named {language.main!r}")
        player.chmod(0o755)
    return written


def _members(
    data: bytes, filename: str, limits: UploadLimits
) -> Iterator[tuple[PurePosixPath, bytes | None]]:
    """Each member's checked name and content (None for a folder)."""
    count = 0
    total = 0
    for name, kind, read in _entries(data, filename):
        count += 1
        if count > limits.files:
            raise UploadError(f"the archive holds more than {limits.files} files")
        path = _safe_path(name)
        if kind == "dir":
            yield path, None
            continue
        if kind != "file":
            raise UploadError(f"archive member {name[:80]!r} is {kind}, not a plain file")
        content = read(limits.unpacked_bytes - total + 1)
        total += len(content)
        if total > limits.unpacked_bytes:
            raise UploadError(f"the archive unpacks to more than {_kb(limits.unpacked_bytes)}")
        yield path, content


def _entries(data: bytes, filename: str) -> Iterator[tuple[str, str, Callable[[int], bytes]]]:
    """Each member's name, kind ("dir", "file", "a link", "a special file") and a
    reader of at most so many of its bytes.

    :raises UploadError: for an archive that cannot be read.
    """
    try:
        if filename.lower().endswith(".zip"):
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                for info in z.infolist():
                    # a Unix type in the high bits, if the archiver wrote one
                    kind_bits = stat.S_IFMT(info.external_attr >> 16)
                    if info.is_dir():
                        kind = "dir"
                    elif kind_bits == stat.S_IFLNK:
                        kind = "a link"
                    elif kind_bits not in (0, stat.S_IFREG):
                        kind = "a special file"
                    else:
                        kind = "file"
                    yield info.filename, kind, partial(_zip_read, z, info)
        else:
            with tarfile.open(fileobj=io.BytesIO(data), mode="r:*") as t:
                for member in t:
                    if member.isdir():
                        kind = "dir"
                    elif member.issym() or member.islnk():
                        kind = "a link"
                    elif not member.isfile():
                        kind = "a special file"
                    else:
                        kind = "file"
                    yield member.name, kind, partial(_tar_read, t, member)
    except (zipfile.BadZipFile, tarfile.TarError, EOFError, OSError, ValueError) as e:
        raise UploadError(f"{filename!r} is not a readable archive: {e}") from None


def _zip_read(z: zipfile.ZipFile, info: zipfile.ZipInfo, most: int) -> bytes:
    with z.open(info) as f:
        return f.read(most)


def _tar_read(t: tarfile.TarFile, member: tarfile.TarInfo, most: int) -> bytes:
    f = t.extractfile(member)
    return b"" if f is None else f.read(most)


def _safe_path(name: str) -> PurePosixPath:
    """:raises UploadError: for a name that is absolute, climbs out or has bad parts."""
    if name.startswith("/") or "\\" in name or "\x00" in name:
        raise UploadError(f"archive member {name[:80]!r} has an absolute or odd path")
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if not parts:
        raise UploadError(f"archive member {name[:80]!r} has no name")
    if ".." in parts:
        raise UploadError(f"archive member {name[:80]!r} points outside the archive")
    for part in parts:
        if not FILE_NAME.fullmatch(part):
            raise UploadError(f"archive member {name[:80]!r}: use letters, digits and . _ + -")
    if len(parts) > 8:
        raise UploadError(f"archive member {name[:80]!r} is nested too deep")
    return PurePosixPath(*parts)


def _write(folder: Path, rel: PurePosixPath, content: bytes, *, executable: bool) -> None:
    target = folder.joinpath(*rel.parts)
    target.parent.mkdir(parents=True, exist_ok=True)
    if not target.resolve().is_relative_to(folder.resolve()):
        raise UploadError(f"archive member {str(rel)!r} points outside the archive")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        fd = os.open(target, flags, 0o755 if executable else 0o644)
    except FileExistsError:
        raise UploadError(f"the archive holds {str(rel)!r} twice") from None
    with os.fdopen(fd, "wb") as f:
        f.write(content)


def _kb(n: int) -> str:
    return f"{n / 1024:.0f} KB" if n < 1 << 20 else f"{n / (1 << 20):.1f} MB"
