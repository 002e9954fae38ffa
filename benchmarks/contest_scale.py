"""A contest at the size of an open one: fill a contest folder with many entrants and
games, then measure what every kind of page and every whole-contest step costs the
server, in server CPU per request as well as in wall time.

``fill DIR --entrants N --games M`` makes ``DIR/cup.toml`` (Alquerque, Swiss rounds of
``--per-round`` games, no local workers), the organiser ``boss`` (password in
``ARBITER_PASSWORD``), ``N`` entrants each with the Alquerque C starter kit as its
accepted version, and ``M`` stored games: each round paired by the server's own
Swiss pairing, each game leased and its result stored through the server's own
storage code (the record checked by replaying it, signed, its columns and tallies
written), each finished round rated as the server rates it. The records are real
games of the random engine played through the referee (a pool of them, each stored
under the players, seed and round of the game it fills), so an export of the contest
verifies with ``arbiter replay EXPORT --public-key``. A last round is left with games
unplayed for ``measure`` to play. A worker token for it is written
to ``DIR/bench.token``. ``--database URL`` puts it on PostgreSQL.

``measure URL`` (the server of such a folder, started with ``arbiter host
DIR/cup.toml --port P``; ``--folder DIR`` for its worker token, ``--pid`` if the
server is not found by its port) prints:

- each kind of page's server CPU and wall time, requests one at a time;
- open loop: ``--rate`` page requests a second (standings, home, a contestant's
  page, a game, ``/organiser``) for ``--seconds``, with ``--streams`` idle event
  streams open: p50, p99 and max latency;
- a stored result: results sent one at a time at ``--result-rate`` a second, the
  server's CPU over the whole while (refits of the standings included) per result;
- a round's end: the CPU of the last result of a round and of what follows it (the
  round's ratings stored), and the first view of a contestant's page after it;
- the next Swiss round (``POST /organiser/rounds``) and the export (started from the
  organiser's page, written by its own process): CPU and wall time.

    export ARBITER_PASSWORD=...
    python benchmarks/contest_scale.py fill DIR --entrants 200 --games 100000
    arbiter host DIR/cup.toml --port 8123 &
    python benchmarks/contest_scale.py measure http://127.0.0.1:8123 --folder DIR
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx2 as httpx
import psutil
from sqlalchemy import event

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
from live_pages import build_kit, seed  # benchmarks/, beside this file

from arbiter.agents.random import RandomAgent
from arbiter.games import find_game
from arbiter.host import queue, workers
from arbiter.host.config import load
from arbiter.host.db import Database
from arbiter.host.models import Game
from arbiter.host.ratings import rate_finished_rounds
from arbiter.host.request_signing import SignedCalls, Token, TokenError
from arbiter.host.rounds import finish_round_if_done, make_round
from arbiter.host.signing import ContestKey
from arbiter.record import GameRecord
from arbiter.referee.match import play_game
from arbiter.referee.seat import LocalSeat

CONTEST = """name = "Scale Cup"
game = "alquerque"
{database}
[format]
kind = "swiss"
rounds = {rounds}
games_per_pair = {per_pair}

[workers]
local = 0
lease_seconds = 600
"""


# -- fill ---------------------------------------------------------------------


def record_pool(size: int, seed: int = 1) -> list[GameRecord]:
    """``size`` real Alquerque games of the random engine, played by the referee."""
    spec = find_game("alquerque")
    pool = []
    for i in range(size):
        game = spec.make()
        seats = [
            LocalSeat(RandomAgent(), game, spec.contest, seed=seed * 100_000 + 2 * i + k, name=n)
            for k, n in enumerate(("a", "b"))
        ]
        pool.append(asyncio.run(play_game(spec, spec.make(), seats, spec.time_control, seed=i)))
    return pool


def stamped(record: GameRecord, job: dict[str, Any]) -> str:
    """A pool record as the game ``job`` (a worker's job) would have it."""
    names = tuple(p["name"] for p in job["players"])
    return replace(record, players=names, seed=job["seed"], start=job["start"]).to_json()


def fast_commits(db: Database) -> None:
    """Commits without waiting for the disk, for the fill alone (the server keeps its
    own settings)."""

    def pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        if db.is_sqlite:
            cursor.execute("PRAGMA synchronous=OFF")
        else:
            cursor.execute("SET synchronous_commit TO OFF")
        cursor.close()

    event.listen(db.engine, "connect", pragmas)
    db.engine.dispose()


def fill(args: argparse.Namespace) -> None:
    folder = Path(args.dir).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    per_pair = max(2, 2 * round(args.per_round / max(1, args.entrants // 2) / 2))
    database = f'database = "{args.database}"' if args.database else ""
    rounds = args.games // max(1, args.per_round) + 100  # more than measure plays
    text = CONTEST.format(database=database, rounds=rounds, per_pair=per_pair)
    (folder / "cup.toml").write_text(text)
    env = dict(os.environ)
    if "ARBITER_PASSWORD" not in env:
        sys.exit("set ARBITER_PASSWORD: the organiser boss's password")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "arbiter.cli",
            "host",
            str(folder / "cup.toml"),
            "--organiser",
            "boss",
        ],
        check=True,
        env=env,
    )
    with tempfile.TemporaryDirectory() as scratch:  # the entrants, as live_pages seeds them
        seed(folder / "cup.toml", args.entrants, build_kit(Path(scratch)))
    config = load(folder / "cup.toml")
    db = Database(config.database)
    fast_commits(db)
    key = ContestKey.of_folder(config.folder)
    with db.session() as s:
        token = workers.new_worker(s, "bench", key.public_raw)
        s.commit()
    token_file = folder / "bench.token"
    token_file.write_text(token + "\n")
    token_file.chmod(0o600)
    t0 = time.monotonic()
    pool = record_pool(args.pool)
    print(f"{len(pool)} games of the random engine played in {time.monotonic() - t0:.0f} s")
    rng = random.Random(2)
    stored = 0
    t0 = time.monotonic()
    contest = (config.game, config.clock)
    while True:
        with db.session() as s:
            rnd = make_round(s, config)
            number, round_id = rnd.number, rnd.id
        while stored < args.games:
            with db.session() as s:
                lease = queue.lease(s, "bench", 3600)
                if lease is None:
                    break
                job = queue.job(s, lease.game_id, {})
                text = stamped(rng.choice(pool), job)
                queue.finish(s, lease.game_id, lease.token, text, ("", ""), contest, key)
            stored += 1
            if stored % 5000 == 0:
                rate = stored / (time.monotonic() - t0)
                print(f"{stored} games stored ({rate:.0f} a second), round {number}", flush=True)
        with db.session() as s:
            if finish_round_if_done(s, round_id):
                rate_finished_rounds(s)
                continue  # the next round (the last one is left with games to play)
        break
    with db.session() as s:
        left = s.query(Game).filter(Game.state == "queued").count()
    print(
        f"{folder}: {args.entrants} entrants, {stored} games stored in "
        f"{time.monotonic() - t0:.0f} s; {left} games of round {number} left to play"
    )
    db.close()


# -- measure ------------------------------------------------------------------


class ServerCpu:
    """The server process's CPU seconds (its own, and its reaped children's)."""

    def __init__(self, pid: int) -> None:
        self.process = psutil.Process(pid)

    def own(self) -> float:
        t = self.process.cpu_times()
        return t.user + t.system

    def children(self) -> float:
        t = self.process.cpu_times()
        return t.children_user + t.children_system


def server_pid(url: str) -> int:
    port = urlparse(url).port
    for c in psutil.net_connections("tcp"):
        if c.laddr and c.laddr.port == port and c.status == psutil.CONN_LISTEN and c.pid:
            return c.pid
    sys.exit(f"no process listens on port {port}: give --pid")


def signed_in(url: str, name: str, password: str) -> httpx.Client:
    client = httpx.Client(base_url=url, timeout=120, follow_redirects=False)
    page = client.get("/login").text
    token = re.search(r'name="csrf-token" content="([^"]+)"', page)
    assert token
    done = client.post("/login", data={"name": name, "password": password, "csrf": token.group(1)})
    assert done.status_code == 303, done.text[:300]
    return client


def csrf(client: httpx.Client, path: str) -> str:
    found = re.search(r'name="csrf-token" content="([^"]+)"', client.get(path).text)
    assert found
    return found.group(1)


def per_request(
    cpu: ServerCpu, call: Callable[[], httpx.Response], count: int
) -> tuple[float, float, int]:
    """Server CPU and wall milliseconds per call (calls one at a time), and the
    last call's size in bytes."""
    call()  # warm
    c0, t0 = cpu.own(), time.perf_counter()
    size = 0
    for _ in range(count):
        answer = call()
        assert answer.status_code < 400, (answer.status_code, answer.text[:200])
        size = len(answer.content)
    return (
        1000 * (cpu.own() - c0) / count,
        1000 * (time.perf_counter() - t0) / count,
        size,
    )


def _hold_streams(url: str, count: int, opened: Any, stop: Any) -> None:
    """A process of its own holding ``count`` idle event streams (eight an address, as
    the server allows one address), from 127.0.0.X addresses, until ``stop``."""

    async def hold() -> None:
        port = urlparse(url).port

        async def one(i: int) -> None:
            address = f"127.0.{1 + i // 8 // 250}.{1 + (i // 8) % 250}"
            transport = httpx.AsyncHTTPTransport(local_address=address)
            async with httpx.AsyncClient(
                base_url=f"http://127.0.0.1:{port}", transport=transport, timeout=None
            ) as client:
                with contextlib.suppress(Exception):
                    async with client.stream("GET", "/api/events") as r:
                        if r.status_code == 200:
                            with opened.get_lock():
                                opened.value += 1
                        async for _ in r.aiter_bytes():
                            pass

        tasks = [asyncio.ensure_future(one(i)) for i in range(count)]
        while not stop.is_set():
            await asyncio.sleep(0.2)
        for t in tasks:
            t.cancel()

    asyncio.run(hold())


@contextlib.contextmanager
def streams(url: str, count: int) -> Iterator[Any]:
    """``count`` idle event streams held open by a process of their own (so the
    pages' client never waits on them); yields the count opened."""
    opened = multiprocessing.Value("i", 0)
    stop = multiprocessing.Event()
    holder = multiprocessing.Process(target=_hold_streams, args=(url, count, opened, stop))
    holder.start()
    deadline = time.monotonic() + 60
    while opened.value < count and time.monotonic() < deadline:
        time.sleep(0.2)
    try:
        yield opened
    finally:
        stop.set()
        holder.join(10)
        if holder.is_alive():
            holder.kill()


def open_loop(
    url: str, paths: list[tuple[str, dict[str, str]]], rate: float, seconds: float
) -> list[float]:
    """Requests sent at ``rate`` a second whatever the answers' pace, the pages (each
    with its cookies) taken in turn, from one event loop: the latencies."""

    async def run() -> list[float]:
        latencies: list[float] = []
        limits = httpx.Limits(max_connections=500, max_keepalive_connections=100)
        clients: dict[str, httpx.AsyncClient] = {}  # one a set of cookies (a viewer)

        async def one(path: str, cookies: dict[str, str]) -> None:
            key = repr(sorted(cookies.items()))
            if key not in clients:
                clients[key] = httpx.AsyncClient(
                    base_url=url, timeout=120, limits=limits, cookies=cookies
                )
            t0 = time.perf_counter()
            answer = await clients[key].get(path)
            took = time.perf_counter() - t0
            latencies.append(took if answer.status_code < 400 else float("inf"))

        start = time.perf_counter()
        tasks = []
        for i in range(int(rate * seconds)):
            wait = start + i / rate - time.perf_counter()
            if wait > 0:
                await asyncio.sleep(wait)
            path, cookies = paths[i % len(paths)]
            tasks.append(asyncio.ensure_future(one(path, cookies)))
        await asyncio.gather(*tasks)
        for client in clients.values():
            await client.aclose()
        return latencies

    return asyncio.run(run())


def quantiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (
        f"p50 {1000 * statistics.median(ordered):.0f} ms, p99 {1000 * p99:.0f} ms, "
        f"max {1000 * ordered[-1]:.0f} ms ({len(ordered)} requests)"
    )


class Worker:
    """The benchmark as a worker: leases games and sends real records for them."""

    def __init__(self, url: str, token: str, pool: list[GameRecord]) -> None:
        self.client = httpx.Client(
            base_url=url,
            timeout=120,
            auth=SignedCalls(Token.parse(token), "bench-1"),
        )
        self.pool = pool
        self.rng = random.Random(3)

    def play_one(self) -> bool:
        """Leases a game and sends its result; False when none waits."""
        got = self.client.post("/api/worker/lease", json={})
        if got.status_code == 204:
            return False
        assert got.status_code == 200, got.text[:300]
        job = got.json()
        body = {
            "lease": job["lease"],
            "record": stamped(self.rng.choice(self.pool), job),
            "logs": ["", ""],
        }
        done = self.client.post(f"/api/worker/games/{job['id']}/result", json=body)
        assert done.status_code == 200, done.text[:300]
        return True


def measure(args: argparse.Namespace) -> None:
    url = args.url.rstrip("/")
    password = os.environ.get("ARBITER_PASSWORD") or sys.exit("set ARBITER_PASSWORD")
    cpu = ServerCpu(args.pid or server_pid(url))
    boss = signed_in(url, "boss", password)
    anyone = httpx.Client(base_url=url, timeout=120)
    standings = anyone.get("/api/standings").json()
    names = [r["name"] for r in standings["rows"]]
    name = names[len(names) // 2]
    games = standings["games"]
    print(f"{url}: {len(names)} entrants, {games} games stored")
    first = anyone.get(f"/contestants/{name}").text
    ids = [int(g) for g in re.findall(r'<a href="/games/(\d+)\?', first)]
    game = ids[0]
    deep = re.search(r"before=(\d+)", first)
    pages: list[tuple[str, str, httpx.Client]] = [
        ("standings (/api/standings)", "/api/standings", anyone),
        ("home (/)", "/", anyone),
        ("contest page", "/contest", anyone),
        ("a contestant's page", f"/contestants/{name}", anyone),
        (
            "its older games",
            f"/contestants/{name}?before={deep.group(1) if deep else game}",
            anyone,
        ),
        ("a game (its positions)", f"/api/contest/games/{game}", anyone),
        ("a game's record", f"/games/{game}/record.jsonl", anyone),
        ("/organiser", "/organiser", boss),
        ("/me (the organiser)", "/me", boss),
    ]
    print(f"{'page':<32} {'CPU ms':>8} {'wall ms':>8} {'bytes':>9}")
    for title, path, client in pages:
        c, w, size = per_request(cpu, lambda p=path, cl=client: cl.get(p), args.repeat)
        print(f"{title:<32} {c:8.1f} {w:8.1f} {size:9d}", flush=True)
    c, w, size = per_request(cpu, lambda: anyone.get(f"/contestants/{name}/games.jsonl"), 3)
    print(f"{'its games.jsonl (streamed)':<32} {c:8.1f} {w:8.1f} {size:9d}")

    organiser = dict(boss.cookies)
    mix = [
        ("/api/standings", {}),
        ("/", {}),
        (f"/contestants/{name}", {}),
        (f"/api/contest/games/{game}", {}),
        ("/organiser", organiser),
    ]
    with streams(url, args.streams) as opened:
        time.sleep(2)
        c0 = cpu.own()
        latencies = open_loop(url, mix, args.rate, args.seconds)
        spent = cpu.own() - c0
        print(
            f"open loop, {args.rate:g} pages/s for {args.seconds:g} s with {opened.value} idle "
            f"streams: {quantiles(latencies)}; server CPU {100 * spent / args.seconds:.0f}%"
        )

    folder = Path(args.folder) if args.folder else None
    token = os.environ.get("ARBITER_WORKER_TOKEN") or (
        (folder / "bench.token").read_text().strip() if folder else None
    )
    if token is None:
        print("no worker token (--folder DIR or ARBITER_WORKER_TOKEN): results not measured")
        return
    try:
        Token.parse(token)
    except TokenError as e:
        print(f"the worker token: {e}: results not measured")
        return
    pool = record_pool(40, seed=7)
    worker = Worker(url, token, pool)
    time.sleep(3)  # whatever the page load left
    alone = []
    for _ in range(args.alone):  # each with its refit, measured to the clock's tick
        c0 = cpu.own()
        worker.play_one()
        time.sleep(2.5)  # the standings computed after it, alone
        alone.append(cpu.own() - c0)
    print(
        f"a result after a quiet spell: {1000 * statistics.mean(alone):.1f} ms of server CPU "
        f"(mean of {len(alone)}, its refit included)"
    )
    sent = 0
    c0 = cpu.own()
    t0 = time.monotonic()
    while sent < args.results:
        if not worker.play_one():
            break
        sent += 1
        time.sleep(max(0.0, t0 + sent / args.result_rate - time.monotonic()))
    time.sleep(2.5)
    if sent:
        print(
            f"{sent} results at {args.result_rate:g} a second: "
            f"{1000 * (cpu.own() - c0) / sent:.1f} ms of server CPU a result, refits included"
        )
    while worker.play_one():  # the round's last games but one
        pass
    # the round's end: its last result (above) and its ratings stored after it
    time.sleep(2.5)
    before = anyone.get("/api/standings").json()["rounds"][-1]
    print(f"the round's state: {before['state']}")
    t0 = time.perf_counter()
    c0 = cpu.own()
    answer = anyone.get(f"/contestants/{name}")
    print(
        f"a contestant's page, first view after the round: {1000 * (time.perf_counter() - t0):.0f} "
        f"ms wall, {1000 * (cpu.own() - c0):.1f} ms CPU"
        + (" (rating plot shown)" if 'id="rating"' in answer.text else "")
    )
    c0, t0 = cpu.own(), time.perf_counter()
    made = boss.post("/organiser/rounds", data={"csrf": csrf(boss, "/organiser")})
    wall = time.perf_counter() - t0
    refused = re.search(r"<p[^>]*>([^<]*)</p>", made.text) if made.status_code != 303 else None
    print(
        f"the next Swiss round: {1000 * wall:.0f} ms wall, {1000 * (cpu.own() - c0):.0f} ms CPU "
        f"(answer {made.status_code}{': ' + refused.group(1) if refused else ''})"
    )
    known = set(re.findall(r"<li>export (\d+) ", boss.get("/organiser").text))
    c0, k0, t0 = cpu.own(), cpu.children(), time.perf_counter()
    boss.post("/organiser/export", data={"csrf": csrf(boss, "/organiser")})
    while True:
        page = boss.get("/organiser").text
        jobs = re.findall(r"<li>export (\d+) [^<]*: (<a href|failed|being)", page)
        new = [state for number, state in jobs if number not in known]
        if new and new[0] != "being":
            break
        time.sleep(0.5)
    took = time.perf_counter() - t0
    size = re.search(r"\(([\d.]+) MB, (\d+) games\)", page)
    print(
        f"the export: {took:.1f} s wall, {cpu.children() - k0:.1f} s CPU in its process, "
        f"{cpu.own() - c0:.1f} s in the server's; "
        + (
            f"{size.group(1)} MB, {size.group(2)} games"
            if size and new[0] != "failed"
            else "failed"
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    f = sub.add_parser("fill", help="make a contest folder of many stored games")
    f.add_argument("dir")
    f.add_argument("--entrants", type=int, default=200)
    f.add_argument("--games", type=int, default=10_000)
    f.add_argument("--per-round", type=int, default=1000, help="games a round")
    f.add_argument("--pool", type=int, default=400, help="distinct real games to store")
    f.add_argument("--database", default="", help="a PostgreSQL URL (default: SQLite)")
    m = sub.add_parser("measure", help="time a running server of such a folder")
    m.add_argument("url")
    m.add_argument("--folder", default="", help="the contest's folder (its worker token)")
    m.add_argument("--pid", type=int, default=0)
    m.add_argument("--repeat", type=int, default=20, help="requests of each page")
    m.add_argument("--rate", type=float, default=100.0, help="open-loop pages a second")
    m.add_argument("--seconds", type=float, default=20.0)
    m.add_argument("--streams", type=int, default=1000)
    m.add_argument("--results", type=int, default=30)
    m.add_argument("--alone", type=int, default=5, help="results sent each after a pause")
    m.add_argument("--result-rate", type=float, default=5.0)
    args = parser.parse_args()
    fill(args) if args.command == "fill" else measure(args)


if __name__ == "__main__":
    main()
