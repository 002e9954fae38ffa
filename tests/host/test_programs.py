"""What a build may leave, and the archive workers fetch: capped in bytes and files,
packed once into an archive named by its hash (the same build, the same archive),
unpacked with the executable bit and nothing outside its folder."""

from __future__ import annotations

import hashlib
import io
import os
import tarfile
from pathlib import Path

import pytest

from arbiter.host.build import OutputLimit
from arbiter.host.programs import (
    ProgramError,
    archive_path,
    file_sha256,
    pack,
    unpack,
    unpack_once,
)


def build_folder(root: Path) -> Path:
    (root / "lib").mkdir(parents=True)
    (root / "player").write_bytes(b"\x7fELF" + b"\0" * 100)
    (root / "player").chmod(0o755)
    (root / "lib" / "table.dat").write_bytes(b"x" * 5000)
    (root / "link").symlink_to("/etc/passwd")
    return root


def test_a_build_over_its_bytes_or_its_files_is_told_why(tmp_path: Path) -> None:
    root = build_folder(tmp_path / "b")
    assert OutputLimit(megabytes=1, files=10).exceeded_by(root) == ""
    with (root / "big").open("wb") as f:  # a hole: sent whole, so counted whole
        f.truncate(2 << 20)
    assert "over 1 MB" in OutputLimit(megabytes=1, files=10).exceeded_by(root)
    (root / "big").unlink()
    for i in range(10):
        (root / f"f{i}").touch()
    assert "over 10 files" in OutputLimit(megabytes=1, files=10).exceeded_by(root)


def test_a_program_is_packed_once_under_its_hash_and_unpacks_as_it_was(tmp_path: Path) -> None:
    store = tmp_path / "store"
    first = pack(build_folder(tmp_path / "a"), store)
    again = build_folder(tmp_path / "b")
    os.utime(again / "player", (1, 1))  # other times, the same program
    assert pack(again, store) == first
    path = archive_path(store, first.sha256)
    assert path.stat().st_size == first.size and list(store.iterdir()) == [path]
    assert path.stat().st_mode & 0o077 == 0  # the server's alone
    out = tmp_path / "out"
    unpack(path, out)
    assert (out / "player").read_bytes().startswith(b"\x7fELF")
    assert os.access(out / "player", os.X_OK)
    assert (out / "lib" / "table.dat").stat().st_size == 5000
    assert not (out / "link").exists()  # links are not packed
    (again / "player").write_bytes(b"another program")
    assert pack(again, store).sha256 != first.sha256


def test_a_large_program_is_stored_under_the_hash_of_all_its_bytes(tmp_path: Path) -> None:
    """Programs of megabytes (a Java jar, an engine's tables) are hashed in pieces: two
    that differ only past the first piece are two programs, each under its own name."""
    store = tmp_path / "store"
    tables = os.urandom(3 << 20)
    first = build_folder(tmp_path / "a")
    (first / "lib" / "table.dat").write_bytes(tables)
    second = build_folder(tmp_path / "b")
    (second / "lib" / "table.dat").write_bytes(tables[:-1] + bytes([tables[-1] ^ 1]))
    one, other = pack(first, store), pack(second, store)
    assert one.sha256 != other.sha256
    for packed in (one, other):
        path = archive_path(store, packed.sha256)
        assert hashlib.sha256(path.read_bytes()).hexdigest() == packed.sha256
        assert file_sha256(path) == packed.sha256


def test_a_program_is_unpacked_once_into_a_folder_whose_parents_are_made(tmp_path: Path) -> None:
    """A worker's first program lands in a cache folder not there yet: its parents are
    made; a second unpack into the same folder keeps the first copy; nothing half
    unpacked is left beside it."""
    path = archive_path(
        tmp_path / "store", pack(build_folder(tmp_path / "a"), tmp_path / "store").sha256
    )
    folder = tmp_path / "cache" / "programs" / "ab12"
    unpack_once(path, folder)
    assert (folder / "player").read_bytes().startswith(b"\x7fELF")
    assert folder.stat().st_mode & 0o077 == 0  # the worker's own: the walls copy it
    (folder / "mark").write_text("the first copy")
    unpack_once(path, folder)
    assert (folder / "mark").read_text() == "the first copy"
    assert [p.name for p in folder.parent.iterdir()] == ["ab12"]


def test_an_archive_reaching_outside_its_folder_does_not_unpack(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tar.gz"
    with tarfile.open(bad, "w:gz") as archive:
        info = tarfile.TarInfo("../escaped")
        info.size = 1
        archive.addfile(info, io.BytesIO(b"x"))
    with pytest.raises(ProgramError, match="does not unpack"):
        unpack(bad, tmp_path / "out")
    assert not (tmp_path / "escaped").exists()


def test_a_hash_is_never_a_path(tmp_path: Path) -> None:
    with pytest.raises(ProgramError, match="not a program hash"):
        archive_path(tmp_path, "../../etc/passwd".ljust(64, "0"))


def test_builds_an_older_server_left_are_packed_or_deleted(tmp_path: Path) -> None:
    from arbiter.host.intake import tidy_builds, version_dir
    from arbiter.host.models import Version
    from tests.host.contests import seeded, version

    db, config = seeded(tmp_path, f"sqlite:///{tmp_path / 'cup.db'}", ("alice", "bob"))
    with db.session() as s:
        refused = version(1, 2, state="refused")
        s.add(refused)
        s.commit()
        ids = {v.id: v.state for v in s.query(Version)}
    for version_id in ids:
        build_folder(version_dir(config, version_id) / "build")
    with db.session() as s:
        assert tidy_builds(s, config) == 2
        for v in s.query(Version):
            assert not (version_dir(config, v.id) / "build").exists()
            assert (v.program_sha256 is not None) == (v.state == "accepted")
    assert len(list((config.folder / "programs").glob("*.tar.gz"))) == 1  # one build, one file


def test_the_intake_process_says_its_versions_state_and_exits_0_only_when_it_ran(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The server starts ``python -m arbiter.host.intake`` for each upload and reports
    whatever it ends with other than 0: a version it ran to its end is 0 (its state on
    standard output), a contest it cannot read 1, and a wrong call 2."""
    from arbiter.host import intake

    contest = tmp_path / "cup.toml"
    contest.write_text('game = "alquerque"\n')
    assert intake.main([str(contest), "999"]) == 0
    assert capsys.readouterr().out == "missing\n"  # no version 999: nothing to build
    assert intake.main([str(tmp_path / "none.toml"), "1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("arbiter intake: ") and err.count("\n") == 1
    assert intake.main([str(contest), "first"]) == 2
    assert capsys.readouterr().out.startswith("usage: python -m arbiter.host.intake")


def test_an_upload_the_server_cannot_build_is_refused_with_why_and_its_build_deleted(
    tmp_path: Path,
) -> None:
    """A version whose language the contest no longer offers, or whose build cannot
    start on this machine (walls it cannot give), is refused with that reason, never
    left building; one already decided is left as it is, and a missing one said."""
    from arbiter.host import intake
    from arbiter.host.models import Version
    from tests.host.contests import seeded, version

    db, config = seeded(tmp_path, f"sqlite:///{tmp_path / 'cup.db'}", ("alice",))
    with db.session() as s:
        gone = version(1, 2, state="building")
        gone.language = "cobol"
        walled = version(1, 3, state="building")
        s.add_all([gone, walled])
        s.commit()
        gone_id, walled_id = gone.id, walled.id
    source = intake.version_dir(config, walled_id) / "source"
    source.mkdir(parents=True)
    (source / "main.c").write_text("int main(void) { return 0; }\n")
    build_folder(intake.version_dir(config, walled_id) / "build")  # an older try's
    assert intake.process(db, config, gone_id) == "refused"
    assert intake.process(db, config, walled_id, isolation="fortress") == "refused"
    assert intake.process(db, config, 1) == "accepted"  # decided before: left as it is
    assert intake.process(db, config, 999) == "missing"
    with db.session() as s:
        reasons = {v.id: v.reason for v in s.query(Version)}
    assert reasons[gone_id] == "the language 'cobol' is gone"
    assert reasons[walled_id].startswith("build: unknown isolation level 'fortress'")
    assert not (intake.version_dir(config, walled_id) / "build").exists()


def test_a_store_that_cannot_be_written_is_named(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(ProgramError, match=r"^cannot write the program store '.*/file/store': "):
        pack(build_folder(tmp_path / "build"), tmp_path / "file" / "store")


def test_an_accepted_build_that_cannot_be_packed_is_kept_for_the_next_start(
    tmp_path: Path,
) -> None:
    """Tidying what an older server left: an accepted version's build the store cannot
    take (the store unwritable) is kept as it is, unpacked, for a later start to pack;
    deleting it would lose the only copy of the program its games need."""
    from arbiter.host.intake import tidy_builds, version_dir
    from arbiter.host.models import Version
    from arbiter.host.programs import store_of
    from tests.host.contests import seeded

    db, config = seeded(tmp_path, f"sqlite:///{tmp_path / 'cup.db'}", ("alice",))
    built = build_folder(version_dir(config, 1) / "build")
    store = store_of(config.folder)
    store.parent.mkdir(parents=True, exist_ok=True)
    store.write_text("a file where the store goes")
    with db.session() as s:
        assert tidy_builds(s, config) == 0
        version = s.get(Version, 1)
        assert version is not None and version.program_sha256 is None
    assert (built / "player").is_file()
    store.unlink()
    with db.session() as s:
        assert tidy_builds(s, config) == 1  # the next start packs it
    assert not built.exists()
