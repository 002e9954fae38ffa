"""Uploads are checked before anything is written: zip slip, links, special files,
file names, counts and unpacked size (by what is read, not what the archive claims)."""

from __future__ import annotations

import io
import tarfile
import zipfile
from pathlib import Path

import pytest

from arbiter.host.archive import UploadError, UploadLimits, language_of_upload, unpack
from arbiter.host.languages import LANGUAGES

LIMITS = UploadLimits(upload_bytes=64 << 10, files=10, unpacked_bytes=256 << 10)
C = LANGUAGES["c"]


def zipped(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buffer.getvalue()


def tarred(add: list[tarfile.TarInfo], data: dict[str, bytes] | None = None) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as t:
        for info in add:
            content = (data or {}).get(info.name, b"")
            info.size = len(content) if info.isfile() else 0
            t.addfile(info, io.BytesIO(content) if info.isfile() else None)
    return buffer.getvalue()


def test_a_single_file_is_stored_under_its_languages_main_name(tmp_path: Path) -> None:
    assert unpack(b"int main(){}", "bot.c", C, tmp_path / "v", LIMITS) == ["main.c"]
    assert (tmp_path / "v" / "main.c").read_bytes() == b"int main(){}"
    # a source is read, never run: only a "binary" upload is made executable
    assert not (tmp_path / "v" / "main.c").stat().st_mode & 0o111
    data = zipped({"bot/main.c": b"x", "bot/run.sh": b"#!/bin/sh\n"})
    unpack(data, "bot.zip", C, tmp_path / "w", LIMITS)
    for name in ("main.c", "run.sh"):
        assert not (tmp_path / "w" / name).stat().st_mode & 0o111, name


def test_an_archive_of_one_folder_is_unpacked_without_it(tmp_path: Path) -> None:
    files = {"bot/main.c": b"int main() {}\n", "bot/lib/util.h": b"#define N 8\n"}
    names = [tarfile.TarInfo(name) for name in files]
    for data, filename in ((zipped(files), "bot.zip"), (tarred(names, files), "bot.tar.gz")):
        folder = tmp_path / filename
        assert sorted(unpack(data, filename, C, folder, LIMITS)) == ["lib/util.h", "main.c"]
        for name, content in files.items():  # each file whole, as it was packed
            assert (folder / name.removeprefix("bot/")).read_bytes() == content, filename


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("../evil.c", "outside"),
        ("a/../../evil.c", "outside"),
        ("/etc/evil.c", "absolute"),
        ("bad name.c", "letters, digits"),
        ("./.", "has no name"),
        ("a/b/c/d/e/f/g/h/i.c", "nested too deep"),
        ("./main.c", "holds 'main.c' twice"),
    ],
)
def test_zip_members_that_climb_out_or_have_odd_names_are_refused(
    tmp_path: Path, name: str, why: str
) -> None:
    with pytest.raises(UploadError, match=why):
        unpack(zipped({"main.c": b"x", name: b"y"}), "bot.zip", C, tmp_path / "v", LIMITS)
    assert not (tmp_path / "evil.c").exists() and not (tmp_path.parent / "evil.c").exists()


@pytest.mark.parametrize("kind", [tarfile.SYMTYPE, tarfile.LNKTYPE, tarfile.FIFOTYPE])
def test_tar_links_and_special_files_are_refused(tmp_path: Path, kind: bytes) -> None:
    link = tarfile.TarInfo("main.c")
    link.type = kind
    link.linkname = "/etc/passwd"
    with pytest.raises(UploadError, match="not a plain file"):
        unpack(tarred([link]), "bot.tar.gz", C, tmp_path / "v", LIMITS)
    assert not (tmp_path / "v" / "main.c").exists()


def test_an_archive_that_unpacks_to_more_than_the_limit_is_refused(tmp_path: Path) -> None:
    zeros = {"main.c": b"0" * (1 << 20)}  # 1 MB of zeros packs to about 1 KB
    bombs = {"bot.zip": zipped(zeros), "bot.tar.gz": tarred([tarfile.TarInfo("main.c")], zeros)}
    for filename, bomb in bombs.items():
        assert len(bomb) < LIMITS.upload_bytes
        with pytest.raises(UploadError, match="unpacks to more than"):
            unpack(bomb, filename, C, tmp_path / filename, LIMITS)
    # one byte over, from a file's last byte: read whole, never cut at the limit
    over = {"main.c": b"0" * (LIMITS.unpacked_bytes + 1)}
    with pytest.raises(UploadError, match="unpacks to more than"):
        unpack(tarred([tarfile.TarInfo("main.c")], over), "over.tar.gz", C, tmp_path / "o", LIMITS)


def test_an_upload_at_every_limit_exactly_is_taken(tmp_path: Path) -> None:
    """Each limit is the most allowed, not one less: 10 files unpacking to exactly
    256 KB, one of them 8 folders deep, a name of 100 characters; and a single file of
    exactly 64 KB."""
    deep = "a/b/c/d/e/f/g/" + "n" * 98 + ".c"
    members = {"main.c": b"m" * (100 << 10), deep: b"d" * (100 << 10)}
    members |= {f"f{i}.c": b"x" * ((56 << 10) // 8) for i in range(8)}
    assert sum(map(len, members.values())) == LIMITS.unpacked_bytes
    data = zipped(members)
    assert len(data) <= LIMITS.upload_bytes
    assert len(unpack(data, "bot.zip", C, tmp_path / "a", LIMITS)) == 10
    assert (tmp_path / "a" / deep).read_bytes() == members[deep]
    single = b"/" * (64 << 10)
    assert unpack(single, "n" * 98 + ".c", C, tmp_path / "b", LIMITS) == ["main.c"]
    with pytest.raises(UploadError, match="at most 100"):
        unpack(b"x", "n" * 99 + ".c", C, tmp_path / "c", LIMITS)
    with pytest.raises(UploadError, match="nested too deep"):
        unpack(zipped({"main.c": b"x", "a/" + deep: b"y"}), "bot.zip", C, tmp_path / "d", LIMITS)


def test_too_many_files_too_big_an_upload_and_an_empty_one_are_refused(tmp_path: Path) -> None:
    many = zipped({f"f{i}.c": b"x" for i in range(11)})
    with pytest.raises(UploadError, match="more than 10 files"):
        unpack(many, "bot.zip", C, tmp_path / "a", LIMITS)
    with pytest.raises(UploadError, match="larger than the limit of 64 KB"):
        unpack(b"x" * (65 << 10), "main.c", C, tmp_path / "b", LIMITS)
    with pytest.raises(UploadError, match="empty"):
        unpack(b"", "main.c", C, tmp_path / "c", LIMITS)
    with pytest.raises(UploadError, match="not a readable archive"):
        unpack(b"PK not really", "bot.zip", C, tmp_path / "d", LIMITS)


def test_a_binary_must_be_an_elf_program_and_is_made_executable(tmp_path: Path) -> None:
    binary = LANGUAGES["binary"]
    with pytest.raises(UploadError, match="not a Linux program"):
        unpack(b"#!/bin/sh\necho hi\n", "player", binary, tmp_path / "a", LIMITS)
    unpack(b"\x7fELF" + b"\0" * 60, "player", binary, tmp_path / "b", LIMITS)
    assert (tmp_path / "b" / "player").stat().st_mode & 0o111


def test_an_archive_of_folders_alone_or_a_binary_archive_without_its_program_is_refused(
    tmp_path: Path,
) -> None:
    empty = io.BytesIO()
    with tarfile.open(fileobj=empty, mode="w:gz") as t:
        for name in ("bot", "bot/lib"):
            folder = tarfile.TarInfo(name)
            folder.type = tarfile.DIRTYPE
            t.addfile(folder)
    with pytest.raises(UploadError, match="the archive holds no file"):
        unpack(empty.getvalue(), "bot.tar.gz", C, tmp_path / "a", LIMITS)
    binary = LANGUAGES["binary"]
    script = zipped({"player": b"#!/bin/sh\necho hi\n", "notes.txt": b"x"})
    with pytest.raises(UploadError, match="the archive has no Linux program named 'player'"):
        unpack(script, "bot.zip", binary, tmp_path / "b", LIMITS)
    elf = zipped({"player": b"\x7fELF" + b"\0" * 60, "notes.txt": b"x"})
    unpack(elf, "bot.zip", binary, tmp_path / "c", LIMITS)
    assert (tmp_path / "c" / "player").stat().st_mode & 0o111  # made executable


def test_a_zip_member_marked_as_a_link_is_refused(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        info = zipfile.ZipInfo("main.c")
        info.external_attr = (0o120777) << 16  # a symbolic link to /etc/passwd
        z.writestr(info, "/etc/passwd")
    with pytest.raises(UploadError, match="is a link"):
        unpack(buffer.getvalue(), "bot.zip", C, tmp_path / "v", LIMITS)


@pytest.mark.parametrize(
    ("filename", "members", "language"),
    [
        ("bot.c", None, "c"),
        ("bot.zip", {"bot/main.c": b"x", "bot/util.c": b"y", "bot/util.h": b"z"}, "c"),
        ("bot.zip", {"Main.java": b"x", "Board.java": b"y"}, "java"),
        # as many Python files as C++ ones: the language whose main file it holds
        ("bot.tar.gz", {"main.py": b"x", "helper.cpp": b"y"}, "python"),
        ("bot.zip", {"helper.cpp": b"y", "main.py": b"x"}, "python"),  # whichever comes first
        ("bot.zip", {"README": b"x", "notes.txt": b"y"}, None),
        ("bot.zip", None, None),  # not an archive at all: unpacking will say why
    ],
)
def test_an_uploads_language_is_read_from_its_name_or_its_files_names(
    filename: str, members: dict[str, bytes] | None, language: str | None
) -> None:
    if members is None:
        data = b"not an archive"
    elif filename.endswith(".zip"):
        data = zipped(members)
    else:
        data = tarred([tarfile.TarInfo(name) for name in members], members)
    found = language_of_upload(data, filename, LANGUAGES)
    assert (found.key if found is not None else None) == language
