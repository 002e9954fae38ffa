"""Tournament throughput: games per hour for each game, with random agents and with
fixed-depth alpha-beta, at concurrency 1 and 2, and the referee's own share of the
time: everything a game's wall time holds beyond what its agents were charged
(starting programs, pipes or files, judging, suspending, events and the database),
as a share of the games' time and in milliseconds per move (the share at another
speed of play follows from that: the overhead per move is roughly fixed).

Agents are built-in engines run as programs (``arbiter agent``), so each game goes
through the contest's protocol exactly as a contestant's program would.

Usage: python benchmarks/tournament.py [--game NAME] [--games N] [--depth D]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from arbiter.agents.spec import AgentSpec
from arbiter.clock import TimeControl
from arbiter.games import GAME_NAMES, find_game
from arbiter.tournament.run import Plan, missing, open_tournament, play
from arbiter.tournament.store import Store


def program(game: str, engine: str, name: str) -> AgentSpec:
    command = f"{sys.executable} -m arbiter.cli agent {game} --engine {engine}"
    return AgentSpec.parse(command, name=name)


def run(game: str, engine: str, games: int, concurrency: int) -> tuple[float, float, float]:
    """(games per hour, the referee's share of the summed game time, its milliseconds
    per move)."""
    spec = find_game(game)
    agents = (program(game, engine, "a"), program(game, engine, "b"))
    plan = Plan(
        spec,
        "bench",
        agents,
        rounds=max(1, games // 2),
        time_control=TimeControl.parse("st=10") if game != "halma" else TimeControl.parse("300"),
        supervision=spec.supervision,
    )
    with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "bench.db") as store:
        tournament = open_tournament(store, plan)
        todo = missing(store, tournament, plan.games())
        started = time.monotonic()
        charged = 0.0
        moves = 0
        for finished in play(store, tournament, todo, concurrency=concurrency):
            charged += sum(finished.record.times)
            moves += len(finished.record.moves)
        wall = time.monotonic() - started
    per_hour = len(todo) / wall * 3600
    game_time = wall * concurrency  # the games' summed wall time, at most
    overhead = max(0.0, game_time - charged)
    return per_hour, overhead / game_time, overhead / max(moves, 1) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAME_NAMES, action="append")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--depth", type=int, default=2)
    args = parser.parse_args()
    print(
        f"{'game':17s} {'agents':18s} {'conc':>4s} {'games/h':>9s} {'referee':>8s} {'ms/move':>8s}"
    )
    for game in args.game or GAME_NAMES:
        for engine in ("random", f"alphabeta:depth={args.depth}"):
            for concurrency in (1, 2):
                per_hour, share, per_move = run(game, engine, args.games, concurrency)
                print(
                    f"{game:17s} {engine:18s} {concurrency:4d} {per_hour:9.0f} {share:8.1%} "
                    f"{per_move:8.1f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
