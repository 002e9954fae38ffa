"""The contest server's live pages at scale: a contest of many entrants (one fast C
program, the Alquerque starter kit, entered by every entrant and seeded straight into
the database, so no gate runs) played over Swiss rounds by the server's local
workers, while a thousand event streams stay open and many viewers load pages.

For each database (SQLite; PostgreSQL too with ``--postgres URL`` or
``ARBITER_POSTGRES_URL``) it prints:

- ``standings``: the latency of ``/api/standings`` (p50, p99, max) with no stream
  open, with every stream open and idle, and while the rounds are played;
- ``viewers``: that many simultaneous viewers loading the standings page and a
  contestant's page (rating plot and games) for ``--seconds``: p50, p99;
- ``rounds``: games played and games per hour on the local workers;
- ``events``: the standings events the streams received (each stream sees the news
  as it comes, so every stream has at least one per round);
- ``memory``: the server's peak resident memory, idle and with the streams open.

Streams come from many loopback addresses (``127.0.0.X``), eight each: the server
lets one address hold only a few live pages.

    python benchmarks/live_pages.py [--entrants 200] [--rounds 7] [--streams 1000]
                                    [--viewers 100] [--seconds 10] [--workers 2]
                                    [--postgres URL | --sqlite-only]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from multiprocessing.connection import Connection
from pathlib import Path

import httpx2 as httpx
import psutil

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from arbiter.games import find_game
from arbiter.host.config import load
from arbiter.host.db import Database
from arbiter.host.events import STREAM_INTERVAL
from arbiter.host.models import Account, Version
from arbiter.host.programs import pack, store_of
from tests.host.conftest import fresh_postgres
from tests.host.running import Server, csrf, free_port, make_contest, person

PER_ADDRESS = 8


def build_kit(folder: Path) -> Path:
    """The Alquerque C starter kit, compiled once."""
    kits = find_game("alquerque").kits
    assert kits is not None
    out = folder / "kit"
    out.mkdir()
    subprocess.run(
        ["gcc", "-O2", "-o", str(out / "player"), str(kits / "c" / "main.c"), "-lm"], check=True
    )
    return out


def seed(contest: Path, entrants: int, kit: Path) -> None:
    """``entrants`` contestants, each with the kit as its accepted version."""
    config = load(contest)
    packed = pack(kit, store_of(config.folder))
    db = Database(config.database)
    with db.session() as s:
        for i in range(entrants):
            account = Account(name=f"entrant{i:03d}", password_hash="-", role="contestant")
            s.add(account)
            s.flush()
            s.add(
                Version(
                    account_id=account.id,
                    number=1,
                    language="c",
                    filename="main.c",
                    size=1,
                    sha256="0" * 64,
                    state="accepted",
                    program_sha256=packed.sha256,
                    program_size=packed.size,
                )
            )
        s.commit()
    db.close()


def quantiles(samples: list[float]) -> str:
    if not samples:
        return "no samples"
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (
        f"p50 {1000 * statistics.median(ordered):.0f} ms, p99 {1000 * p99:.0f} ms, "
        f"max {1000 * ordered[-1]:.0f} ms ({len(ordered)} requests)"
    )


class Memory:
    """Samples a process's resident memory in a thread; ``peak`` in MB."""

    def __init__(self, pid: int) -> None:
        self.process = psutil.Process(pid)
        self.peak = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.2):
            with contextlib.suppress(psutil.Error):
                self.peak = max(self.peak, self.process.memory_info().rss / (1 << 20))

    def reset(self) -> float:
        peak, self.peak = self.peak, 0.0
        return peak

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


class Streams:
    """``count`` event streams held open, each counting the standings events it gets."""

    def __init__(self, url: str, count: int) -> None:
        self.url = url
        self.count = count
        self.events = [0] * count
        self.opened = 0
        self.refused = 0
        self._tasks: list[asyncio.Task[None]] = []
        self._clients: list[httpx.AsyncClient] = []

    async def open(self) -> None:
        for address in range((self.count + PER_ADDRESS - 1) // PER_ADDRESS):
            transport = httpx.AsyncHTTPTransport(
                local_address=f"127.0.{address // 250}.{address % 250 + 2}"
            )
            client = httpx.AsyncClient(
                base_url=self.url,
                transport=transport,
                timeout=httpx.Timeout(60.0, read=None),
                limits=httpx.Limits(max_connections=PER_ADDRESS),
            )
            self._clients.append(client)
            for k in range(PER_ADDRESS):
                i = address * PER_ADDRESS + k
                if i < self.count:
                    self._tasks.append(asyncio.create_task(self._hold(client, i)))
        while self.opened + self.refused < self.count:
            await asyncio.sleep(0.1)

    async def _hold(self, client: httpx.AsyncClient, i: int) -> None:
        try:
            async with client.stream("GET", "/api/events") as response:
                if response.status_code != 200:
                    self.refused += 1
                    return
                self.opened += 1
                tail = b""
                async for chunk in response.aiter_raw():
                    text = tail + chunk
                    self.events[i] += text.count(b"event: standings")
                    tail = text[-20:] if not text.endswith(b"\n") else b""
        except (httpx.HTTPError, asyncio.CancelledError):
            return

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for client in self._clients:
            await client.aclose()


def hold_streams(url: str, count: int, pipe: Connection) -> None:
    """In a process of its own (reading a thousand streams is work for a client, which
    must not slow the one measuring): opens the streams, says how many opened, and
    answers "stop" with the events each received."""

    async def hold() -> None:
        streams = Streams(url, count)
        await streams.open()
        pipe.send((streams.opened, streams.refused))
        await asyncio.to_thread(pipe.recv)
        await streams.close()
        pipe.send(streams.events)

    asyncio.run(hold())


async def standings_latency(url: str, requests: int) -> list[float]:
    out = []
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        for _ in range(requests):
            start = time.perf_counter()
            response = await client.get("/api/standings")
            out.append(time.perf_counter() - start)
            assert response.status_code == 200
    return out


async def viewers(url: str, count: int, seconds: float) -> list[float]:
    latencies: list[float] = []
    stop = time.monotonic() + seconds

    async def view(client: httpx.AsyncClient, i: int) -> None:
        while time.monotonic() < stop:
            for path in ("/", f"/contestants/entrant{i % 50:03d}"):
                start = time.perf_counter()
                response = await client.get(path)
                latencies.append(time.perf_counter() - start)
                assert response.status_code == 200, (path, response.status_code)

    limits = httpx.Limits(max_connections=count)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as client:
        await asyncio.gather(*(view(client, i) for i in range(count)))
    return latencies


def play_rounds(url: str, rounds: int) -> tuple[int, float]:
    """Plays every round; returns the games played and the seconds taken."""
    boss = person(url, "boss", register=False)
    began = time.monotonic()
    games = 0
    for number in range(1, rounds + 1):
        done = boss.post("/organiser/rounds", data={"csrf": csrf(boss, "/organiser")})
        assert done.status_code == 303, done.text[:300]
        while True:
            table = boss.get("/api/standings").json()
            if len(table["rounds"]) == number and table["rounds"][-1]["state"] == "done":
                break
            time.sleep(0.5)
        print(f"  round {number}: {table['games'] - games} games", flush=True)
        games = table["games"]
    return games, time.monotonic() - began


async def measure(url: str, args: argparse.Namespace, memory: Memory) -> None:
    quiet = await standings_latency(url, 200)
    print(f"standings, no stream: {quantiles(quiet)}")
    idle_memory = memory.reset()
    here, there = multiprocessing.Pipe()
    holder = multiprocessing.get_context("spawn").Process(
        target=hold_streams, args=(url, args.streams, there), daemon=True
    )
    holder.start()
    opened, refused = await asyncio.to_thread(here.recv)
    print(f"streams: {opened} open, {refused} refused (held by another process)")
    idle = await standings_latency(url, 200)
    print(f"standings, {opened} idle streams: {quantiles(idle)}")
    seen = await viewers(url, args.viewers, args.seconds)
    print(f"viewers: {args.viewers} at once for {args.seconds:.0f} s: {quantiles(seen)}")
    during: list[float] = []
    playing = asyncio.create_task(asyncio.to_thread(play_rounds, url, args.rounds))
    while not playing.done():
        during += await standings_latency(url, 5)
        await asyncio.sleep(1.0)
    games, seconds = await playing
    print(
        f"rounds: {games} games in {seconds:.0f} s: {3600 * games / seconds:.0f} games/hour "
        f"on {args.workers} local workers"
    )
    print(f"standings, while playing with the streams open: {quantiles(during)}")
    await asyncio.sleep(2 * STREAM_INTERVAL)
    here.send("stop")
    got: list[int] = await asyncio.to_thread(here.recv)
    holder.join(30)
    print(
        f"events: per stream min {min(got)}, median {statistics.median(got):.0f}, "
        f"max {max(got)} over {args.rounds} rounds"
    )
    print(f"memory: server peak {idle_memory:.0f} MB idle, {memory.reset():.0f} MB with streams")


@contextlib.contextmanager
def database_for(kind: str, server_url: str | None) -> Iterator[str | None]:
    """None for SQLite (the contest's own file), or a new PostgreSQL database on the
    server of ``server_url``, dropped afterwards."""
    if kind == "sqlite" or server_url is None:
        yield None
        return
    with fresh_postgres(server_url) as url:
        yield url


def run(kind: str, args: argparse.Namespace, kit: Path) -> None:
    print(f"== {kind}: {args.entrants} entrants, {args.rounds} Swiss rounds", flush=True)
    with (
        tempfile.TemporaryDirectory(prefix="arbiter-live-") as tmp,
        database_for(kind, args.postgres) as url,
    ):
        folder = Path(tmp)
        text = (
            f'name = "Live Cup"\ngame = "alquerque"\n'
            f'[format]\nkind = "swiss"\nrounds = {args.rounds}\n'
            f"[workers]\nlocal = {args.workers}\nlease_seconds = 30\n"
        )
        if url:
            text = f'database = "{url}"\n' + text
        seed(make_contest(folder, text), args.entrants, kit)
        server = Server(folder, free_port())
        try:
            memory = Memory(server.start(timeout=120))
            asyncio.run(measure(server.url, args, memory))
            memory.stop()
        except BaseException:
            print((folder / "server.log").read_text()[-3000:])
            raise
        finally:
            server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entrants", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--viewers", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--postgres", default=os.environ.get("ARBITER_POSTGRES_URL"))
    parser.add_argument("--sqlite-only", action="store_true")
    args = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the server inherits it
    if hard < 3 * args.streams:
        print(f"at most {hard} open files here: fewer streams than asked may open")
    with tempfile.TemporaryDirectory(prefix="arbiter-kit-") as tmp:
        kit = build_kit(Path(tmp))
        run("sqlite", args, kit)
        if args.postgres and not args.sqlite_only:
            run("postgresql", args, kit)
    return 0


if __name__ == "__main__":
    sys.exit(main())
