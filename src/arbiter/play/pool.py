"""Worker processes that play games, each talking to the referee over a pipe of its own.

A worker takes one job at a time and sends back the game's events as they happen
and its record at the end. Each worker has its own pipe (no shared queue, lock or
manager process), so a worker that dies, however it dies, takes nothing with it:
the pool sees its end at once (its process sentinel), knows the one game it was
playing and how far that game had gone, starts a new worker, and the other games
play on. A worker found stopped (a program sent it SIGSTOP, where the programs run
as the referee's own user) is killed and treated the same way.

The pool plays a dead worker's game again, up to :data:`REPLAYS` times; a game whose
worker dies once more is lost by the side that was to move (with suspension, the
only program then running), reason ``crash``, detail "its referee died during its
move". Nothing here knows the rules: the caller gives a :data:`Forfeit` that makes
that record.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import signal
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, Generic, TypeVar

import psutil

from arbiter.record import GameRecord
from arbiter.referee.events import Event, EventSink, MovePlayed

J = TypeVar("J")

REPLAYS = 2
"""How many times a game whose worker died is played again before it is forfeited."""

STOPPED_CHECK = 0.25
"""Seconds between checks for a worker stopped by a signal (a read of each busy
worker's ``/proc`` status: a stopped worker's game is played again within a quarter
of a second, at no cost worth counting)."""

Play = Callable[[Any, EventSink], GameRecord]
"""Plays one job in a worker (a module-level function: it crosses to the worker)."""

Forfeit = Callable[[Any, Sequence[MovePlayed], str], GameRecord]
"""Makes the record of a job whose worker kept dying: the job, its moves so far and
why; the side to move loses."""


@dataclass(slots=True)
class _Worker(Generic[J]):
    process: BaseProcess
    conn: Connection
    slot: int = 0
    job: J | None = None
    moves: list[MovePlayed] = field(default_factory=list)


def _serve(conn: Connection, play: Play, start: Callable[[int], None], slot: int) -> None:
    """A worker's life: jobs in, events and records out, until told to stop; ``slot``
    is its place among the pool's workers (0, 1, ...; a dead one's goes to the next)."""
    start(slot)

    def send(event: Event) -> None:
        with contextlib.suppress(OSError, ValueError):
            conn.send(("event", event.portable() if isinstance(event, MovePlayed) else event))

    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        try:
            record = play(job, send)
        except Exception as e:  # a job's own error: raised in the referee
            try:
                conn.send(("error", e))
            except Exception:  # not picklable: its words
                conn.send(("error", RuntimeError(f"{type(e).__name__}: {e}")))
        else:
            conn.send(("done", record))


class WorkerPool(Generic[J]):
    """``size`` worker processes playing jobs with ``play`` (see the module docstring).

    ``start`` runs first in each worker, given its slot; ``key`` names a job (for the counts of its
    replays); ``forfeit`` makes the record of a game whose worker died past
    :data:`REPLAYS` times.
    """

    def __init__(
        self,
        size: int,
        play: Play,
        forfeit: Forfeit,
        *,
        start: Callable[[int], None],
        key: Callable[[J], object] = id,
    ) -> None:
        self.size = max(1, size)
        self.play = play
        self.forfeit = forfeit
        self.start = start
        self.key = key
        self.context = multiprocessing.get_context()
        self.workers: list[_Worker[J]] = []
        self.deaths: dict[object, int] = {}
        self._checked = time.monotonic()

    def _spawn(self) -> _Worker[J]:
        ours, theirs = self.context.Pipe()
        held = {w.slot for w in self.workers}
        slot = next(i for i in range(len(held) + 1) if i not in held)
        process = self.context.Process(
            target=_serve, args=(theirs, self.play, self.start, slot), daemon=True
        )
        process.start()
        theirs.close()
        worker: _Worker[J] = _Worker(process, ours, slot)
        self.workers.append(worker)
        return worker

    def run(
        self,
        jobs: Sequence[J],
        events: EventSink,
        draining: Callable[[], bool] = lambda: False,
    ) -> Iterator[tuple[J, GameRecord]]:
        """Plays every job, yielding (job, record) as each game ends; an error a job
        raises in its worker (a bad option) is raised here. Stopping the iteration (or
        an interrupt) stops every worker's game; once ``draining`` says so, no job
        starts and those under way finish.
        """
        queue: deque[J] = deque(jobs)
        try:
            while queue or any(w.job is not None for w in self.workers):
                if draining():
                    queue.clear()
                for worker in self.workers:
                    if worker.job is None and queue:
                        self._give(worker, queue.popleft())
                while queue and len(self.workers) < self.size:
                    self._give(self._spawn(), queue.popleft())
                yield from self._step(queue, events)
        finally:
            self.close()

    def _give(self, worker: _Worker[J], job: J) -> None:
        worker.job, worker.moves = job, []
        with contextlib.suppress(OSError):  # a worker just dead: its sentinel says so
            worker.conn.send(job)

    def _step(self, queue: deque[J], events: EventSink) -> Iterator[tuple[J, GameRecord]]:
        """Waits up to 0.1 s for what the workers say or for one to die."""
        busy = [w for w in self.workers if w.job is not None]
        waits: list[Any] = [w.conn for w in busy] + [w.process.sentinel for w in busy]
        ready = set(multiprocessing.connection.wait(waits, timeout=0.1))
        for worker in busy:
            while worker.conn in ready and worker.job is not None:
                try:
                    kind, what = worker.conn.recv()
                except (EOFError, OSError):
                    break  # it died: its sentinel says so
                if kind == "event":
                    if isinstance(what, MovePlayed):
                        worker.moves.append(what)
                    events(what)
                elif kind == "done":
                    job, worker.job = worker.job, None
                    yield job, what
                else:
                    worker.job = None
                    raise what
                try:
                    if not worker.conn.poll():
                        break
                except (EOFError, OSError):
                    break
        now = time.monotonic()
        if now - self._checked >= STOPPED_CHECK:
            self._checked = now
            for worker in busy:
                if worker.job is not None and _stopped(worker.process.pid):
                    _kill(worker.process)
        for worker in list(self.workers):
            if worker.job is not None and not worker.process.is_alive():
                yield from self._lost(worker, queue)

    def _lost(self, worker: _Worker[J], queue: deque[J]) -> Iterator[tuple[J, GameRecord]]:
        """A worker died during its game: the game goes back to the queue, or, past
        its replays, is forfeited."""
        job = worker.job
        assert job is not None
        self.workers.remove(worker)
        worker.conn.close()
        worker.process.join(timeout=1)
        key = self.key(job)
        self.deaths[key] = deaths = self.deaths.get(key, 0) + 1
        if deaths <= REPLAYS:
            queue.appendleft(job)
            return
        why = f"its referee died during its move ({deaths} times: killed or stopped)"
        yield job, self.forfeit(job, worker.moves, why)

    def close(self) -> None:
        """Stops every worker: an idle one at once, one playing a game after stopping
        it (SIGTERM, which the worker turns into the game's interruption)."""
        for worker in self.workers:
            if worker.job is None:
                with contextlib.suppress(OSError, ValueError):
                    worker.conn.send(None)
            elif worker.process.is_alive() and worker.process.pid is not None:
                with contextlib.suppress(OSError):
                    os.kill(worker.process.pid, signal.SIGTERM)
        deadline = time.monotonic() + 10
        for worker in self.workers:
            worker.process.join(timeout=max(0.0, deadline - time.monotonic()))
            if worker.process.is_alive():
                _kill(worker.process)
            worker.conn.close()
        self.workers.clear()


def _stopped(pid: int | None) -> bool:
    try:
        return pid is not None and psutil.Process(pid).status() == psutil.STATUS_STOPPED
    except psutil.Error:
        return False


def _kill(process: BaseProcess) -> None:
    if process.pid is not None:
        with contextlib.suppress(OSError):
            os.kill(process.pid, signal.SIGKILL)
    process.join(timeout=2)
