"""Games played on Ray: the same jobs :func:`~arbiter.play.series.run_series`
plays in local worker processes, on the machines of a Ray cluster.

Each game is refereed exactly as ``arbiter match`` does, by one of ``concurrency``
referee actors: long-lived Ray worker processes, as the local pool's workers are,
each holding one core, placed wherever Ray finds one. The record comes back to the
driver, which writes the database, so a tournament resumes the same way whatever
ran its games. Every node needs arbiter installed and every external command present
at the same path (Ray ships no programs). Ray is optional (``pip install
'arbiter[ray]'``).

Why actors, not a task a game: a task is placed afresh each time, and the driver
hears that a game ended before it sends the next, so a core waits a round trip at
every game (about 11 ms a game, measured: as much as a fast game takes). An actor
is placed once, and each is always given its next game before it ends the one it
plays (Ray runs an actor's calls one at a time, in order), so it never waits.

An actor that dies (its node lost, its process killed) takes its game with it: a
new actor takes its place and the game is played again, up to
:data:`~arbiter.play.pool.REPLAYS` times, as the local pool does.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from typing import Any

from arbiter.errors import ConfigError
from arbiter.play.pool import REPLAYS
from arbiter.play.series import GameJob, play_job
from arbiter.record import GameRecord
from arbiter.referee.events import EventSink, GameStarted, ignore

AHEAD = 2
"""Games given to an actor at once: the one it plays and the one it plays next."""


class Referee:
    """A referee actor's body: plays the games it is given, one after another."""

    def play(self, job: GameJob) -> GameRecord:
        return play_job(job)


def run_series_ray(
    jobs: Sequence[GameJob],
    concurrency: int = 1,
    events: EventSink = ignore,
    address: str | None = None,
) -> Iterator[tuple[GameJob, GameRecord]]:
    """Plays every job on Ray, at most ``concurrency`` at once (and no more than the
    cluster has cores), and yields (job, record) as each ends; ``events`` hears of each
    game as it starts (a game's moves stay on its node). ``address``: a running
    cluster's (default: :func:`_join_ray`'s).

    :raises ConfigError: if Ray is not installed, the cluster cannot be reached, or a
        game's actor died more than :data:`~arbiter.play.pool.REPLAYS` times.
    """
    ray, started_here = _join_ray(address)
    cores = int(ray.cluster_resources().get("CPU", 1))
    # an actor the cluster has no core for would wait for ever with its games
    size = max(1, min(concurrency, cores, len(jobs)))
    actor_class: Any = ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(Referee)
    actors: list[Any] = [actor_class.remote() for _ in range(size)]
    # each actor's games, in the order it plays them: the first is the one it plays
    given: list[deque[tuple[Any, GameJob]]] = [deque() for _ in actors]
    deaths: dict[int, int] = {}  # by game number, as the local pool counts them
    queue: deque[GameJob] = deque(jobs)

    def started(job: GameJob) -> None:
        events(GameStarted(job.number, tuple(a.name for a in job.agents), job.time_control))

    def give(slot: int) -> None:
        """Tops up ``slot``'s games; the first an idle actor is given starts now (the
        others start as the one before them ends, and are told then)."""
        while queue and len(given[slot]) < AHEAD:
            job = queue.popleft()
            given[slot].append((actors[slot].play.remote(job), job))
            if len(given[slot]) == 1:
                started(job)

    def replace(slot: int) -> None:
        """The actor of ``slot`` died: its games go back to the front of the queue (the
        one it was playing counted as died once more) and a new actor takes its place.

        :raises ConfigError: past :data:`~arbiter.play.pool.REPLAYS` deaths of a game.
        """
        lost = [job for _, job in given[slot]]
        given[slot].clear()
        deaths[lost[0].number] = died = deaths.get(lost[0].number, 0) + 1
        if died > REPLAYS:
            raise ConfigError(
                f"game {lost[0].number}: its Ray worker died {died} times "
                "(killed, or its node lost)"
            )
        queue.extendleft(reversed(lost))
        ray.kill(actors[slot])
        actors[slot] = actor_class.remote()

    try:
        for slot in range(size):
            give(slot)
        while any(given):
            # the game each actor plays now: its calls end in the order they were made,
            # but ray.wait may name a later one first when both have ended
            heads = {games[0][0]: slot for slot, games in enumerate(given) if games}
            (ref,), _ = ray.wait(list(heads), num_returns=1)
            slot = heads[ref]
            try:
                record = ray.get(ref)
            except ray.exceptions.RayActorError:
                replace(slot)
            else:
                _, job = given[slot].popleft()
                if given[slot]:
                    started(given[slot][0][1])
                yield job, record
            give(slot)
    finally:
        for actor in actors:  # stopped early: the games under way end with their actors
            ray.kill(actor)
        if started_here:
            ray.shutdown()


def _join_ray(address: str | None) -> tuple[Any, bool]:
    """Ray, joined to the cluster at ``address`` (a Ray instance started here without
    one), unless this process has joined one already; and whether it was started here.

    :raises ConfigError: if Ray is not installed, or the cluster cannot be reached.
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
    return ray, started_here
