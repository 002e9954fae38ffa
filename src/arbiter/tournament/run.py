"""Plays a tournament into its results database, resuming where it stopped.

A :class:`Plan` is everything that decides which games are played and how: the
game, the agents, the format and rounds, the clock, the rule options, the openings
and the seed. Its :meth:`Plan.settings` are stored with the tournament, so the same
command run again plays only the games that are missing, and a changed setting is
refused. Games are refereed exactly as ``arbiter match`` referees them, each in its
own worker process when several run at once; each finished game is stored as soon
as it ends.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from arbiter.agents.spec import AgentSpec, distinct_names
from arbiter.clock import TimeControl
from arbiter.contract import GameSpec, OptionValue, Supervision
from arbiter.errors import ConfigError
from arbiter.play.series import GameJob, run_series
from arbiter.record import GameRecord
from arbiter.referee.events import Event, EventSink, GameStarted, MovePlayed, ignore
from arbiter.tournament.openings import for_pairs, select_openings
from arbiter.tournament.schedule import Pairing, schedule
from arbiter.tournament.store import Store, Tournament


@dataclass(frozen=True, slots=True)
class Plan:
    """A tournament's settings; ``openings`` are position texts taken in turn by the
    pairs (none: every game from the start)."""

    spec: GameSpec[Any, Any]
    name: str
    agents: tuple[AgentSpec, ...]
    form: str = "round-robin"
    rounds: int = 1
    time_control: TimeControl = field(default_factory=lambda: TimeControl.parse("st=1"))
    options: dict[str, OptionValue] = field(default_factory=dict)
    openings: tuple[str, ...] = ()
    opening_source: str = "none"
    seed: int = 0
    supervision: Supervision = field(default_factory=Supervision)

    def settings(self) -> dict[str, Any]:
        """What a resumed tournament must share with the one it resumes (the openings
        by their contents too: a regenerated file or set must not change the starts of
        the games still to play)."""
        return {
            "format": self.form,
            "rounds": self.rounds,
            "time control": str(self.time_control),
            "rule options": self.options,
            "openings": self.opening_source,
            "openings digest": hashlib.sha256("\n".join(self.openings).encode()).hexdigest()[:16],
            "seed": self.seed,
            "supervision": {
                "charging": str(self.supervision.charging),
                "suspend": self.supervision.suspend,
                "memory limit": self.supervision.memory_limit_mb,
                "single process": self.supervision.single_process,
                "network": self.supervision.network,
                "disk limit": self.supervision.disk_limit_mb,
            },
        }

    def games(self) -> list[tuple[Pairing, GameJob]]:
        """Every game of the tournament, in schedule order, with the job that plays it."""
        pairings = schedule(self.form, len(self.agents), self.rounds, seed=self.seed)
        starts = for_pairs(self.openings, max((p.pair for p in pairings), default=-1) + 1)
        return [
            (
                p,
                GameJob(
                    self.spec.name,
                    (self.agents[p.seats[0]], self.agents[p.seats[1]]),
                    str(self.time_control),
                    p.seed,
                    p.number,
                    options=self.options,
                    supervision=self.supervision,
                    start=starts[p.pair],
                ),
            )
            for p in pairings
        ]


def plan_tournament(
    spec: GameSpec[Any, Any],
    agents: Sequence[AgentSpec],
    *,
    name: str | None = None,
    form: str = "round-robin",
    rounds: int = 1,
    time_control: TimeControl,
    options: dict[str, OptionValue] | None = None,
    supervision: Supervision | None = None,
    seed: int = 0,
    opening_plies: int | None = None,
    openings_file: str | None = None,
    default_openings: bool = True,
) -> Plan:
    """The plan of a tournament of ``agents`` (repeated names told apart by primes:
    alphabeta, alphabeta'), with its openings: a file's, ``opening_plies`` random plies,
    or the game's shipped set unless ``default_openings`` is off.

    :raises ConfigError: for fewer than two agents, an agent that cannot play (a
        missing program), openings asked for and turned off at once, an unknown
        format, or openings a program of the game cannot start from.
    """
    names = distinct_names([a.name for a in agents])
    unique = tuple(replace(a, name=n) for a, n in zip(agents, names, strict=True))
    if len(unique) < 2:
        raise ConfigError("a tournament needs two agents or more (--agent SPEC, or --agents FILE)")
    for agent in unique:
        agent.check()
    if not default_openings and (opening_plies or openings_file):
        raise ConfigError("--no-openings and --openings/--openings-file contradict each other")
    pairs = schedule(form, len(unique), rounds)[-1].pair + 1
    openings, source = select_openings(
        spec,
        unique,
        pairs,
        plies=opening_plies,
        path=openings_file,
        seed=seed,
        default=default_openings,
    )
    return Plan(
        spec,
        name or spec.name,
        unique,
        form,
        rounds,
        time_control,
        dict(options or {}),
        tuple(openings),
        source,
        seed,
        supervision or spec.supervision,
    )


@dataclass(frozen=True, slots=True)
class Finished:
    """A game just stored: its place in the schedule and its record."""

    pairing: Pairing
    record: GameRecord


def open_tournament(store: Store, plan: Plan) -> Tournament:
    """The plan's tournament in ``store``, created if new.

    :raises ConfigError: if it exists with other settings or agents.
    """
    agents = [(a.name, _spec_text(a)) for a in plan.agents]
    return store.open(plan.name, plan.spec.name, plan.settings(), agents)


def missing(
    store: Store, tournament: Tournament, games: Sequence[tuple[Pairing, GameJob]]
) -> list[tuple[Pairing, GameJob]]:
    """The ``games`` (a plan's) not yet in the database."""
    done = store.played(tournament.id)
    return [(p, job) for p, job in games if p.number not in done]


Series = Callable[[Sequence[GameJob], int, EventSink], Iterator[tuple[GameJob, GameRecord]]]
"""Plays jobs, so many at once, yielding each with its record as it ends: local worker
processes (:func:`~arbiter.play.series.run_series`) or Ray actors. It tells the sink
at least when each game starts."""

PROGRESS_EVERY = 1.0
"""Seconds between two notes of a running game's move count in the database."""


def play(
    store: Store,
    tournament: Tournament,
    todo: Sequence[tuple[Pairing, GameJob]],
    *,
    concurrency: int = 1,
    seal: Callable[[GameRecord], str] = GameRecord.to_json,
    series: Series | None = None,
    events: EventSink = ignore,
) -> Iterator[Finished]:
    """Plays ``todo``, ``concurrency`` games at once (by ``series``, default local worker
    processes), storing each game as it ends and then yielding it. The games under way
    are noted in the database with their move counts (at most one write a second a
    game), for the standings page."""
    pairings = {job.number: p for p, job in todo}
    jobs = [job for _, job in todo]
    noted: dict[int, float] = {}

    def note(event: Event) -> None:
        if isinstance(event, GameStarted) and event.game in pairings:
            store.begin(tournament.id, pairings[event.game])
            noted[event.game] = time.monotonic()
        elif isinstance(event, MovePlayed) and event.game in noted:
            now = time.monotonic()
            if now - noted[event.game] >= PROGRESS_EVERY:
                store.progress(tournament.id, event.game, event.ply)
                noted[event.game] = now
        events(event)

    if series is None:
        # even one game at a time plays in a worker: a program that kills the process
        # refereeing it costs that game a replay, not the tournament
        played = run_series(jobs, concurrency, note, workers=True)
    else:
        played = series(jobs, concurrency, note)
    for job, record in played:
        pairing = pairings[job.number]
        store.add(tournament.id, pairing, record, seal(record))
        noted.pop(job.number, None)
        yield Finished(pairing, record)


def _spec_text(agent: AgentSpec) -> str:
    """An agent as stored: its engine with options, or its command and directory."""
    if agent.program is not None:
        where = f" (in {agent.program.cwd})" if agent.program.cwd else ""
        return " ".join(agent.program.argv) + where
    options = ",".join(f"{k}={v}" for k, v in agent.options)
    return f"{agent.engine}:{options}" if options else str(agent.engine)
