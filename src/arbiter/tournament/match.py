"""A match between two agents: games in pairs with seats swapped, from openings if
asked, recorded, scored, and stopped early by an SPRT if one is given. ``arbiter
match`` is this module behind a command line; a Python program uses it the same way:

    from arbiter.tournament.match import Match

    match = Match.between("votey", "./my_agent", "alphabeta:depth=3", games=4)
    for game in match.play():
        print(game.job.number, game.record.outcome.result(), match.score.points)
    print("\\n".join(match.summary()))

Each game is played by the referee (:func:`arbiter.play.series.run_series`), so a
program is run through its contest's protocol, clock and walls exactly as in a
tournament.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from arbiter.agents.spec import AgentSpec, distinct_names
from arbiter.clock import TimeControl
from arbiter.contract import GameSpec, Supervision
from arbiter.errors import ConfigError
from arbiter.games import find_game
from arbiter.play.series import GameJob, run_series
from arbiter.record import GameRecord, append_record, open_records, read_records, record_key
from arbiter.referee.events import EventSink, ignore
from arbiter.tournament.openings import for_pairs, select_openings
from arbiter.tournament.pentanomial import PairStats
from arbiter.tournament.schedule import match as match_schedule
from arbiter.tournament.score import MatchScore
from arbiter.tournament.sprt import Sprt


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One finished game of a match: its job (seats, seed, number), its record, and
    where the SPRT stands after it (``None`` without one, or mid-pair)."""

    job: GameJob
    record: GameRecord
    first: int
    sprt: SprtState | None = None


@dataclass(frozen=True, slots=True)
class SprtState:
    """The SPRT after a completed pair: the log-likelihood ratio, its bounds, the pair
    counts (the first agent's pair totals 0, ½, 1, 1½, 2) and the decision (``H0``,
    ``H1`` or ``None`` to go on)."""

    llr: float
    bounds: tuple[float, float]
    counts: tuple[int, ...]
    decision: str | None


@dataclass
class Match:
    """A match of ``games`` games of ``spec`` between ``agents`` (shown as ``names``).

    ``score`` and ``points`` (the contest's own points per agent, such as CodeCup's
    12-0) grow as :meth:`play` yields games.
    """

    spec: GameSpec[Any, Any]
    agents: tuple[AgentSpec, AgentSpec]
    games: int = 2
    time_control: TimeControl | None = None
    options: dict[str, Any] = field(default_factory=dict)
    supervision: Supervision | None = None
    seed: int = 0
    openings: int | None = None
    openings_file: str | None = None
    concurrency: int = 1
    sprt: Sprt | None = None
    record: str | None = None
    resume: bool = False
    """Go on from the games ``record`` already holds (a match stopped part way, or
    one to lengthen): they count as played, and only the others are played."""
    score: MatchScore = field(init=False)
    points: list[float] = field(init=False)
    pentanomial: list[int] = field(init=False)
    """The first agent's complete pairs scoring 0, ¼, ½, ¾ and 1 (fastchess's
    pentanomial), counted whether or not an SPRT runs."""
    played: int = field(init=False, default=0)
    resumed: int = field(init=False, default=0)
    """How many of the games came from ``record`` (with ``resume``)."""

    def __post_init__(self) -> None:
        self.score = MatchScore((self.agents[0].name, self.agents[1].name))
        self.points = [0.0, 0.0]
        self.pentanomial = [0] * 5

    @classmethod
    def between(
        cls,
        game: str,
        first: str,
        second: str,
        *,
        names: Sequence[str] | None = None,
        dirs: Sequence[str | None] = (None, None),
        depth: int | None = None,
        move_time: float | None = None,
        **settings: Any,
    ) -> Match:
        """A match of ``game`` between two agents written as on the command line (a
        built-in engine such as ``alphabeta:depth=3``, or a program's command), each
        program run in its directory of ``dirs`` if given; ``depth`` fixes built-in
        engines' depth, ``move_time`` gives every move that many seconds (else the
        contest's clock). ``settings`` are the other fields of :class:`Match`.

        :raises ConfigError: for an unknown game, a bad agent or a missing program or
            directory.
        """
        spec = find_game(game)
        labels = distinct_names(list(names or (first, second)))
        for cwd in dirs:
            if cwd is not None and not os.path.isdir(cwd):
                raise ConfigError(f"no directory {cwd!r} for a program to run in")
        agents = tuple(
            AgentSpec.parse(text, name=label, cwd=cwd).with_options(depth=depth)
            for text, label, cwd in zip((first, second), labels, dirs, strict=True)
        )
        for agent in agents:
            agent.check()
        if move_time is not None:
            settings["time_control"] = TimeControl.per_move_seconds(move_time)
        return cls(spec, (agents[0], agents[1]), **settings)

    @property
    def clock(self) -> TimeControl:
        """The clock the games are played on: the one given, or the contest's."""
        return self.time_control or self.spec.time_control

    @property
    def watching(self) -> Supervision:
        """How programs are watched: as given, or as the contest says."""
        return self.supervision or self.spec.supervision

    def jobs(self) -> list[GameJob]:
        """The games to play, in pairs with seats swapped, each pair from one opening.

        :raises ConfigError: for openings a program of this contest cannot start from,
            or a broken openings file.
        """
        schedule = match_schedule(self.games)
        pair_count = schedule[-1].pair + 1
        openings, _ = select_openings(
            self.spec,
            self.agents,
            pair_count,
            plies=self.openings,
            path=self.openings_file,
            seed=self.seed,
        )
        starts = for_pairs(openings, pair_count)
        return [
            GameJob(
                game=self.spec.name,
                agents=(self.agents[p.seats[0]], self.agents[p.seats[1]]),
                time_control=str(self.clock),
                seed=self.seed + p.seed,
                number=p.number,
                options=self.options,
                supervision=self.watching,
                start=starts[p.pair],
            )
            for p in schedule
        ]

    def play(self, events: EventSink = ignore) -> Iterator[PlayedGame]:
        """Plays the match, yielding each game as it ends (in the order they end, with
        ``concurrency`` at once), appending it to ``record`` if given; stops early once
        the SPRT decides. ``events`` hears every move. What can be checked before the
        first game is checked when this is called, not when the first game is asked.

        :raises ConfigError: if the record file cannot be written, for openings that
            cannot be played, or with ``resume``, for a record file that another match
            wrote.
        :raises RecordError: with ``resume``, naming the line of a broken record.
        """
        jobs = self.jobs()
        pairs: dict[int, list[float]] = {}  # the first agent's points in each open pair
        done, state = self._resume(jobs, pairs) if self.resume else (set(), None)
        if state is not None and state.decision is not None:
            return iter(())
        key = None
        if self.record is not None:
            try:
                os.close(open_records(self.record))
            except OSError as e:
                raise ConfigError(
                    f"cannot write records to {self.record!r}: {e.strerror}"
                ) from None
            key = record_key(create=True)
        return self._games([j for j in jobs if j.number not in done], key, events, pairs)

    def _resume(
        self, jobs: list[GameJob], pairs: dict[int, list[float]]
    ) -> tuple[set[int], SprtState | None]:
        """Counts the games ``record`` already holds as played; returns their numbers
        and where the SPRT stands after them.

        :raises ConfigError: for a record that is not a game this match would play
            (another game, other players or seats, another seed, a number past its
            end) or a game recorded twice.
        :raises RecordError: naming the line of a broken record.
        """
        if self.record is None:
            raise ConfigError("resuming a match needs the record file it wrote")
        done: set[int] = set()
        if not os.path.exists(self.record):
            return done, None
        by_number = {job.number: job for job in jobs}
        state = None
        for line, record in read_records(self.record):
            job = by_number.pop(record.round, None) if record.round is not None else None
            expected = None if job is None else (job.agents[0].name, job.agents[1].name)
            if job is None or (record.game, record.players, record.seed) != (
                self.spec.name,
                expected,
                job.seed,
            ):
                raise ConfigError(
                    f"{self.record}:{line}: game {record.round} ({record.game}, "
                    f"{' vs '.join(record.players)}) is not one this match plays, or is "
                    "there twice: resume only the match that wrote the file, with its "
                    "names, seed and number of games or more"
                )
            done.add(job.number)
            state = self._count(job, record, pairs)
        self.resumed = len(done)
        return done, state

    def _first(self, job: GameJob) -> int:
        """The seat the match's first agent has in ``job``."""
        return 0 if job.agents[0] is self.agents[0] else 1

    def _count(
        self, job: GameJob, record: GameRecord, pairs: dict[int, list[float]]
    ) -> SprtState | None:
        """Adds a finished game to the score, the contest's points and, when it
        completes its pair, the pentanomial; returns the SPRT then (None without one,
        or mid-pair)."""
        self.played += 1
        first = self._first(job)
        self.score.add(record.outcome, first=first)
        if record.score is not None:
            for seat, got in enumerate(record.score):
                self.points[seat if first == 0 else 1 - seat] += got
        pairs.setdefault(job.seed, []).append(record.outcome.points(first))
        if len(pairs[job.seed]) < 2:
            return None
        counts = self.pentanomial
        counts[round(2 * sum(pairs.pop(job.seed)))] += 1
        if self.sprt is None:
            return None
        return SprtState(
            self.sprt.llr(counts), self.sprt.bounds, tuple(counts), self.sprt.decision(counts)
        )

    def _games(
        self,
        jobs: list[GameJob],
        key: bytes | None,
        events: EventSink,
        pairs: dict[int, list[float]],
    ) -> Iterator[PlayedGame]:
        for job, record in run_series(jobs, self.concurrency, events):
            if self.record is not None:
                append_record(self.record, record, key)
            state = self._count(job, record, pairs)
            yield PlayedGame(job, record, self._first(job), state)
            if state is not None and state.decision is not None:
                return

    def summary(self) -> list[str]:
        """The closing lines: each agent's record overall and per seat, the Elo
        difference, the reasons games ended, the contest's points where it scores
        otherwise than 1-½-0, and where the SPRT stands (so a stopped or resumed test
        says how far it is from deciding)."""
        lines = self.score.summary(self.spec.seat_names)
        a, b = self.score.names
        if tuple(self.points) != self.score.points:
            lines.append(f"Contest points: {a} {self.points[0]:g} - {self.points[1]:g} {b}")
        c = self.pentanomial
        lines += PairStats((c[0], c[1], c[2], c[3], c[4])).lines(a, b)
        if self.sprt is not None:
            decision = self.sprt.decision(c)
            lines.append(
                f"{self.sprt.standing(c)}, " + (f"accepts {decision}" if decision else "undecided")
            )
        return lines
