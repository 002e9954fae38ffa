"""The walls between a program and its referee, each attacked by a real program.

A referee run as root on a machine with bubblewrap puts every program behind all
its walls: a uid of its own, its own PID, mount, IPC, UTS and network namespaces, a cgroup.
``attacker.py`` then tries what a hostile contestant would: the referee's
environment and secret, the record key, the record file, the results database,
the referee's working directory, another program's box, signals. Each test runs
the referee in a process of its own (its environment holds the secret) and reads
what the attacker reached from its transcript.

Where CI sets ``ARBITER_ISOLATION_TESTS=required`` a missing wall fails instead of
skipping.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from arbiter.referee.isolation import Level, Walls, available, choose
from arbiter.referee.sandbox import detect

ATTACKER = Path(__file__).parent / "agents" / "attacker.py"
WALLS = available(detect())


def need(*walls: str) -> None:
    """Skips (or, where required, fails) a test whose walls this machine lacks."""
    missing = [w for w in walls if not getattr(WALLS if hasattr(WALLS, w) else detect(), w)]
    if missing:
        why = f"this machine lacks: {', '.join(missing)} ({WALLS.describe()})"
        if os.environ.get("ARBITER_ISOLATION_TESTS") == "required":
            pytest.fail(why)
        pytest.skip(why)


@pytest.fixture
def scene() -> Iterator[Path]:
    """A referee's working directory with a results database in it, and another
    program's directory beside it, all readable by anyone as an organiser's files
    often are (so only the walls keep the attacker out)."""
    root = Path(tempfile.mkdtemp(prefix="arbiter-scene-"))
    os.chmod(root, 0o755)
    referee = root / "referee"
    other = root / "other"
    for d in (referee, other):
        d.mkdir(mode=0o755)
    (referee / "cup.db").write_text("SQLite format 3 (a stand-in)\n")
    (other / "secret.txt").write_text("the other program's book\n")
    for f in (referee / "cup.db", other / "secret.txt"):
        os.chmod(f, 0o644)
    yield root
    shutil.rmtree(root, ignore_errors=True)


PLANTED = "planted-by-attacker.txt"


def plantable() -> list[Path]:
    """The folders the attacker tries to plant a file in besides its own: arbiter's
    package and the Python it runs on."""
    import arbiter

    return [Path(arbiter.__file__).parent, Path(os.__file__).parent]


def attack(
    scene: Path, key: Path, isolation: str, *, open_to_all: bool = False
) -> dict[str, object]:
    """Plays one Votey game of the attacker (second, so the first program is running
    in its box when it attacks) against ``random``, a program too, under
    ``isolation``, with records sealed by ``key``; returns what the attacker reached.
    The attacker runs from a copy in the scene (``program/``), writable by anyone
    when ``open_to_all`` (then only a read-only view of its program files keeps it
    from rewriting them)."""
    program = scene / "program"
    program.mkdir()
    shutil.copy(ATTACKER, program / ATTACKER.name)
    os.chmod(program, 0o777 if open_to_all else 0o755)
    os.chmod(program / ATTACKER.name, 0o666 if open_to_all else 0o644)
    try:
        return _attack(scene, key, isolation, program / ATTACKER.name)
    finally:  # what a missing wall let it plant goes, so no other run is harmed
        for folder in plantable():
            (folder / PLANTED).unlink(missing_ok=True)


def _attack(scene: Path, key: Path, isolation: str, attacker: Path) -> dict[str, object]:
    referee = scene / "referee"
    record, logs = referee / "games.jsonl", scene / "logs"
    targets = scene / "targets.json"
    named = [key, record, referee / "cup.db", referee, scene / "other" / "secret.txt"]
    targets.write_text(json.dumps([str(p) for p in named]))
    os.chmod(targets, 0o644)
    command = f"{sys.executable} {attacker} REPORT {targets}"
    env = {**os.environ, "ARBITER_TEST_SECRET": "hunter2", "ARBITER_RECORD_KEY": str(key)}
    other = f"{sys.executable} -m arbiter.cli agent votey --engine random"
    done = subprocess.run(
        [
            *(sys.executable, "-m", "arbiter.cli", "match", "votey", other, command),
            *("--games", "1", "--names", "random", "attacker", "--record", str(record)),
            *("--log-dir", str(logs), "--isolation", isolation, "--move-time", "5"),
        ],
        cwd=referee,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert Walls().describe().split(" (")[0] != done.stdout  # the walls were said
    assert f"isolation: {choose(isolation).level}" in done.stdout
    text = (logs / "game-0001" / "2-attacker.log").read_text()
    lines = [x.split(" e REPORT ", 1)[1] for x in text.splitlines() if " e REPORT " in x]
    return dict(json.loads(line) for line in lines)


BY_ITS_OWN_UID = (
    "parent environ",
    "any environ",
    "key",
    "record read",
    "record write",
    "database write",
    "referee dir write",
    "other boxes",
    "signal parent",
    "signal others",
    "own program file write",
    "own program folder write",
    "arbiter package write",
    "python write",
)
"""The attacks a uid of its own blocks: the referee's private files (its environment,
the key, the records and databases it makes), everything it owns (its program files,
arbiter's package, the Python it runs on), the other program."""


def blocked(found: dict[str, object], *names: str) -> None:
    reached = {n: found[n] for n in names if not str(found[n]).startswith("blocked")}
    assert not reached, reached


def test_behind_every_wall_a_program_reaches_nothing_of_its_referee(
    scene: Path, tmp_path: Path
) -> None:
    need("cgroup", "own_uid", "namespaces")
    key = tmp_path / "keys" / "record.key"
    found = attack(scene, key, "strict", open_to_all=True)
    blocked(found, *BY_ITS_OWN_UID, "database read", "referee dir list", "other program's file")
    assert int(str(found["processes seen"])) <= 3  # itself and bubblewrap's pid 1
    assert int(str(found["uid"])) in detect().uids
    # nothing changed: the record verifies, the referee's folder holds what it held
    assert sorted(p.name for p in (scene / "referee").iterdir()) == ["cup.db", "games.jsonl"]
    assert "UPDATE" not in (scene / "referee" / "cup.db").read_text()
    assert (scene / "program" / ATTACKER.name).read_bytes() == ATTACKER.read_bytes()
    assert not any((folder / PLANTED).exists() for folder in [*plantable(), scene / "program"])
    replayed = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "replay", str(scene / "referee" / "games.jsonl")],
        env={**os.environ, "ARBITER_RECORD_KEY": str(key)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "1 of 1 records verified" in replayed.stdout, replayed.stdout + replayed.stderr


def test_a_uid_of_its_own_alone_keeps_the_referee_s_secrets_and_files(
    scene: Path, tmp_path: Path
) -> None:
    need("own_uid")
    key = tmp_path / "keys" / "record.key"
    found = attack(scene, key, "user")
    # what the referee made private (its environment, the key, the records, the
    # database) and everything it owns stays out of reach; what an organiser left
    # readable by anyone stays readable without namespaces
    blocked(found, *BY_ITS_OWN_UID)
    other = str(found["other program's file"])
    if detect().disks:  # its /tmp is its own: the scene, in the machine's /tmp, is not there
        assert other.startswith("blocked"), other
    else:
        assert other.startswith("the other program"), other
    assert int(str(found["processes seen"])) > 3  # no PID namespace at this level
    assert int(str(found["uid"])) in detect().uids


def test_the_record_and_database_the_referee_makes_are_its_own_alone(tmp_path: Path) -> None:
    from arbiter.record import open_records
    from arbiter.tournament.store import Store

    os.close(open_records(tmp_path / "games.jsonl"))
    with Store(tmp_path / "cup.db"):
        pass
    for name in ("games.jsonl", "cup.db"):
        assert (tmp_path / name).stat().st_mode & 0o077 == 0, name


def test_a_level_the_machine_cannot_give_is_refused_by_name() -> None:
    from dataclasses import replace

    from arbiter.errors import ConfigError

    bare = replace(detect(), own_uids=False, namespaces=False)
    with pytest.raises(ConfigError, match="--isolation strict needs a uid of its own"):
        choose(Level.STRICT, bare)
    with pytest.raises(ConfigError, match="--isolation namespaces needs namespaces"):
        choose("namespaces", bare)
    with pytest.raises(ConfigError, match="unknown isolation level 'tight'"):
        choose("tight", bare)
    # a level caps the walls: 'cgroup' leaves uid and namespaces down where they exist
    full = replace(detect(), kind="cgroup v2", own_uids=True, namespaces=True)
    assert choose("rlimits", full) == Walls()
    assert choose("cgroup", full) == Walls(cgroup=True)
    assert choose("user", full) == Walls(cgroup=True, own_uid=True)
    assert choose("auto", full) == choose("strict", full) == Walls(True, True, True)
    # and the line said at a match's start names each wall
    line = Walls(cgroup=True, own_uid=True).describe(full)
    assert line.startswith("isolation: user (cgroup: cgroup v2, own uid: yes (60000-60999)")


def test_strict_isolation_on_a_machine_without_the_walls_refuses_to_start(tmp_path) -> None:
    argv = ["match", "votey", "true", "random", "--isolation", "strict"]
    done = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", *argv],
        env={**os.environ, "ARBITER_WALLS_OFF": "uid,ns"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "error: --isolation strict needs" in done.stderr and "Traceback" not in done.stderr
