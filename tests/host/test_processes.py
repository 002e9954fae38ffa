"""One process serves a SQLite contest: a second is refused in one line, and the
first goes on. (Several processes on PostgreSQL, behind nginx, with the leader
killed mid-round: ``test_deployment.py``.)"""

from __future__ import annotations

import subprocess
from pathlib import Path

import httpx2 as httpx

from tests.host.running import (
    ARBITER,
    Server,
    free_port,
    make_contest,
)


def test_a_second_process_on_a_sqlite_contest_is_refused_in_one_line(tmp_path: Path) -> None:
    make_contest(tmp_path, 'name = "One Cup"\ngame = "alquerque"\n[workers]\nlocal = 0\n')
    server = Server(tmp_path, free_port())
    try:
        server.start()
        second = subprocess.run(
            [*ARBITER, "host", str(tmp_path / "cup.toml"), "--port", str(free_port())],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert second.returncode == 1
        assert second.stderr.strip().splitlines() == [
            f"arbiter host: error: another arbiter host process serves "
            f"'{tmp_path / 'cup.db'}': SQLite serves a contest from one process (use "
            "PostgreSQL for several)"
        ]
        assert httpx.get(f"{server.url}/api/standings").status_code == 200  # undisturbed
    finally:
        server.close()
