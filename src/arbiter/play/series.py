"""A series of games, one after another or several at once in worker processes.

Each game is described by a :class:`GameJob` (plain data, so it can cross into a
worker process); :func:`run_series` plays the jobs, up to ``concurrency`` at a
time, and yields each record as its game ends. Agents are built inside the
process that plays the game, so in-process engines of parallel games do not share
one interpreter. Events of games played in workers come back over each worker's
pipe, so an onlooker sees every move whatever the concurrency.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from arbiter.agents.spec import AgentSpec
from arbiter.clock import TimeControl
from arbiter.contract import Supervision
from arbiter.errors import ConfigError, Reason
from arbiter.game import Outcome
from arbiter.games import find_game
from arbiter.play.pool import WorkerPool
from arbiter.record import GameRecord
from arbiter.referee.events import EventSink, MovePlayed, ignore
from arbiter.referee.match import play_game
from arbiter.referee.sandbox import die_with_parent
from arbiter.referee.seat import make_seat
from arbiter.referee.transcript import game_dir


@dataclass(frozen=True, slots=True)
class GameJob:
    """One game to play: who sits where (seat order), under which rules, clock and seed.

    ``number`` numbers the game in its series; ``start`` is a position text to begin
    from (default: the game's start position).
    """

    game: str
    agents: tuple[AgentSpec, AgentSpec]
    time_control: str
    seed: int
    number: int
    options: dict[str, Any] = field(default_factory=dict, hash=False)
    supervision: Supervision = field(default_factory=Supervision)
    start: str | None = None


def play_job(job: GameJob, events: EventSink = ignore) -> GameRecord:
    """Plays one job to the end and returns its record.

    :raises ConfigError: for an unknown game or bad options.
    """
    spec = find_game(job.game)
    game = spec.make(job.options)
    supervision = job.supervision
    if supervision.log_dir is not None:
        supervision = replace(supervision, log_dir=game_dir(supervision.log_dir, job.number))
    seats = [
        make_seat(spec, game, agent, supervision=pinned(supervision, i), seed=2 * job.seed + i)
        for i, agent in enumerate(job.agents)
    ]
    start = None if job.start is None else spec.notation.parse_position(job.start)
    return asyncio.run(
        play_game(
            spec,
            game,
            seats,
            TimeControl.parse(job.time_control),
            seed=job.seed,
            start=start,
            options=job.options,
            events=events,
            number=job.number,
        )
    )


def interrupt_on_termination() -> None:
    """Makes SIGTERM and SIGHUP interrupt this process as Ctrl-C does, so a referee or
    worker stopped by its service manager, its terminal or its parent cleans up."""
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.default_int_handler)


_STOP_GRACE = 5
"""Seconds a worker told to stop has to stop its game's programs before it ends anyway."""

_playing = False
"""True while this worker plays a game (read by its SIGTERM handler)."""

_stopping = False
"""True once this worker has been told to stop."""


_slot = 0
"""This process's place among a pool's workers (0 in a referee that plays alone):
which cores its games' programs are pinned to (:func:`pinned`)."""


def _worker_start(slot: int = 0) -> None:
    """A pool worker (or the event queue's manager) is killed outright with the referee
    that started it: a referee killed with SIGKILL runs no clean-up, so none is asked of
    the worker either, and its programs die with it (their own parent-death signal and
    the watchdog). Ctrl-C is left to the referee, which stops its workers itself."""
    global _slot
    _slot = slot
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop_worker)
    die_with_parent(signal.SIGKILL)


def _stop_worker(signum: int, frame: object) -> None:
    """The referee's SIGTERM: an idle worker ends at once; one playing a game stops it,
    which stops its programs, and ends at the latest ``_STOP_GRACE`` seconds later
    (SIGALRM's default action), whatever the game's clean-up meets. A second SIGTERM
    (the pool stops what is left once another worker has ended) leaves the clean-up
    under way alone."""
    global _stopping
    if not _playing:
        os._exit(128 + signum)
    if _stopping:
        return
    _stopping = True
    signal.alarm(_STOP_GRACE)
    raise KeyboardInterrupt


def _play_in_worker(job: GameJob, events: EventSink) -> GameRecord:
    """Plays a job in a pool worker. Told to stop meanwhile, the game ends (its programs
    stopped) and then the worker itself, which the pool would otherwise keep waiting
    for its next job."""
    global _playing
    try:
        _playing = True
        try:
            return play_job(job, events)
        finally:
            _playing = False
    except BaseException:
        if _stopping:  # whatever ended the game, the worker ends too
            os._exit(130)
        raise


def pin_cores(concurrency: int) -> list[int]:
    """The cores ``--pin`` gives ``concurrency`` games at once, two a game.

    :raises ConfigError: where this process may use fewer cores than that, or the
        machine has no ``taskset`` to set them with.
    """
    cores = sorted(os.sched_getaffinity(0))
    if 2 * concurrency > len(cores):
        raise ConfigError(
            f"--pin puts each program on a core of its own: {concurrency} game(s) at once "
            f"need {2 * concurrency} cores, this process may use {len(cores)}"
        )
    if shutil.which("taskset") is None:
        raise ConfigError("--pin needs taskset (util-linux) to set a program's cores")
    return cores[: 2 * concurrency]


def pinned(supervision: Supervision, seat: int) -> Supervision:
    """``supervision`` for seat ``seat`` of a game played in this process's slot: with
    ``pin``, the seat's own core (the slot's two cores, one a seat)."""
    if not supervision.pin:
        return supervision
    cores = sorted(os.sched_getaffinity(0))
    core = cores[(2 * _slot + seat) % len(cores)]
    return replace(supervision, cpus=(core,))


class Drain:
    """A stop that spares the games under way (cutechess's long-asked "finish what is
    running"): the first Ctrl-C starts no more games and lets those under way end and
    be recorded; the second stops them now (a ``KeyboardInterrupt``, as before).

    One per process (a signal is the process's): :data:`DRAIN`, read by
    :func:`run_series` before it starts each game."""

    def __init__(self) -> None:
        self.requested = False

    @contextlib.contextmanager
    def on_interrupt(self, say: Callable[[str], None]) -> Iterator[None]:
        """While the block runs, the first SIGINT asks for a drain (``say`` tells the
        person how to stop now), the second raises ``KeyboardInterrupt``."""
        self.requested = False

        def handler(signum: int, frame: object) -> None:
            if self.requested:
                raise KeyboardInterrupt
            self.requested = True
            say("finishing the games under way, starting no more (Ctrl-C again to stop now)")

        old = signal.signal(signal.SIGINT, handler)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, old)


DRAIN = Drain()
"""The process's drain request (see :class:`Drain`)."""


def run_series(
    jobs: Sequence[GameJob],
    concurrency: int = 1,
    events: EventSink = ignore,
    *,
    workers: bool | None = None,
) -> Iterator[tuple[GameJob, GameRecord]]:
    """Plays every job and yields (job, record) as each game ends.

    With ``workers`` (by default, when ``concurrency`` is above 1) up to
    ``concurrency`` games run at once in worker processes (:mod:`arbiter.play.pool`),
    their events reach ``events`` here, and a game whose worker dies (a program killed
    or stopped it) is played again, then forfeited by the side to move; otherwise the
    games run here, in order. On an interrupt, or when the caller stops asking (an
    SPRT has decided), games not yet started are not played, and those under way stop
    their agents as they end. Once a drain is asked for (:data:`DRAIN`), no game
    starts and those under way end as they would.
    """
    if not (concurrency > 1 if workers is None else workers):
        for job in jobs:
            if DRAIN.requested:
                return
            yield job, play_job(job, events)
        return
    pool: WorkerPool[GameJob] = WorkerPool(
        concurrency, _play_in_worker, forfeit_job, start=_worker_start, key=_job_key
    )
    yield from pool.run(jobs, events, draining=lambda: DRAIN.requested)


def _job_key(job: GameJob) -> object:
    return job.number


def forfeit_job(job: GameJob, moves: Sequence[MovePlayed], why: str) -> GameRecord:
    """The record of a job whose worker died during it past its replays: its moves so
    far, lost by the side to move (with suspension, the only program then running)."""
    spec = find_game(job.game)
    game = spec.make(job.options)
    if moves:
        s = spec.notation.parse_position(moves[-1].position)
    else:
        s = game.initial() if job.start is None else spec.notation.parse_position(job.start)
    out = Outcome(1 - game.to_move(s), Reason.CRASH, why)
    return GameRecord(
        game=spec.name,
        players=tuple(agent.name for agent in job.agents),
        moves=tuple(m.text for m in moves),
        times=tuple(m.seconds for m in moves),
        winner=out.winner,
        reason=out.reason,
        detail=out.detail,
        offending=None,
        time_control=job.time_control,
        seed=job.seed,
        options=dict(job.options),
        start=job.start,
        date=datetime.now(UTC).isoformat(timespec="seconds"),
        round=job.number,
        score=spec.score(game, s, out),
    )
