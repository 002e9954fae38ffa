"""Remote workers against a real server: one that outlives its server's crash and
delivers the game it was playing, a build too large for the workers refused while
the round goes on, one live process per token, and a revoked token ending its
worker with one line."""

from __future__ import annotations

import contextlib
import http.server
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import httpx2 as httpx
import psutil
import pytest

from arbiter.host.request_signing import Token
from tests.host.running import (
    Server,
    add_worker,
    csrf,
    free_port,
    make_contest,
    person,
    settled,
    upload,
)

KITS = Path(__file__).parents[2] / "src" / "arbiter" / "games" / "alquerque" / "kits"

CONTEST = (
    'name = "Worker Cup"\ngame = "alquerque"\n[format]\nkind = "swiss"\nrounds = 3\n'
    "[limits]\nbuild_mb = 2\n[workers]\nlocal = 0\nlease_seconds = 10\n"
)

BALLAST = b"\n__attribute__((used)) static const char ballast[3 << 20] = {1};\n"
"""Three megabytes of data a 60-byte line adds to a program's binary."""


def wait_until(what: Callable[[], object], seconds: float, why: str) -> None:
    deadline = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < deadline, why
        time.sleep(0.2)


class RemoteWorker:
    """``arbiter worker`` run as on another machine, its lines kept in files."""

    def __init__(self, folder: Path, url: str, token: str, name: str, cache: Path) -> None:
        self.out = folder / f"{name}-{os.urandom(3).hex()}.out"
        self.err = self.out.with_suffix(".err")
        with self.out.open("w") as out, self.err.open("w") as err:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "arbiter.host.worker",
                    url,
                    "--token",
                    token,
                    "--name",
                    name,
                    "--cache",
                    str(cache),
                    "--away-max",
                    "2",
                ],
                stdout=out,
                stderr=err,
                start_new_session=True,
            )

    def said(self) -> str:
        return self.out.read_text()

    def complained(self) -> str:
        return self.err.read_text()

    def stop(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)


@pytest.fixture
def contest(tmp_path: Path) -> Iterator[tuple[Server, Path]]:
    """A contest with no local worker, and two entrants accepted."""
    make_contest(tmp_path, CONTEST)
    server = Server(tmp_path, free_port())
    try:
        server.start()
        for name, kit in (("alice", "python/main.py"), ("bob", "c/main.c")):
            client = person(server.url, name)
            version = upload(client, Path(kit).name, (KITS / kit).read_bytes())
            assert settled(client, version)["state"] == "accepted"
        yield server, tmp_path
    finally:
        server.close()


def start_round(url: str) -> None:
    boss = person(url, "boss", register=False)
    made = boss.post("/organiser/rounds", data={"csrf": csrf(boss, "/organiser")})
    assert made.status_code == 303, made.text[:300]


def round_done(database: Path, number: int) -> bool:
    with contextlib.closing(sqlite3.connect(database)) as db:
        row = db.execute("SELECT state FROM rounds WHERE number = ?", (number,)).fetchone()
    return row is not None and row[0] == "done"


@pytest.mark.early
def test_a_worker_outlives_its_servers_crash_and_delivers_the_game_it_was_playing(
    contest: tuple[Server, Path],
) -> None:
    server, folder = contest
    database = folder / "cup.db"
    # an upload whose build is larger than the contest lets workers fetch is refused
    carol = person(server.url, "carol")
    big = upload(carol, "main.c", (KITS / "c" / "main.c").read_bytes() + BALLAST)
    report = settled(carol, big)
    assert report["state"] == "refused" and "build_mb" in report["reason"], report
    assert not (folder / "cup-data" / "versions" / str(big) / "build").exists()

    token = add_worker(folder, "lab")
    worker = RemoteWorker(folder, server.url, token, "lab", folder / "cache")
    try:
        start_round(server.url)
        # catch the worker mid-game: stop it, kill the server, let it finish the game
        game_id = caught_mid_game(worker, database)
        server.stop(signal.SIGKILL)
        psutil.Process(worker.process.pid).resume()
        wait_until(lambda: "server away" in worker.said(), 60, worker.said())
        time.sleep(15)  # away past the lease (10 s): kept for the worker all the same
        server.start()
        wait_until(lambda: round_done(database, 1), 120, worker.said())
        with contextlib.closing(sqlite3.connect(database)) as db:
            state, attempts = db.execute(
                "SELECT state, attempts FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            games = db.execute("SELECT count(*) FROM games WHERE state = 'done'").fetchone()[0]
        # stored once, under the lease it was played with: never played again
        assert (state, attempts) == ("done", 1) and games == 2
        # and it played on: the round's other game is its too (the worker says so once
        # the server has answered, a moment after the round is seen done)
        wait_until(lambda: worker.said().count(": stored") == games, 30, worker.said())
        said = worker.said()
        assert f"game {game_id}: " in said and "stored" in said and "server back" in said
        assert worker.process.poll() is None, worker.complained()
        assert "Traceback" not in worker.complained()
    finally:
        worker.stop()


def caught_mid_game(worker: RemoteWorker, database: Path, timeout: float = 60) -> int:
    """Stops ``worker`` (not its game's programs) while it plays a game; returns the
    game."""
    process = psutil.Process(worker.process.pid)
    deadline = time.monotonic() + timeout
    with contextlib.closing(sqlite3.connect(database)) as db:
        while time.monotonic() < deadline:
            row = db.execute("SELECT id, lease FROM games WHERE state = 'leased'").fetchone()
            if row is not None and f"game {row[0]} (round" in worker.said():
                for p in (process, *process.children(recursive=True)):
                    with contextlib.suppress(psutil.Error):
                        p.suspend()
                time.sleep(2)  # a result it sent just before is taken meanwhile
                still = db.execute("SELECT state, lease FROM games WHERE id = ?", (row[0],))
                if still.fetchone() == ("leased", row[1]):
                    for p in process.children(recursive=True):
                        with contextlib.suppress(psutil.Error):
                            p.resume()  # its game goes on; the worker itself waits
                    return int(row[0])
                for p in (process, *process.children(recursive=True)):
                    with contextlib.suppress(psutil.Error):
                        p.resume()
            time.sleep(0.02)
    raise AssertionError("no game was caught under way")


def test_one_live_worker_per_token_and_a_revoked_token_ends_its_worker(
    contest: tuple[Server, Path],
) -> None:
    server, folder = contest
    token = add_worker(folder, "lab")
    first = RemoteWorker(folder, server.url, token, "lab", folder / "cache-1")
    second = None
    try:
        with contextlib.closing(sqlite3.connect(folder / "cup.db")) as db:
            wait_until(
                lambda: db.execute("SELECT instance FROM workers").fetchone()[0], 30, "no call"
            )
        second = RemoteWorker(folder, server.url, token, "lab", folder / "cache-2")
        wait_until(lambda: "in use by another live worker" in second.said(), 30, second.said())
        assert second.process.poll() is None  # it waits; it does not give up
        boss = person(server.url, "boss", register=False)
        done = boss.post(
            "/organiser/revoke",
            data={"csrf": csrf(boss, "/organiser"), "name": "lab", "confirm": "yes"},
        )
        assert done.status_code == 303, done.text[:300]
        for worker in (first, second):
            assert worker.process.wait(timeout=60) == 1
            lines = worker.complained().strip().splitlines()
            assert len(lines) == 1 and "revoked" in lines[0], lines
        assert "revoked" in boss.get("/organiser").text
    finally:
        for worker in (first, second):
            if worker is not None:
                worker.stop()


def test_the_local_workers_die_with_their_server(tmp_path: Path) -> None:
    make_contest(tmp_path, 'game = "alquerque"\n[workers]\nlocal = 2\n')
    server = Server(tmp_path, free_port())
    try:
        pid = server.start()
        wait_until(lambda: len(local_workers(pid)) == 2, 30, "no local workers")
        workers = local_workers(pid)
        os.kill(pid, signal.SIGKILL)  # the server alone, no clean-up of its own
        wait_until(
            lambda: not any(w.is_running() and w.status() != "zombie" for w in workers),
            30,
            "a local worker outlived its server",
        )
    finally:
        server.close()


def local_workers(server_pid: int) -> list[psutil.Process]:
    with contextlib.suppress(psutil.Error):
        return [
            p
            for p in psutil.Process(server_pid).children()
            if "arbiter.host.worker" in " ".join(p.cmdline())
        ]
    return []


class FakeContest(http.server.BaseHTTPRequestHandler):
    """A server posing as the contest: it answers ``/api/contest`` as the real one does
    (copied) and logs every request it is sent, headers and body."""

    answer: bytes = b""
    seen: ClassVar[list[tuple[str, str, dict[str, str], bytes]]] = []

    def _any(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else b""
        self.seen.append((self.command, self.path, dict(self.headers.items()), body))
        data = self.answer if self.path.startswith("/api/contest") else b'{"state": "done"}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = _any

    def log_message(self, format: str, *args: Any) -> None:
        pass


class NotAContest(http.server.BaseHTTPRequestHandler):
    """A web server of another kind: every path is a page it does not have."""

    def do_GET(self) -> None:
        self.send_error(404)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def test_a_worker_sent_to_a_server_that_is_no_contest_stops_with_one_line(
    tmp_path: Path,
) -> None:
    other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), NotAContest)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    token = Token.make("0123456789abcdef", bytes(32)).text
    url = f"http://127.0.0.1:{other.server_address[1]}"
    worker = RemoteWorker(tmp_path, url, token, "lab", tmp_path / "cache")
    try:
        assert worker.process.wait(timeout=60) == 1
        lines = worker.complained().strip().splitlines()
        assert len(lines) == 1, lines
        assert "answers, but not as an arbiter contest server (/api/contest: 404)" in lines[0]
    finally:
        worker.stop()
        other.shutdown()


def test_a_server_posing_as_the_contest_learns_nothing_a_worker_could_be_acted_as_with(
    tmp_path: Path,
) -> None:
    make_contest(tmp_path, 'game = "alquerque"\n[workers]\nlocal = 0\n')
    server = Server(tmp_path, free_port())
    fake = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FakeContest)
    threading.Thread(target=fake.serve_forever, daemon=True).start()
    workers = []
    try:
        server.start()
        token = add_worker(tmp_path, "lab")
        # the contest's id is public, and so is its proof of an earlier challenge
        real = httpx.get(f"{server.url}/api/contest?challenge=recorded", timeout=30)
        assert real.json()["proof"]
        FakeContest.answer = real.content  # copied whole
        fake_url = f"http://127.0.0.1:{fake.server_address[1]}"
        workers.append(RemoteWorker(tmp_path, fake_url, token, "lab", tmp_path / "c1"))
        # a token of another contest, sent to the real one: never sent at all
        stranger = Token.make("0123456789abcdef", bytes(32)).text
        workers.append(RemoteWorker(tmp_path, server.url, stranger, "x", tmp_path / "c2"))
        # met first, neither is the token's contest: one line each, and the worker stops
        for worker, why in zip(workers, ("does not prove", "not this token's"), strict=True):
            assert worker.process.wait(timeout=60) == 1
            lines = worker.complained().strip().splitlines()
            assert len(lines) == 1 and why in lines[0], lines
            assert "refused" not in worker.said() + worker.complained()
        assert FakeContest.seen and all(
            path.startswith("/api/contest?challenge=") for _, path, _, _ in FakeContest.seen
        )
        secret = token.rsplit(".", 1)[1]
        api = httpx.Client(base_url=server.url, timeout=30)
        for _method, path, headers, body in FakeContest.seen:
            assert secret not in repr(headers) + repr(body) + path
            # whatever it heard, sent to the contest, opens nothing
            kept = {k: v for k, v in headers.items() if k.lower() not in ("host", "content-length")}
            again = api.request("POST", "/api/worker/lease", content=body or b"{}", headers=kept)
            assert again.status_code == 401, again.text
    finally:
        for worker in workers:
            worker.stop()
        fake.shutdown()
        server.close()


def test_sigterm_ends_a_worker_after_its_game_and_a_server_after_its_requests(
    contest: tuple[Server, Path],
) -> None:
    """As a service manager stops them: a worker told SIGTERM mid-game plays it out,
    delivers its result and stops with one line; a server told SIGTERM ends its live
    streams at once (their pages reconnect) and stops with one line."""
    server, folder = contest
    database = folder / "cup.db"
    worker = RemoteWorker(folder, server.url, add_worker(folder, "lab"), "lab", folder / "cache")
    try:
        start_round(server.url)
        game_id = caught_mid_game(worker, database)
        os.kill(worker.process.pid, signal.SIGTERM)  # the worker alone, not its game
        psutil.Process(worker.process.pid).resume()
        assert worker.process.wait(timeout=120) == 0, worker.complained()
        said = worker.said()
        assert "SIGTERM: stopping after the game under way" in said
        assert f"stopped after game {game_id}, as asked" in said
        with contextlib.closing(sqlite3.connect(database)) as db:
            states = dict(db.execute("SELECT id, state FROM games").fetchall())
            attempts = db.execute("SELECT attempts FROM games WHERE id = ?", (game_id,))
            assert attempts.fetchone()[0] == 1
        assert states[game_id] == "done"  # its result stored, not given back
        assert sorted(states.values()) == ["done", "queued"]  # and no other game begun
    finally:
        worker.stop()

    with httpx.Client(base_url=server.url, timeout=30) as client:
        # the stored game reaches the standings first (on a busy machine its push came
        # after the stream below opened): from then on nothing changes
        deadline = time.monotonic() + 60
        while client.get("/api/standings").json()["games"] != 1:
            assert time.monotonic() < deadline, "the stored game never reached the standings"
            time.sleep(0.2)
        with client.stream("GET", "/api/events") as live:
            lines = live.iter_lines()
            assert next(lines) == "retry: 2000"
            running = server.process
            assert running is not None
            running.send_signal(signal.SIGTERM)
            rest = list(lines)  # the stream ends: its page opens another
        assert running.wait(timeout=60) == 0
    assert all(not line.startswith("data:") for line in rest)
    log = server.log.read_text()
    # ended by the server, not cut when the requests' grace ran out
    assert "timeout graceful shutdown exceeded" not in log
    assert "arbiter host: SIGTERM: stopping: the requests under way are finished" in log
    assert log.rstrip().endswith("arbiter host: stopped")
    server.process = None
