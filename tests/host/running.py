"""A contest server run as its user runs it: ``arbiter host`` in a process of its own,
with its local workers, on a free port; the organiser made from the command line."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx

PASSWORD = "a long enough password"
ARBITER = [sys.executable, "-m", "arbiter.cli"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def contest_server(folder: Path, contest_text: str) -> Iterator[tuple[str, int]]:
    """Writes ``cup.toml`` in ``folder``, makes the organiser ``boss`` and runs the
    server; yields its URL and process id. What the server printed is shown at the
    end (with a failing test's output)."""
    contest = folder / "cup.toml"
    contest.write_text(contest_text)
    env = dict(os.environ, ARBITER_PASSWORD=PASSWORD)
    made = subprocess.run(
        [*ARBITER, "host", str(contest), "--organiser", "boss"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert made.returncode == 0, made.stderr
    port = free_port()
    log = (folder / "server.log").open("w")
    process = subprocess.Popen(
        [*ARBITER, "host", str(contest), "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    try:
        while True:
            try:
                if httpx.get(f"{url}/api/standings", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert process.poll() is None, (folder / "server.log").read_text()
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)
        yield url, process.pid
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()
        print((folder / "server.log").read_text()[-5000:])
