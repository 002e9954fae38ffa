"""The contest's folder and SQLite database are narrowed to the server's user, the
database's write-ahead files included, whatever options its URL carries."""

from __future__ import annotations

import sqlite3
import stat
from pathlib import Path

import pytest

from arbiter.host.storage import make_private, sqlite_file


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_database_in_write_ahead_mode_is_narrowed_with_both_its_files(tmp_path: Path) -> None:
    folder = tmp_path / "contest"
    folder.mkdir(mode=0o755)
    database = folder / "contest.db"
    db = sqlite3.connect(database)  # left open: its -wal and -shm files stay
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE t (x)")
        db.execute("INSERT INTO t VALUES (1)")
        db.commit()
        files = [database, folder / "contest.db-wal", folder / "contest.db-shm"]
        for f in files:
            f.chmod(0o644)  # as SQLite makes them under a lax umask
        make_private(folder, f"sqlite:///{database}?timeout=30")
        assert mode(folder) == 0o700
        assert {f.name: mode(f) for f in files} == {f.name: 0o600 for f in files}
    finally:
        db.close()


def test_a_sqlite_url_s_options_are_not_part_of_its_file_s_name() -> None:
    assert sqlite_file("sqlite:///srv/cup/contest.db?timeout=30") == Path("srv/cup/contest.db")
    assert sqlite_file("sqlite:////srv/cup/contest.db") == Path("/srv/cup/contest.db")
    assert sqlite_file("sqlite:///:memory:") is None
    assert sqlite_file("postgresql+psycopg://u@h/db") is None


def test_a_private_folder_is_made_with_its_parents_or_narrowed_and_else_named(
    tmp_path: Path,
) -> None:
    from arbiter.errors import ConfigError
    from arbiter.host.storage import private_folder

    made = private_folder(tmp_path / "a" / "b")
    kept = tmp_path / "open"
    kept.mkdir(mode=0o755)
    (kept / "x").write_text("x")
    private_folder(kept)
    for path in (made, kept):
        assert stat.S_IMODE(path.stat().st_mode) == 0o700, path
    assert (kept / "x").read_text() == "x"
    (tmp_path / "file").write_text("")
    with pytest.raises(
        ConfigError, match=r"^cannot make '.*/file/inside' private: Not a directory$"
    ):
        private_folder(tmp_path / "file" / "inside")
