"""A series of games between two agents, one after another or several at once.

Each game is described by a :class:`GameJob` (plain data, so it can cross into a
worker process); :func:`run_series` plays the jobs, up to ``concurrency`` at a
time in separate processes, and yields each record as its game ends. Agents are
built inside the process that plays the game, so in-process engines of parallel
games do not share one interpreter.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from typing import Any

from arbiter.clock import TimeControl
from arbiter.games import find_game
from arbiter.record import GameRecord
from arbiter.referee.match import MoveEvent, play_game


@dataclass(frozen=True, slots=True)
class GameJob:
    """One game to play: who sits where, under which rules, clock and seed.

    ``agents`` are built-in engine names or commands, in seat order; ``names`` are
    the names to record for them.
    """

    game: str
    agents: tuple[str, str]
    names: tuple[str, str]
    time_control: str
    seed: int
    round: int
    options: dict[str, Any] = field(default_factory=dict, hash=False)
    depth: int | None = None
    memory_limit_mb: float | None = None


def make_seat(job: GameJob, seat: int, game: Any) -> Any:
    """Returns the seat for ``job.agents[seat]`` in ``game``: an in-process engine or a
    program."""
    from arbiter.agents.registry import ENGINES, make_agent
    from arbiter.referee.seat import LocalSeat

    spec = find_game(job.game)
    who = job.agents[seat]
    if who in ENGINES:
        agent = make_agent(who, spec, depth=job.depth)
        built: Any = LocalSeat(agent, game, spec.protocol.move_text, seed=2 * job.seed + seat)
    else:
        built = spec.protocol.process_seat(who, memory_limit_mb=job.memory_limit_mb)
    built.name = job.names[seat]
    return built


def play_job(job: GameJob, on_move: Callable[[MoveEvent], None] | None = None) -> GameRecord:
    """Plays one job to the end and returns its record."""
    spec = find_game(job.game)
    game = spec.make(**job.options)
    seats = [make_seat(job, 0, game), make_seat(job, 1, game)]
    record = asyncio.run(
        play_game(
            spec,
            game,
            seats,
            TimeControl.parse(job.time_control),
            seed=job.seed,
            options=job.options,
            on_move=on_move,
        )
    )
    return replace(record, round=job.round)


def run_series(
    jobs: Sequence[GameJob],
    concurrency: int = 1,
    on_move: Callable[[MoveEvent], None] | None = None,
) -> Iterator[tuple[GameJob, GameRecord]]:
    """Plays every job and yields (job, record) as each game ends.

    With ``concurrency`` 1 the games run here, in order, and ``on_move`` sees every
    move; otherwise up to ``concurrency`` games run at once in worker processes. On
    an interrupt, games not yet started are cancelled, and those under way stop
    their agents as they end.
    """
    if concurrency <= 1:
        for job in jobs:
            yield job, play_job(job, on_move)
        return
    with ProcessPoolExecutor(max_workers=concurrency) as pool:
        pending: dict[Future[GameRecord], GameJob] = {}
        queue = list(jobs)
        try:
            while queue or pending:
                while queue and len(pending) < concurrency:
                    job = queue.pop(0)
                    pending[pool.submit(play_job, job)] = job
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in sorted(done, key=lambda f: pending[f].round):
                    job = pending.pop(future)
                    yield job, future.result()
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise
