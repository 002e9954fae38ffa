"""Tournament throughput: games per hour for each game, with random agents, with
fixed-depth alpha-beta, and with alpha-beta thinking a fixed time a move, at
concurrency 1 and 2, and what the referee itself costs, two ways:

- ``ref cpu``: the CPU the referee's own process spent on the game (starting and
  stopping programs, pipes or files, judging, suspending, events), in milliseconds
  per move and as a share of all the CPU the game took (the referee's and what its
  programs were charged). This is what the referee costs whatever else the machine
  is doing.
- ``wall``: everything a game's wall time holds beyond what its agents were charged,
  as a share of the games' time and in milliseconds per move: the referee's CPU and
  its waits (a program's start, a suspension taking hold). It is the referee's cost
  only on an idle machine: on a busy one a program waiting for a core is charged
  less CPU than the wall time it took, and that wait lands here too.

The referee's CPU is then split into what a game costs whatever its length (its
programs' boxes, starts and ends: ``ms/game``) and what each move adds (``ms/move``
after it), by a least-squares line through each game's referee CPU against its
number of moves (a game of 30 moves and one of 60 tell the two apart).

The overhead per move is roughly fixed, so its share falls as the agents think
longer: the timed rows show it at a pace nearer a contest's.

Agents are built-in engines run as programs (``arbiter agent``), so each game goes
through the contest's protocol exactly as a contestant's program would.

``--isolation LEVEL`` (repeatable) plays the rows behind those walls, to compare what
they cost; by default every wall the machine has.

Usage: python benchmarks/tournament.py [--game NAME] [--games N] [--depth D] [--move-time S]
       [--isolation LEVEL ...]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, replace
from pathlib import Path

from arbiter.agents.spec import AgentSpec
from arbiter.clock import TimeControl
from arbiter.games import GAME_NAMES, find_game
from arbiter.play.series import GameJob, play_job
from arbiter.record import GameRecord
from arbiter.referee.events import EventSink, ignore
from arbiter.tournament.run import Plan, missing, open_tournament, play
from arbiter.tournament.store import Store


def timed_job(job: GameJob) -> tuple[GameRecord, float, float]:
    """Plays a job as a tournament worker does, with the game's own wall time and the
    CPU time of the process refereeing it (its own, not its programs')."""
    started, cpu = time.perf_counter(), time.process_time()
    record = play_job(job)
    return record, time.perf_counter() - started, time.process_time() - cpu


class TimedSeries:
    """The tournament's games K at a time in worker processes, as the default series
    plays them, keeping each game's wall time from its start to its programs' end
    (the time a slot waits for the next game, or the driver's database writes, are
    not any game's)."""

    def __init__(self) -> None:
        self.seconds: list[float] = []
        self.referee_cpu: list[float] = []
        self.moves: list[int] = []

    def _keep(self, record: GameRecord, seconds: float, cpu: float) -> None:
        self.seconds.append(seconds)
        self.referee_cpu.append(cpu)
        self.moves.append(len(record.moves))

    def split(self) -> tuple[float, float] | None:
        """The referee's CPU seconds per game and per move (a least-squares line
        through the games), or None while the games are too few or all as long."""
        if len(set(self.moves)) < 2:
            return None
        per_move, per_game = statistics.linear_regression(self.moves, self.referee_cpu)
        return per_game, per_move

    def __call__(
        self, jobs: Sequence[GameJob], concurrency: int, events: EventSink = ignore
    ) -> Iterator[tuple[GameJob, GameRecord]]:
        if concurrency <= 1:
            for job in jobs:
                record, seconds, cpu = timed_job(job)
                self._keep(record, seconds, cpu)
                yield job, record
            return
        with ProcessPoolExecutor(concurrency) as pool:
            queue = list(jobs)
            pending: dict[Future[tuple[GameRecord, float, float]], GameJob] = {}
            while queue or pending:
                while queue and len(pending) < concurrency:
                    job = queue.pop(0)
                    pending[pool.submit(timed_job, job)] = job
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    record, seconds, cpu = future.result()
                    self._keep(record, seconds, cpu)
                    yield pending.pop(future), record


def program(game: str, engine: str, name: str) -> AgentSpec:
    """The built-in ``engine`` run as a program; ``alphabeta@S`` thinks S seconds a move."""
    engine, _, seconds = engine.partition("@")
    command = f"{sys.executable} -m arbiter.cli agent {game} --engine {engine}"
    if seconds:
        command += f" --move-time {seconds}"
    return AgentSpec.parse(command, name=name)


@dataclass(frozen=True, slots=True)
class Row:
    """One row's figures: games per hour; the referee's CPU as a share of the games'
    CPU, in milliseconds per move, and split into milliseconds per game and per move
    (None: too few games to split); the wall time beyond the charged as a share of the
    games' wall time and in milliseconds per move."""

    per_hour: float
    cpu_share: float
    cpu_ms: float
    split: tuple[float, float] | None
    wall_share: float
    wall_ms: float

    def cells(self) -> str:
        game_ms, move_ms = ("-", "-")
        if self.split is not None:
            game_ms, move_ms = (f"{1000 * x:.1f}" for x in self.split)
        return (
            f"{self.per_hour:9.0f} {self.cpu_share:8.1%} {self.cpu_ms:8.2f} "
            f"{game_ms:>8s} {move_ms:>8s} {self.wall_share:8.1%} {self.wall_ms:8.1f}"
        )


def run(game: str, engine: str, games: int, concurrency: int, isolation: str = "auto") -> Row:
    """Plays the row's games and measures them (see :class:`Row`)."""
    spec = find_game(game)
    agents = (program(game, engine, "a"), program(game, engine, "b"))
    plan = Plan(
        spec,
        "bench",
        agents,
        rounds=max(1, games // 2),
        time_control=TimeControl.parse("st=10") if game != "halma" else TimeControl.parse("300"),
        supervision=replace(spec.supervision, isolation=isolation),
    )
    with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "bench.db") as store:
        tournament = open_tournament(store, plan)
        todo = missing(store, tournament, plan.games())
        series = TimedSeries()
        started = time.monotonic()
        charged = 0.0
        moves = 0
        for finished in play(store, tournament, todo, concurrency=concurrency, series=series):
            charged += sum(finished.record.times)
            moves += len(finished.record.moves)
        wall = time.monotonic() - started
    per_hour = len(todo) / wall * 3600
    game_time, referee = sum(series.seconds), sum(series.referee_cpu)
    overhead = max(0.0, game_time - charged)
    per_move = 1000 / max(moves, 1)
    return Row(
        per_hour,
        referee / max(referee + charged, 1e-9),
        referee * per_move,
        series.split(),
        overhead / game_time,
        overhead * per_move,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAME_NAMES, action="append")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--move-time", type=float, default=0.1, help="the timed rows' seconds")
    parser.add_argument("--isolation", action="append", help="walls (default: all there are)")
    parser.add_argument(
        "--engine", action="append", help="only these agents (random, alphabeta:depth=D, ...)"
    )
    args = parser.parse_args()
    print(
        f"{'game':17s} {'agents':18s} {'walls':10s} {'conc':>4s} {'games/h':>9s} "
        f"{'ref cpu':>8s} {'ms/move':>8s} {'ms/game':>8s} {'+ms/move':>8s} "
        f"{'wall':>8s} {'ms/move':>8s}"
    )
    engines = args.engine or [
        "random",
        f"alphabeta:depth={args.depth}",
        f"alphabeta@{args.move_time}",
    ]
    for game in args.game or GAME_NAMES:
        for engine in engines:
            for isolation in args.isolation or ["auto"]:
                for concurrency in (1, 2):
                    row = run(game, engine, args.games, concurrency, isolation)
                    print(
                        f"{game:17s} {engine:18s} {isolation:10s} {concurrency:4d} {row.cells()}",
                        flush=True,
                    )


if __name__ == "__main__":
    main()
