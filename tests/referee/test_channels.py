"""Two programs of one game, behind the default walls, try every channel the machine
offers to meet each other, and a service on the machine's loopback: they reach
nothing. The same programs with the walls down (``--isolation rlimits --network``)
reach everything, so each probe is seen to work.

The programs are ``agents/colluder.py``; the test reads what each reached from its
transcript.
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import uuid
from pathlib import Path

from .test_isolation import need

COLLUDER = Path(__file__).parent / "agents" / "colluder.py"
CHANNELS = {
    "abstract-socket",
    "path-socket",
    "shm-socket",
    "tcp",
    "udp",
    "tmp-file",
    "shm-file",
    "sysv-queue",
    "sysv-memory",
    "posix-queue",
}


def reached(tmp_path: Path, name: str, *flags: str) -> dict[str, bool]:
    """Plays one game of the colluders with ``flags``; what either side reached."""
    from arbiter.cli import main

    tag = uuid.uuid4().hex[:12]
    try:
        with socket.create_server(("127.0.0.1", 0)) as service:
            command = f"{sys.executable} {COLLUDER} {service.getsockname()[1]} {tag}"
            logs = tmp_path / name
            argv = ["match", "votey", command, command, "--games", "1", "--names", "a", "b"]
            assert main([*argv, "--log-dir", str(logs), *flags]) == 0
    finally:
        subprocess.run([sys.executable, str(COLLUDER), "clean", tag], check=True)
    found: dict[str, bool] = {}
    for log in (logs / "game-0001").glob("*.log"):
        for what, answer in re.findall(r" e reached (\S+) (yes|no)", log.read_text()):
            found[what] = answer == "yes"
    assert set(found) == CHANNELS | {"service-1", "service-2"}, found
    return found


def test_two_programs_of_a_game_reach_neither_each_other_nor_the_machine(tmp_path, capsys) -> None:
    need("cgroup", "own_uid", "namespaces")
    walled = reached(tmp_path, "walled")
    assert [what for what, yes in walled.items() if yes] == []
    assert "network: none (a loopback of its own)" in capsys.readouterr().out
    open_ = reached(tmp_path, "open", "--isolation", "rlimits", "--network")
    assert [what for what, yes in open_.items() if not yes] == []
    assert "network: the machine's (--network)" in capsys.readouterr().out


def test_at_user_level_the_temporary_folders_are_private_too(tmp_path) -> None:
    """At the ``user`` level (a uid of its own, no bubblewrap) the network and IPC
    namespaces part the two programs, and a mount namespace of each makes its
    ``/tmp``, ``/var/tmp`` and ``/dev/shm`` folders of its own capped disk: nothing
    is left (README: a program's world)."""
    need("cgroup", "own_uid", "disks")
    found = reached(tmp_path, "user", "--isolation", "user")
    assert [what for what, yes in found.items() if yes] == []
