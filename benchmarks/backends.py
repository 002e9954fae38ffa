"""What a tournament's backend costs: the same tournament on local worker processes
and on Ray, at two lengths, so each backend's start-up is told apart from its cost
per game (the difference of the two runs' times over the difference of their games).

Each run is ``arbiter tournament`` as a user types it, in a process of its own, with
in-process engines (random against greedy): games of a few tens of milliseconds,
where a backend's cost per game shows most. Ray's row needs Ray installed.

A shared or virtual machine's speed drifts by tens of percent from one minute to the
next, so the backends take turns, ``--repeat`` times, and each keeps its best time at
each length.

Usage: python benchmarks/backends.py [--game NAME] [--rounds SHORT LONG] [--concurrency K]
       [--move-time S] [--backend NAME ...] [--repeat K]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arbiter.games import GAME_NAMES


def seconds(game: str, backend: str, rounds: int, concurrency: int, move_time: float) -> float:
    """The wall time of one tournament of ``rounds`` rounds, from the command's start
    to its end."""
    with tempfile.TemporaryDirectory() as tmp:
        argv = [sys.executable, "-m", "arbiter.cli", "tournament", game]
        argv += ["--agent", "random", "--agent", "greedy", "--move-time", str(move_time)]
        argv += ["--rounds", str(rounds), "--concurrency", str(concurrency)]
        argv += ["--backend", backend, "--db", str(Path(tmp) / "bench.db")]
        started = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAME_NAMES, default="votey")
    parser.add_argument("--rounds", type=int, nargs=2, default=(25, 100), metavar=("SHORT", "LONG"))
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--move-time", type=float, default=0.05)
    parser.add_argument("--backend", action="append", choices=("local", "ray"))
    parser.add_argument("--repeat", type=int, default=3, help="turns each backend takes")
    args = parser.parse_args()
    short, long = args.rounds
    games = 2 * (long - short)  # two agents: two games a round, one with each colour
    what = f"{args.game}, random against greedy, {args.move_time} s a move"
    print(f"{what}, concurrency {args.concurrency}")
    sizes = f"{2 * short:>6d} games {2 * long:>6d} games"
    print(f"{'backend':8s} {sizes} {'ms/game':>8s} {'start-up':>9s}")
    backends = args.backend or ["local", "ray"]
    best: dict[tuple[str, int], float] = {}
    for _ in range(args.repeat):
        for backend in backends:
            for rounds in (short, long):
                took = seconds(args.game, backend, rounds, args.concurrency, args.move_time)
                best[backend, rounds] = min(best.get((backend, rounds), took), took)
    per_game: dict[str, float] = {}
    for backend in backends:
        a, b = best[backend, short], best[backend, long]
        per_game[backend] = each = (b - a) / games
        print(
            f"{backend:8s} {a:10.2f} s {b:10.2f} s {1000 * each:8.1f} {a - 2 * short * each:8.2f}s",
            flush=True,
        )
    if len(per_game) == 2:
        print(f"ray / local per game: {per_game['ray'] / per_game['local']:.2f}")


if __name__ == "__main__":
    main()
