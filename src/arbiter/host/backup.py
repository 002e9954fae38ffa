"""A running contest's backup, and a contest folder made from one.

``arbiter host CONTEST.toml --backup FILE`` writes one ``.tar.gz``: the contest
file (and its description file), the database as of one moment (SQLite's online
backup API, or ``pg_dump``'s custom format: both consistent while the server
writes), then the data folder: the signing key pair, the session key, the packed
programs and every version's sources and upload. Builds, the programs unpacked for
people's games and the exports written are left out (made again, or written again
from the database). The database is copied first: a program or a source the copy
names was written before it, and a file added after it is harmless.

``arbiter host --restore FILE DIR`` makes ``DIR`` a contest that serves the same
contest: the same accounts, versions, games, standings and signing key, so its
export verifies with the original public key. A SQLite contest is restored beside
its contest file; a PostgreSQL one into the empty database ``--database`` names
(``pg_restore``).
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import sqlite3
import subprocess
import tarfile
import tempfile
import tomllib
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy.engine import make_url

from arbiter.errors import ConfigError
from arbiter.host.config import ContestConfig
from arbiter.host.db import libpq_address
from arbiter.host.storage import private_folder, sqlite_file

FORMAT = 1
"""The layout of a backup this arbiter writes and reads."""

MANIFEST = "backup.json"
LEFT_OUT = re.compile(r"^(versions/[^/]+/build|play|exports)(/|$)")
"""The data folder's parts a backup leaves out: made again, or written again."""

SQLITE_NAME = "database.sqlite"
PG_NAME = "database.pgdump"


def backup(config: ContestConfig, contest_file: Path, out: Path) -> dict[str, object]:
    """Writes the backup of the contest ``contest_file`` describes to ``out``; returns
    its manifest.

    :raises ConfigError: if the database cannot be copied (``pg_dump`` missing or
        failing) or ``out`` cannot be written.
    """
    with tempfile.TemporaryDirectory(prefix="arbiter-backup-") as work:
        dump = Path(work) / "database"
        kind = _copy_database(config.database, dump)
        manifest: dict[str, object] = {
            "format": FORMAT,
            "contest": config.name,
            "game": config.game,
            "taken": datetime.now(UTC).isoformat(timespec="seconds"),
            "database": kind,
            "contest_file": contest_file.name,
            "folder": config.folder.name,
        }
        partial = out.with_name(f".{out.name}.partial")
        try:
            with tarfile.open(partial, "w:gz") as tar:
                _add_bytes(tar, MANIFEST, json.dumps(manifest, indent=2).encode())
                tar.add(contest_file, f"contest/{contest_file.name}")
                described = _description_file(contest_file)
                if described is not None:
                    tar.add(contest_file.parent / described, f"contest/{described.as_posix()}")
                tar.add(dump, SQLITE_NAME if kind == "sqlite" else PG_NAME)
                for path, name in _data_files(config.folder):
                    tar.add(path, f"data/{name}", recursive=False)
            os.chmod(partial, 0o600)  # the keys are in it
            os.replace(partial, out)
        except OSError as e:
            Path(partial).unlink(missing_ok=True)
            raise ConfigError(f"cannot write the backup {str(out)!r}: {e.strerror}") from None
    return manifest


def restore(archive: Path, target: Path, database: str | None = None) -> Path:
    """Makes ``target`` (a new or empty folder) a contest from the backup ``archive``;
    returns its contest file. ``database`` is the URL of an empty PostgreSQL
    database for a PostgreSQL backup (a SQLite one is restored beside the file).

    :raises ConfigError: for an archive that is no backup, a target that is not
        empty, a PostgreSQL backup without ``database``, or ``pg_restore`` failing.
    """
    if target.exists() and any(target.iterdir()):
        raise ConfigError(f"{str(target)!r} is not empty: restore into a new folder")
    try:
        tar = tarfile.open(archive, "r:gz")  # noqa: SIM115 - closed by the with below
    except (OSError, tarfile.TarError) as e:
        raise ConfigError(f"{str(archive)!r} is not a contest backup: {e}") from None
    with tar:
        manifest = _manifest(tar, archive)
        kind = manifest["database"]
        if kind == "postgresql" and database is None:
            raise ConfigError(
                "this backup holds a PostgreSQL database: name an empty one to restore it "
                "into with --database URL"
            )
        private_folder(target)
        contest_file = target / str(manifest["contest_file"])
        folder = target / str(manifest["folder"])
        with tempfile.TemporaryDirectory(prefix="arbiter-restore-") as work:
            tar.extractall(work, filter="data")
            unpacked = Path(work)
            shutil.copytree(unpacked / "contest", target, dirs_exist_ok=True)
            private_folder(target)  # the copy took the unpacked folder's mode
            if (unpacked / "data").is_dir():
                shutil.copytree(unpacked / "data", folder)
            private_folder(folder)
            if kind == "sqlite":
                url = f"sqlite:///{target / (contest_file.stem + '.db')}"
                shutil.copy2(unpacked / SQLITE_NAME, target / (contest_file.stem + ".db"))
                os.chmod(target / (contest_file.stem + ".db"), 0o600)
            else:
                assert database is not None
                url = database
                _pg_restore(unpacked / PG_NAME, database)
    _point_at(contest_file, folder.name, url, default_sqlite=kind == "sqlite")
    return contest_file


def _copy_database(url: str, out: Path) -> str:
    """Copies the database at ``url`` to ``out`` as of one moment; returns its kind."""
    path = sqlite_file(url)
    if path is not None:
        try:
            source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                copy = sqlite3.connect(out)
                with copy:
                    source.backup(copy)  # online: pages written meanwhile are copied again
                copy.close()
            finally:
                source.close()
        except sqlite3.Error as e:
            raise ConfigError(f"cannot copy the database {str(path)!r}: {e}") from None
        return "sqlite"
    if make_url(url).get_backend_name() != "postgresql":
        raise ConfigError(f"cannot back up the database {url!r}: SQLite or PostgreSQL only")
    _run(
        ["pg_dump", "--format=custom", "--no-owner", "--file", str(out), libpq_address(url)],
        "pg_dump",
    )
    return "postgresql"


def _pg_restore(dump: Path, url: str) -> None:
    _run(
        ["pg_restore", "--no-owner", "--exit-on-error", "--dbname", libpq_address(url), str(dump)],
        "pg_restore",
    )


def _run(command: list[str], name: str) -> None:
    """:raises ConfigError: if the tool is missing or fails (its last words)."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=3600)
    except FileNotFoundError:
        raise ConfigError(
            f"{name} is not installed (Debian: apt install postgresql-client)"
        ) from None
    if done.returncode:
        why = (done.stderr.strip().splitlines() or ["no word"])[-1]
        raise ConfigError(f"{name} failed: {why}")


def _data_files(folder: Path) -> Iterator[tuple[Path, str]]:
    """Every folder and file of the data folder a backup keeps, with its name inside."""
    if not folder.is_dir():
        return
    for root, dirs, files in os.walk(folder):
        base = Path(root)
        rel = base.relative_to(folder).as_posix()
        kept = []
        for d in sorted(dirs):
            name = d if rel == "." else f"{rel}/{d}"
            if not LEFT_OUT.match(name) and not (base / d).is_symlink():
                kept.append(d)
                yield base / d, name
        dirs[:] = kept
        for f in sorted(files):
            name = f if rel == "." else f"{rel}/{f}"
            if not LEFT_OUT.match(name) and (base / f).is_file() and not (base / f).is_symlink():
                yield base / f, name


def _description_file(contest_file: Path) -> Path | None:
    """The contest's description file, relative to its contest file (None: none, or
    one outside the contest file's folder, which the restored file cannot name)."""
    data = tomllib.loads(contest_file.read_text())
    name = data.get("description_file")
    if not isinstance(name, str) or not name:
        return None
    path = (contest_file.parent / name).resolve()
    base = contest_file.parent.resolve()
    if not path.is_file() or not path.is_relative_to(base):
        return None
    return path.relative_to(base)


def _manifest(tar: tarfile.TarFile, archive: Path) -> dict[str, object]:
    try:
        member = tar.extractfile(MANIFEST)
        manifest = json.loads(member.read()) if member is not None else None
    except (KeyError, ValueError, tarfile.TarError):
        manifest = None
    if not isinstance(manifest, dict) or manifest.get("database") not in ("sqlite", "postgresql"):
        raise ConfigError(f"{str(archive)!r} is not a contest backup (no {MANIFEST})")
    if manifest.get("format") != FORMAT:
        raise ConfigError(
            f"{str(archive)!r} is a backup of format {manifest.get('format')!r}; this "
            f"arbiter reads format {FORMAT}"
        )
    return manifest


def _point_at(contest_file: Path, folder: str, url: str, *, default_sqlite: bool) -> None:
    """Rewrites the restored contest file's ``folder`` and ``database`` to the restored
    ones (a SQLite database beside the file needs no line): the old lines out, the
    new ones first.

    :raises ConfigError: if the rewritten file does not say them (it is checked).
    """
    text = contest_file.read_text()
    said = tomllib.loads(text)
    lines = [
        line
        for line in text.splitlines()
        if not any(
            re.match(rf"\s*{key}\s*=", line) and key in said for key in ("folder", "database")
        )
    ]
    head = [f"folder = {json.dumps(folder)}"]
    if not default_sqlite:
        head.append(f"database = {json.dumps(url)}")
    contest_file.write_text("\n".join([*head, *lines]) + "\n")
    try:
        now_said = tomllib.loads(contest_file.read_text())
    except tomllib.TOMLDecodeError:
        now_said = {}
    wanted = None if default_sqlite else url
    if now_said.get("folder") != folder or now_said.get("database") != wanted:
        raise ConfigError(f"could not point {str(contest_file)!r} at the restored contest")


def _add_bytes(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mode = 0o600
    tar.addfile(info, io.BytesIO(data))
