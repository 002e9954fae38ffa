"""A whole contest on a real ``arbiter host``: entrants registering and uploading
starter kits over HTTP, the gate, Swiss rounds played by the server's local workers,
and the pages under many viewers.

Prints:

- intake: seconds from the first upload until every version is accepted;
- rounds: games, wall seconds and games per hour for each Swiss round;
- with ``--kill``: a local worker killed (SIGKILL) mid-game in every round, and
  afterwards a check that every game of every round was stored exactly once (one
  finished row per game, the killed worker's games played again);
- pages: ``--viewers`` simultaneous clients each loading the standings page and the
  standings JSON in a loop for ``--seconds``: requests per second and the latency's
  median, 95th percentile and maximum.

    python benchmarks/contest.py [--game alquerque] [--entrants 20] [--rounds 3]
                                 [--workers 2] [--kill] [--viewers 50] [--seconds 10]
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx2 as httpx

from arbiter.games import find_game

# the server as its user runs it, and what its users do, as the tests run them
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.host.running import (
    contest_server,
    csrf,
    kill_a_worker_mid_game,
    person,
    settled,
    upload,
)


async def viewers(url: str, count: int, seconds: float) -> list[float]:
    latencies: list[float] = []
    stop = time.monotonic() + seconds

    async def view(client: httpx.AsyncClient) -> None:
        while time.monotonic() < stop:
            for path in ("/", "/api/standings"):
                start = time.perf_counter()
                response = await client.get(path)
                latencies.append(time.perf_counter() - start)
                assert response.status_code == 200

    limits = httpx.Limits(max_connections=count)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as client:
        await asyncio.gather(*(view(client) for _ in range(count)))
    return latencies


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="alquerque")
    parser.add_argument("--entrants", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--kill", action="store_true", help="kill a worker mid-game each round")
    parser.add_argument("--viewers", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    kits = find_game(args.game).kits
    assert kits is not None
    sources = [("python", kits / "python" / "main.py"), ("c", kits / "c" / "main.c")]
    with tempfile.TemporaryDirectory(prefix="arbiter-contest-") as tmp:
        folder = Path(tmp)
        text = (
            f'name = "Benchmark Cup"\ngame = "{args.game}"\n'
            f'[format]\nkind = "swiss"\nrounds = {args.rounds}\n'
            f"[workers]\nlocal = {args.workers}\nlease_seconds = 10\n"
            "[limits]\nversions_per_hour = 100\n"
        )
        with contest_server(folder, text) as (url, _):
            started = time.monotonic()
            entrants = []
            for i in range(args.entrants):
                client = person(url, f"entrant{i:02d}")
                language, path = sources[i % 2]
                entrants.append((client, upload(client, path.name, path.read_bytes(), language)))
            for client, version in entrants:
                assert settled(client, version)["state"] == "accepted"
            print(
                f"intake: {args.entrants} versions built and checked in "
                f"{time.monotonic() - started:.1f} s"
            )
            boss = person(url, "boss", register=False)
            total_games = 0
            total_seconds = 0.0
            killed = 0
            for number in range(1, args.rounds + 1):
                began = time.monotonic()
                done = boss.post("/organiser/rounds", data={"csrf": csrf(boss, "/organiser")})
                assert done.status_code == 303, done.text[:300]
                if args.kill:
                    kill_a_worker_mid_game(folder / "cup.db", number)
                    killed += 1
                while True:
                    table = boss.get("/api/standings").json()
                    if len(table["rounds"]) == number and table["rounds"][-1]["state"] == "done":
                        break
                    time.sleep(0.2)
                took = time.monotonic() - began
                games = table["games"] - total_games
                total_games, total_seconds = table["games"], total_seconds + took
                print(
                    f"round {number}: {games} games in {took:.1f} s: "
                    f"{3600 * games / took:.0f} games/hour"
                )
            print(
                f"rounds: {total_games} games in {total_seconds:.1f} s: "
                f"{3600 * total_games / total_seconds:.0f} games/hour on {args.workers} workers"
            )
            db = sqlite3.connect(folder / "cup.db")
            rows = db.execute(
                "SELECT state, COUNT(*), SUM(attempts > 1) FROM games GROUP BY state"
            ).fetchall()
            done_games = sum(n for state, n, _ in rows if state == "done")
            replayed = sum(r or 0 for _, _, r in rows)
            unique = db.execute(
                "SELECT COUNT(DISTINCT round_id || '/' || number) FROM games"
            ).fetchone()[0]
            print(
                f"stored: {done_games} games finished of {unique} made, "
                f"{total_games} in the standings; "
                f"{replayed} played again; workers killed: {killed}"
            )
            assert done_games == unique == total_games, "a game was lost or counted twice"
            latencies = asyncio.run(viewers(url, args.viewers, args.seconds))
            latencies.sort()
            p95 = latencies[int(0.95 * (len(latencies) - 1))]
            print(
                f"pages: {args.viewers} viewers, {len(latencies) / args.seconds:.0f} requests/s, "
                f"latency median {1000 * statistics.median(latencies):.0f} ms, "
                f"95% {1000 * p95:.0f} ms, max {1000 * latencies[-1]:.0f} ms"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
