"""Two server processes of one contest on one PostgreSQL, as an organiser runs them
when one machine is not enough: either answers any request, a result stored through
one reaches the live standings held by the other, a failed log-in at one holds the
address back at the other, and when the process that leads the contest's work is
killed with SIGKILL mid-round the other takes the lead, the round ends with no game
lost or played twice, and the pages go on answering."""

from __future__ import annotations

import json
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest
from sqlalchemy import create_engine, text

from tests.host.conftest import POSTGRES, fresh_postgres
from tests.host.running import (
    ARBITER,
    PASSWORD,
    Server,
    csrf,
    free_port,
    leader,
    make_contest,
    person,
    settled,
    slow_kit,
    upload,
)


@pytest.fixture
def postgres() -> Iterator[str]:
    if POSTGRES is None:
        pytest.skip("no PostgreSQL server (set ARBITER_POSTGRES_URL to one)")
    with fresh_postgres() as url:
        yield url


def standings_events(url: str, seen: list[dict[str, object]], stop: threading.Event) -> None:
    """Collects the standings a live stream of ``url`` sends, until ``stop``."""
    with (
        httpx.Client(base_url=url, timeout=30) as client,
        client.stream("GET", "/api/events") as live,
    ):
        assert live.status_code == 200
        for line in live.iter_lines():
            if line.startswith("data: "):
                seen.append(json.loads(line[6:]))
            if stop.is_set():
                return


def test_two_processes_serve_one_contest_and_survive_the_leader_s_death(
    tmp_path: Path, postgres: str
) -> None:
    text_ = f"""name = "Two Cup"
game = "alquerque"
clock = "30"
database = "{postgres}"
[format]
kind = "round-robin"
[workers]
local = 1
lease_seconds = 10
"""
    make_contest(tmp_path, text_)
    servers = [Server(tmp_path, free_port(), log=f"server-{i}.log") for i in range(2)]
    try:
        pids = [s.start() for s in servers]
        deadline = time.monotonic() + 30
        while leader(postgres) is None:
            assert time.monotonic() < deadline, "no process took the lead"
            time.sleep(0.2)
        first = leader(postgres)
        assert first is not None
        leading = next(i for i, pid in enumerate(pids) if f"-{pid}-" in first)
        other = servers[1 - leading]

        # entrants come in through either process
        versions = {}
        for i, name in enumerate(("alice", "bob", "carol")):
            client = person(servers[i % 2].url, name)
            versions[name] = (client, upload(client, "main.py", slow_kit(), "python"))
        for client, version in versions.values():
            assert settled(client, version, timeout=180)["state"] == "accepted"

        # a live page on the process that does not lead; the round started on the leader
        seen: list[dict[str, object]] = []
        stop = threading.Event()
        listener = threading.Thread(target=standings_events, args=(other.url, seen, stop))
        listener.start()
        boss = person(servers[leading].url, "boss", register=False)
        made = boss.post("/organiser/rounds", data={"csrf": csrf(boss, "/organiser")})
        assert made.status_code == 303, made.text[:300]
        deadline = time.monotonic() + 120
        while not any(int(str(e.get("games", 0))) >= 1 for e in seen):
            assert time.monotonic() < deadline, f"the other process never heard a result: {seen}"
            time.sleep(0.1)

        # the leader is killed mid-round: the other takes the lead and ends the round
        # the organiser sees both processes, and which of them leads
        page = boss.get("/organiser").text
        listed = page.split('id="servers"')[1].split("</table>")[0]
        assert listed.count("leads: standings") == 1 and listed.count("answers requests") == 1
        assert first in listed
        engine = create_engine(postgres)
        with engine.connect() as c:  # the round is under way when the leader dies
            stored = c.execute(text("SELECT count(*) FROM games WHERE state = 'done'")).scalar()
        engine.dispose()
        assert stored is not None and stored < 6
        servers[leading].stop(signal.SIGKILL)
        deadline = time.monotonic() + 30
        while leader(postgres) in (None, first):
            assert time.monotonic() < deadline, "the lead was never taken again"
            time.sleep(0.2)
        assert f"-{other.process.pid if other.process else 0}-" in str(leader(postgres))
        with httpx.Client(base_url=other.url, timeout=30) as client:
            deadline = time.monotonic() + 180
            while True:
                rounds = client.get("/api/standings").json()["rounds"]
                if rounds and rounds[0]["state"] == "done":
                    break
                assert time.monotonic() < deadline, f"the round never ended: {rounds}"
                time.sleep(0.5)
            table = client.get("/api/standings").json()
        stop.set()
        listener.join(60)
        engine = create_engine(postgres)
        with engine.connect() as c:
            done = c.execute(text("SELECT count(*) FROM games WHERE state = 'done'")).scalar()
            counted = c.execute(text("SELECT sum(games) FROM tallies")).scalar()
        engine.dispose()
        assert done == 6 and counted == 6  # three entrants, each pair both ways: once each
        assert table["games"] == 6

        # a failed log-in at one process holds the address back at the other
        servers[leading].start()
        for _ in range(3):
            with httpx.Client(base_url=servers[leading].url) as c:
                form = {"name": "alice", "password": "wrong password!", "csrf": csrf(c, "/login")}
                assert c.post("/login", data=form).status_code == 401
        with httpx.Client(base_url=other.url) as c:
            form = {"name": "alice", "password": PASSWORD, "csrf": csrf(c, "/login")}
            held = c.post("/login", data=form)
        assert held.status_code == 429 and "wait" in held.text
    finally:
        for s in servers:
            s.close()


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
