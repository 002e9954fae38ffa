"""What a tournament's backend costs: the same games on local worker processes and on
Ray, each backend's start-up told apart from its time per game.

The games (random against greedy, in-process engines, alternating colours) are given
to the backend as a tournament gives them, and the time each game's record comes
back is noted. The time per game is taken from the steady run, between the record
that comes back after the first tenth of the games and the last one; the start-up is
what the first record took beyond that pace. Games of a few tens of milliseconds are
where a backend's cost per game shows most. Ray's rows need Ray installed.

A shared or virtual machine's speed drifts by tens of percent from one minute to the
next, so the backends take turns, ``--repeat`` times, and each keeps its best.

Usage: python benchmarks/backends.py [--game NAME] [--games N] [--concurrency K]
       [--move-time S] [--backend NAME ...] [--repeat K]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator, Sequence

from arbiter.agents.spec import AgentSpec
from arbiter.clock import TimeControl
from arbiter.games import GAME_NAMES, find_game
from arbiter.play.series import GameJob, run_series
from arbiter.record import GameRecord
from arbiter.tournament.run import Plan


def jobs(game: str, games: int, move_time: float) -> list[GameJob]:
    """About ``games`` games of random against greedy, as a tournament plans them (each
    meeting twice, once with each colour)."""
    agents = (AgentSpec.parse("random"), AgentSpec.parse("greedy"))
    clock = TimeControl.parse(f"st={move_time}")
    plan = Plan(find_game(game), "bench", agents, rounds=max(1, games // 2), time_control=clock)
    return [job for _, job in plan.games()]


def played(backend: str, todo: Sequence[GameJob], k: int) -> Iterator[tuple[GameJob, GameRecord]]:
    if backend == "ray":
        from arbiter.tournament.ray_backend import run_series_ray

        return run_series_ray(todo, k)
    return run_series(todo, k, workers=True)


def measure(backend: str, todo: Sequence[GameJob], k: int) -> tuple[float, float]:
    """(seconds per game once running, seconds of start-up) for one run."""
    started = time.perf_counter()
    ends = [time.perf_counter() - started for _ in played(backend, todo, k)]
    first = max(k, len(ends) // 10)
    each = (ends[-1] - ends[first - 1]) / (len(ends) - first)
    return each, ends[first - 1] - first * each / k


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAME_NAMES, default="votey")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--move-time", type=float, default=0.05)
    parser.add_argument("--backend", action="append", choices=("local", "ray"))
    parser.add_argument("--repeat", type=int, default=3, help="turns each backend takes")
    args = parser.parse_args()
    todo = jobs(args.game, args.games, args.move_time)
    backends = args.backend or ["local", "ray"]
    what = f"{args.game}, {args.games} games of random against greedy, {args.move_time} s a move"
    print(f"{what}, concurrency {args.concurrency}, best of {args.repeat}")
    best: dict[str, tuple[float, float]] = {}
    for _ in range(args.repeat):
        for backend in backends:
            each, start = measure(backend, todo, args.concurrency)
            was = best.get(backend, (each, start))
            best[backend] = (min(was[0], each), min(was[1], start))
    print(f"{'backend':8s} {'ms/game':>8s} {'start-up':>9s}")
    for backend in backends:
        each, start = best[backend]
        print(f"{backend:8s} {1000 * each:8.1f} {start:8.2f}s")
    if len(best) == 2:
        print(f"ray / local per game: {best['ray'][0] / best['local'][0]:.2f}")


if __name__ == "__main__":
    main()
