"""A contest's backup and a contest folder made from one: the database as of one
moment (SQLite's online backup, or pg_dump), the signing key pair, the session key,
the packed programs and the sources; the restored contest file pointing at the
restored folder and database; and a one-line refusal for a folder that is not
empty, a file that is no backup, and a PostgreSQL backup with nowhere to go."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import tarfile
import time
import tomllib
from pathlib import Path

import httpx2 as httpx
import pytest
from sqlalchemy import select

from arbiter.host import accounts
from arbiter.host.app import secret_key
from arbiter.host.config import load
from arbiter.host.db import Database
from arbiter.host.models import Account, Worker
from tests.host.conftest import fresh_postgres
from tests.host.running import (
    ALQUERQUE_KIT,
    ARBITER,
    Server,
    add_worker,
    csrf,
    free_port,
    make_contest,
    person,
    settled,
    upload,
)

CONTEST = """name = "Kept Cup"
game = "alquerque"
description_file = "about/cup.md"
"""


def host(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*ARBITER, "host", *args], capture_output=True, text=True, timeout=120)


def contest(folder: Path, database: str | None = None) -> Path:
    """A contest with an organiser, a contestant, a worker, a packed program and a
    version's source, in ``folder``."""
    folder.mkdir()
    (folder / "about").mkdir()
    (folder / "about" / "cup.md").write_text("# The Kept Cup\n")
    text = CONTEST + (f'database = "{database}"\n' if database else "")
    make_contest(folder, text + '[format]\nkind = "round-robin"\n')
    add_worker(folder, "machine-1")
    config = load(folder / "cup.toml")
    db = Database(config.database)
    with db.session() as s:
        accounts.create(s, "alice", "a long enough password")
        s.commit()
    db.close()
    secret_key(config.folder)  # as a server's first start makes it
    (config.folder / "programs").mkdir(parents=True, exist_ok=True)
    (config.folder / "programs" / "ab12.tar.gz").write_bytes(b"packed program")
    (config.folder / "versions" / "1" / "source").mkdir(parents=True)
    (config.folder / "versions" / "1" / "source" / "main.py").write_text("print('c3-d4')\n")
    (config.folder / "versions" / "1" / "build").mkdir()
    (config.folder / "versions" / "1" / "build" / "junk").write_text("left out")
    (config.folder / "exports").mkdir()
    (config.folder / "exports" / "1.tar.gz").write_bytes(b"an export, written again")
    (config.folder / "play" / "ab12").mkdir(parents=True)  # unpacked for people's games
    (config.folder / "play" / "ab12" / "main").write_text("unpacked again")
    # links a program's source may hold, to what is no part of the contest: not followed
    outside = folder.parent / "outside"
    outside.mkdir(exist_ok=True)
    (outside / "secret.txt").write_text("not the contest's")
    (config.folder / "versions" / "1" / "source" / "leak.txt").symlink_to(outside / "secret.txt")
    (config.folder / "versions" / "1" / "source" / "leaks").symlink_to(outside)
    return folder / "cup.toml"


def names(url: str) -> tuple[list[str], list[str]]:
    db = Database(url)
    with db.session() as s:
        people = sorted(s.scalars(select(Account.name)))
        machines = sorted(s.scalars(select(Worker.name)))
    db.close()
    return people, machines


def tree(folder: Path) -> list[str]:
    """Every folder and file under ``folder``, by its path there."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


def check_restored(original: Path, restored: Path) -> None:
    before, after = load(original), load(restored)
    assert after.folder == restored.parent / before.folder.name
    assert names(after.database) == names(before.database) == (["alice", "boss"], ["machine-1"])
    for kept in ("contest-signing.key", "contest-signing.pub", "secret.key"):
        assert (after.folder / kept).read_bytes() == (before.folder / kept).read_bytes()
    assert (after.folder / "programs" / "ab12.tar.gz").read_bytes() == b"packed program"
    assert (after.folder / "versions/1/source/main.py").read_text() == "print('c3-d4')\n"
    assert not (after.folder / "versions/1/build").exists()  # a build is made again
    # every folder where it was, and nothing else: the same tree but the build and
    # the exports, made again
    made_again = ("versions/1/build", "versions/1/build/junk", "exports", "exports/1.tar.gz")
    made_again += ("play", "play/ab12", "play/ab12/main")
    links = ("versions/1/source/leak.txt", "versions/1/source/leaks")
    left_out = (*made_again, *links)
    assert tree(after.folder) == [p for p in tree(before.folder) if p not in left_out]
    assert all(not (after.folder / link).exists() for link in links)
    assert after.description == before.description == "# The Kept Cup\n"
    assert restored.parent.stat().st_mode & 0o077 == 0  # the keys are in it


def test_a_sqlite_contest_is_backed_up_and_restored_whole(tmp_path: Path) -> None:
    original = contest(tmp_path / "cup")
    made = host(str(original), "--backup", str(tmp_path / "cup.tar.gz"))
    assert made.returncode == 0, made.stderr
    assert "backup of Kept Cup (sqlite" in made.stderr
    assert (tmp_path / "cup.tar.gz").stat().st_mode & 0o077 == 0
    done = host("--restore", str(tmp_path / "cup.tar.gz"), str(tmp_path / "again"))
    assert done.returncode == 0, done.stderr
    restored = tmp_path / "again" / "cup.toml"
    assert f"arbiter host {restored}" in done.stderr
    assert "database" not in tomllib.loads(restored.read_text())  # beside its file
    check_restored(original, restored)


def test_a_postgresql_contest_is_backed_up_and_restored_into_another_database(
    tmp_path: Path, postgres: str
) -> None:
    original = contest(tmp_path / "cup", postgres)
    assert host(str(original), "--backup", str(tmp_path / "cup.tar.gz")).returncode == 0
    refused = host("--restore", str(tmp_path / "cup.tar.gz"), str(tmp_path / "again"))
    assert refused.returncode == 1
    assert refused.stderr.strip().endswith(
        "this backup holds a PostgreSQL database: name an empty one to restore it into "
        "with --database URL"
    )
    # a database that is not there: pg_restore's own last words say so
    missing = postgres.rsplit("/", 1)[0] + "/no_such_database"
    failed = host(
        "--restore", str(tmp_path / "cup.tar.gz"), str(tmp_path / "x"), "--database", missing
    )
    assert failed.returncode == 1
    assert "pg_restore failed: pg_restore: error: connection to server" in failed.stderr
    assert 'database "no_such_database" does not exist' in failed.stderr
    with fresh_postgres() as target:
        done = host(
            "--restore", str(tmp_path / "cup.tar.gz"), str(tmp_path / "again"), "--database", target
        )
        assert done.returncode == 0, done.stderr
        restored = tmp_path / "again" / "cup.toml"
        assert tomllib.loads(restored.read_text())["database"] == target
        check_restored(original, restored)


def test_a_restore_refuses_a_folder_in_use_and_a_file_that_is_no_backup(tmp_path: Path) -> None:
    original = contest(tmp_path / "cup")
    assert host(str(original), "--backup", str(tmp_path / "cup.tar.gz")).returncode == 0
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine")
    busy = host("--restore", str(tmp_path / "cup.tar.gz"), str(tmp_path / "busy"))
    assert busy.returncode == 1
    assert busy.stderr.strip().endswith("is not empty: restore into a new folder")
    assert (tmp_path / "busy" / "notes.txt").read_text() == "mine"
    (tmp_path / "other.tar.gz").write_bytes(b"not an archive")
    bad = host("--restore", str(tmp_path / "other.tar.gz"), str(tmp_path / "new"))
    assert bad.returncode == 1 and "is not a contest backup" in bad.stderr
    with tarfile.open(tmp_path / "plain.tar.gz", "w:gz") as tar:
        tar.add(original, "cup.toml")
    plain = host("--restore", str(tmp_path / "plain.tar.gz"), str(tmp_path / "new"))
    assert plain.returncode == 1 and "no backup.json" in plain.stderr
    assert not (tmp_path / "new").exists() or not any((tmp_path / "new").iterdir())
    both = host(str(original), "--restore", str(tmp_path / "cup.tar.gz"), str(tmp_path / "x"))
    assert both.returncode == 1 and "name no CONTEST.toml with it" in both.stderr


def test_a_description_outside_the_contests_folder_is_named_again_not_packed(
    tmp_path: Path,
) -> None:
    # a restore beside the original finds it again by the same relative name
    original = contest(tmp_path / "cup")
    (tmp_path / "shared.md").write_text("# Shared rules\n")
    text = original.read_text().replace('"about/cup.md"', '"../shared.md"')
    original.write_text(text)
    made = host(str(original), "--backup", str(tmp_path / "cup.tar.gz"))
    assert made.returncode == 0, made.stderr
    with tarfile.open(tmp_path / "cup.tar.gz", "r:gz") as tar:
        assert not [n for n in tar.getnames() if n.endswith(".md")]
    done = host("--restore", str(tmp_path / "cup.tar.gz"), str(tmp_path / "again"))
    assert done.returncode == 0, done.stderr
    assert load(tmp_path / "again" / "cup.toml").description == "# Shared rules\n"


def exported(url: str) -> bytes:
    """The organiser's export of the contest at ``url``, written and downloaded."""
    boss = person(url, "boss", register=False)
    started = boss.post("/organiser/export", data={"csrf": csrf(boss, "/organiser")})
    assert started.status_code == 303, started.text[:300]
    deadline = time.monotonic() + 120
    while (got := boss.get("/organiser/exports/1")).status_code != 200:
        assert time.monotonic() < deadline, got.text[:300]
        time.sleep(0.3)
    return got.content


def export_members(data: bytes) -> dict[str, bytes]:
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        return {m.name: tar.extractfile(m).read() for m in tar if m.isfile()}  # type: ignore[union-attr]


@pytest.mark.early
def test_a_backup_taken_during_a_round_is_served_again_as_the_same_contest(
    tmp_path: Path,
) -> None:
    """A running contest backed up mid-round (two of its six games stored), restored
    into a new folder and served: the same standings, the same export, which
    verifies with the original contest's public key."""
    folder = tmp_path / "cup"
    folder.mkdir()
    make_contest(
        folder,
        'name = "Kept Cup"\ngame = "alquerque"\n[format]\nkind = "round-robin"\n'
        "[workers]\nlocal = 0\n",
    )
    first = Server(folder, free_port())
    again: Server | None = None
    try:
        first.start()
        for name in ("alice", "bob", "carol"):
            client = person(first.url, name)
            version = upload(client, "main.py", ALQUERQUE_KIT.read_bytes(), "python")
            assert settled(client, version, timeout=180)["state"] == "accepted"
        boss = person(first.url, "boss", register=False)
        made = boss.post("/organiser/rounds", data={"csrf": csrf(boss, "/organiser")})
        assert made.status_code == 303
        played = subprocess.run(
            [*ARBITER, "worker", first.url, "--games", "2", "--cache", str(tmp_path / "cache")],
            env=dict(os.environ, ARBITER_WORKER_TOKEN=add_worker(folder, "lab")),
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert played.returncode == 0, played.stderr
        backup = host(str(folder / "cup.toml"), "--backup", str(tmp_path / "cup.tar.gz"))
        assert backup.returncode == 0, backup.stderr  # the server is running meanwhile
        done = host("--restore", str(tmp_path / "cup.tar.gz"), str(tmp_path / "again"))
        assert done.returncode == 0, done.stderr
        again = Server(tmp_path / "again", free_port())
        again.start()
        before = httpx.get(f"{first.url}/api/standings").json()
        after = httpx.get(f"{again.url}/api/standings").json()
        assert before["games"] == after["games"] == 2
        assert before == after
        assert [r["state"] for r in after["rounds"]] == ["playing"]  # still mid-round
        original, restored = exported(first.url), exported(again.url)
        assert export_members(original) == export_members(restored)
        (tmp_path / "restored.tar.gz").write_bytes(restored)
        checked = subprocess.run(
            [
                *ARBITER,
                "replay",
                str(tmp_path / "restored.tar.gz"),
                "--public-key",
                str(folder / "cup-data" / "contest-signing.pub"),
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert checked.returncode == 0, checked.stdout + checked.stderr
    finally:
        first.close()
        if again is not None:
            again.close()


def test_each_way_a_backup_or_restore_cannot_go_on_is_one_line_naming_it(tmp_path: Path) -> None:
    """What the tools say, where the backup cannot be written (nothing half written
    left), a database of a kind it cannot copy, and a backup of another format."""
    from arbiter.errors import ConfigError
    from arbiter.host import backup as backup_module

    with pytest.raises(ConfigError, match=r"^pg_dump is not installed \(Debian: apt install"):
        backup_module._run(["arbiter-no-such-tool"], "pg_dump")
    with pytest.raises(ConfigError, match=r"^pg_restore failed: it broke$"):
        backup_module._run(["sh", "-c", "echo first >&2; echo it broke >&2; exit 3"], "pg_restore")
    with pytest.raises(ConfigError, match=r"^pg_dump failed: no word$"):
        backup_module._run(["false"], "pg_dump")
    with pytest.raises(ConfigError, match="SQLite or PostgreSQL only"):
        backup_module._copy_database("mysql://db/cup", tmp_path / "dump")
    made = contest(tmp_path / "cup")
    config = load(made)
    nowhere = tmp_path / "gone" / "cup.tar.gz"
    with pytest.raises(ConfigError, match=f"^cannot write the backup '{nowhere}': "):
        backup_module.backup(config, made, nowhere)
    assert not (tmp_path / "gone").exists()
    kept = tmp_path / "cup.tar.gz"
    backup_module.backup(config, made, kept)
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".partial")] == []
    # a newer backup, an older one, one that names no format, one that names it oddly
    for written, shown in ((99, "99"), (0, "0"), (None, "None"), ("1", "'1'")):
        with tarfile.open(kept) as tar:
            members = [(m, tar.extractfile(m)) for m in tar.getmembers()]
            other = io.BytesIO()
            with tarfile.open(fileobj=other, mode="w:gz") as out:
                for member, data in members:
                    if member.name == "backup.json" and data is not None:
                        manifest = json.loads(data.read()) | {"format": written}
                        raw = json.dumps(manifest).encode()
                        member.size = len(raw)
                        out.addfile(member, io.BytesIO(raw))
                    else:
                        out.addfile(member, data)
        (tmp_path / "other.tar.gz").write_bytes(other.getvalue())
        said = f"'{tmp_path / 'other.tar.gz'}' is a backup of format {shown}; this arbiter "
        with pytest.raises(ConfigError, match=f"^{re.escape(said)}reads format 1$"):
            backup_module.restore(tmp_path / "other.tar.gz", tmp_path / "restored")
        assert not (tmp_path / "restored").exists()
