"""Games played as Ray tasks: the same jobs :func:`~arbiter.referee.series.run_series`
plays in local worker processes, on the machines of a Ray cluster.

Each game is one task that referees the game exactly as ``arbiter match`` does, on
whichever node Ray gives it; the record comes back to the driver, which writes the
database, so a tournament resumes the same way whatever ran its games. Every node
needs arbiter installed and every external command present at the same path (Ray
ships no programs). Ray is optional (``pip install 'arbiter[ray]'``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from arbiter.errors import ConfigError
from arbiter.record import GameRecord
from arbiter.referee.events import EventSink, GameStarted, ignore
from arbiter.referee.series import GameJob, play_job


def _play(job: GameJob) -> GameRecord:
    """One game, in a Ray worker."""
    return play_job(job)


def run_series_ray(
    jobs: Sequence[GameJob],
    concurrency: int = 1,
    events: EventSink = ignore,
    address: str | None = None,
) -> Iterator[tuple[GameJob, GameRecord]]:
    """Plays every job as a Ray task, at most ``concurrency`` at once, and yields (job,
    record) as each ends; ``events`` hears of each game as its task is sent (a task's
    moves stay on its node). ``address``: a running cluster's (default: a Ray instance
    started here for the series, or the one this process already joined).

    :raises ConfigError: if Ray is not installed or the cluster cannot be reached.
    """
    try:
        import ray
    except ImportError:
        raise ConfigError("the Ray backend needs Ray: pip install 'arbiter[ray]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        try:
            ray.init(
                address=address,
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
            )
        except (ConnectionError, RuntimeError, ValueError) as e:
            raise ConfigError(f"cannot reach a Ray cluster at {address!r}: {e}") from None
    remote: Any = ray.remote(num_cpus=1, max_retries=0)(_play)
    pending: dict[Any, GameJob] = {}
    queue = list(jobs)
    try:
        while queue or pending:
            while queue and len(pending) < concurrency:
                job = queue.pop(0)
                pending[remote.remote(job)] = job
                names = tuple(a.name for a in job.agents)
                events(GameStarted(job.round, names, job.time_control))
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                job = pending.pop(ref)
                yield job, ray.get(ref)
    finally:
        for ref in pending:  # stopped early: the games under way end with their workers
            ray.cancel(ref, force=True)
        if started_here:
            ray.shutdown()
