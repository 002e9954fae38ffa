"""A contest server run as its user runs it: ``arbiter host`` in a process of its own,
with its local workers, on a free port; the organiser made from the command line; and
what its users do over HTTP (register or log in, upload, wait for the gate) and what
a test does to it (kill a worker mid-game). The tests and ``benchmarks/contest.py``
share these."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import psutil
from sqlalchemy import create_engine, text

PASSWORD = "a long enough password"
ARBITER = [sys.executable, "-m", "arbiter.cli"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``arbiter host`` on a fixed port of this machine, started, killed and started
    again as a test asks; what it printed goes to ``server.log`` in its folder."""

    def __init__(self, folder: Path, port: int, *args: str, log: str = "server.log") -> None:
        self.folder = folder
        self.port = port
        self.args = args
        self.url = f"http://127.0.0.1:{port}"
        self.process: subprocess.Popen[str] | None = None
        self.log = folder / log
        self._log = self.log.open("a")

    def start(self, timeout: float = 30) -> int:
        """Starts the server and waits until it answers; returns its process id."""
        env = dict(os.environ, ARBITER_PASSWORD=PASSWORD)
        self.process = subprocess.Popen(
            [*ARBITER, "host", str(self.folder / "cup.toml"), "--port", str(self.port), *self.args],
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while True:
            try:
                if httpx.get(f"{self.url}/api/standings", timeout=2).status_code == 200:
                    return self.process.pid
            except httpx.HTTPError:
                pass
            assert self.process.poll() is None, self.log.read_text()
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)

    def stop(self, sig: int = signal.SIGTERM) -> None:
        """Stops the server's process group (``SIGKILL``: no clean-up of its own)."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, sig)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.process = None

    def close(self) -> None:
        self.stop()
        self._log.close()
        print(self.log.read_text()[-5000:])


def make_contest(folder: Path, contest_text: str) -> Path:
    """Writes ``cup.toml`` in ``folder`` and makes the organiser ``boss``."""
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
    return contest


def add_worker(folder: Path, name: str) -> str:
    """Registers a worker machine ``name``; returns its token."""
    made = subprocess.run(
        [*ARBITER, "host", str(folder / "cup.toml"), "--add-worker", name],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert made.returncode == 0, made.stderr
    return made.stdout.strip()


@contextlib.contextmanager
def contest_server(folder: Path, contest_text: str) -> Iterator[tuple[str, int]]:
    """Writes ``cup.toml`` in ``folder``, makes the organiser ``boss`` and runs the
    server; yields its URL and process id. What the server printed is shown at the
    end (with a failing test's output)."""
    make_contest(folder, contest_text)
    server = Server(folder, free_port())
    try:
        pid = server.start()
        yield server.url, pid
    finally:
        server.close()


def csrf(client: httpx.Client, path: str = "/") -> str:
    """The CSRF token of the page at ``path`` (every form's)."""
    page = client.get(path)
    found = re.search(r'name="csrf-token" content="([^"]+)"', page.text)
    assert found, page.text[:300]
    return found.group(1)


def person(url: str, name: str, *, register: bool = True) -> httpx.Client:
    """A client signed in as ``name``, registering it first unless ``register`` is
    False (the organiser)."""
    client = httpx.Client(base_url=url, timeout=60, follow_redirects=False)
    path = "/register" if register else "/login"
    done = client.post(path, data={"name": name, "password": PASSWORD, "csrf": csrf(client, path)})
    assert done.status_code == 303, done.text[:500]
    return client


def upload(client: httpx.Client, filename: str, data: bytes, language: str = "") -> int:
    """Uploads a version through the form; returns its id."""
    done = client.post(
        "/versions",
        data={"csrf": csrf(client, "/me"), "language": language},
        files={"source": (filename, data)},
    )
    assert done.status_code == 303, done.text[:500]
    return int(done.headers["location"].rsplit("/", 1)[1])


def settled(client: httpx.Client, version: int, timeout: float = 120) -> dict[str, Any]:
    """A version's report once it is accepted or refused."""
    deadline = time.monotonic() + timeout
    while True:
        data: dict[str, Any] = client.get(f"/api/versions/{version}").json()
        if data["state"] in ("accepted", "refused"):
            return data
        assert time.monotonic() < deadline, data
        time.sleep(0.3)


def kill_a_worker_mid_game(database: Path, round_number: int, timeout: float = 60) -> int:
    """Catches a game of round ``round_number`` under way and kills the worker playing
    it, stopped first so that it can no longer send the result; returns the game's id.

    The workers are listed once, before: at the first lease seen every worker is
    stopped at once, with no listing of processes between the look and the stop (on a
    busy machine that listing took longer than a round of short games).

    :raises AssertionError: if no game was caught under way within ``timeout``.
    """
    db = sqlite3.connect(database)
    workers = [(p, line) for p, line in descendants() if "arbiter.host.worker" in line]
    assert workers, "no local worker to kill"
    query = (
        "SELECT games.id, worker, lease FROM games JOIN rounds ON rounds.id = round_id "
        "WHERE rounds.number = ? AND games.state = 'leased'"
    )
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        seen = db.execute(query, (round_number,)).fetchall()
        if not seen:
            time.sleep(0.02)
            continue
        for p, _ in workers:  # all at once, the processes listed before: no lag
            p.suspend()
        time.sleep(2)  # a result sent just before is taken meanwhile
        still = set(db.execute(query, (round_number,)).fetchall()) & set(seen)
        caught = [(game, p) for game, name, _ in still for p, line in workers if name in line]
        for p, _ in workers:
            if caught and p is caught[0][1]:
                p.kill()
            else:
                p.resume()
        if caught:
            return int(caught[0][0])
    raise AssertionError(f"no game of round {round_number} was caught under way")


ALQUERQUE_KIT = Path(__file__).parents[2] / "src/arbiter/games/alquerque/kits/python/main.py"


def descendants() -> list[tuple[psutil.Process, list[str]]]:
    """This process's descendants with their command lines, passing over one gone or
    a zombie (a child another test of this worker left unreaped)."""
    found = []
    for p in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.Error):
            found.append((p, p.cmdline()))
    return found


def slow_kit() -> bytes:
    """The Python kit, thinking a fifth of a second on each of its first ten moves,
    so that a round is still being played when a process is killed."""
    kit = ALQUERQUE_KIT.read_text()
    kit = kit.replace("import random\n", "import random\nimport time\n\nthought = 0\n", 1)
    slow = "    global thought\n    thought += 1\n    if thought <= 10:\n        time.sleep(0.2)\n"
    head = '    """The move to play: here the longest capture, else any move."""\n'
    assert head in kit
    return kit.replace(head, head + slow, 1).encode()


def leader(url: str) -> str | None:
    """The name of the process that leads, as the processes last said."""
    engine = create_engine(url)
    try:
        with engine.connect() as c:
            row = c.execute(
                text("SELECT name FROM server_processes WHERE leads ORDER BY seen DESC")
            ).first()
    finally:
        engine.dispose()
    return None if row is None else str(row[0])
