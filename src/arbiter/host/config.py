"""A contest's file (``CONTEST.toml``): the game, its clock, the format, the languages
and the limits, read once when ``arbiter host`` starts.

Every setting has the value a contest of that game would expect (the sheet's clock,
open registration, a Swiss of five rounds, the five languages the host can build),
so the smallest file is one line, ``game = "alquerque"``. A setting the file gets
wrong is refused with one line naming the setting and what was expected.

Example::

    name = "Alquerque Cup"
    game = "alquerque"
    description_file = "about.md" # or description = "Markdown text"
    opens = 2026-12-01T12:00:00+01:00   # uploads taken from here ...
    closes = 2027-01-10T18:00:00+01:00  # ... until here, then the final
    clock = "30"                  # the sheet's clock when left out
    registration = "invite"       # or "open"
    rank_by = "contest"           # or "points" (1, ½, 0) or "rating"
    database = "postgresql+psycopg://cup@localhost/cup"   # default: SQLite beside this file

    [format]
    kind = "swiss"                # "round-robin", "swiss" or "ladder"
    rounds = 5

    [schedule]
    every = "6h"                  # a test round by itself every 6 hours
    first = 2026-12-01T18:00:00Z  # the first of them (default: once two have entered)

    [final]                       # after closes: Swiss rounds, then the top group's
    rounds = 7                    # double round robin, versions frozen at closes
    top = 4

    [candidates]                  # a version tested before it counts
    games_per_opponent = 2
    previous_pairs = 20           # pairs against the owner's current version, SPRT
    sprt = "0,50"                 # wide enough to decide within a contest's budget

    [limits]
    upload_kb = 512
    compile_seconds = 60

    [languages.go]                # the organiser's own language, or a change to one
    title = "Go"
    suffixes = [".go"]
    compile = "go build -o player ."
    run = "./player"
    expose = ["/usr/local/go"]
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from arbiter.clock import TimeControl
from arbiter.contract import Supervision
from arbiter.errors import ConfigError
from arbiter.games import find_game, game_names
from arbiter.host.calendar import Calendar, Final, parse_duration, parse_time
from arbiter.host.languages import LANGUAGES, Language
from arbiter.tournament.sprt import Sprt

FORMATS = ("round-robin", "swiss", "ladder")
"""How a contest's rounds are paired: everyone against everyone, Swiss (players of like
score meet, no pair twice), or a ladder (each new version plays placement games against
the entries rated nearest it)."""

REGISTRATION = ("open", "invite")

RANKINGS = ("contest", "points", "rating")
"""How the standings are sorted: by contest points (CodeCup's ranking), by game points
(a win 1, a draw ½), or by rating; ties by fewer irregular losses, then rating."""


@dataclass(frozen=True, slots=True)
class Limits:
    """What a contestant's upload, build and program may take. ``build_mb`` and
    ``build_files`` cap what a build leaves (every worker fetches it: a 200-byte
    source can assemble a 400 MB binary), ``compile_disk_mb`` what it may write on
    the way."""

    upload_kb: int = 1024
    archive_files: int = 200
    unpacked_kb: int = 16384
    compile_seconds: float = 60.0
    compile_memory_mb: int = 2048
    memory_mb: int = 1024
    versions_per_hour: int = 20
    disk_mb: int = 256
    compile_disk_mb: int = 1024
    build_mb: int = 64
    build_files: int = 2000


@dataclass(frozen=True, slots=True)
class Format:
    """The rounds: ``kind`` (:data:`FORMATS`), how many Swiss rounds, games per pairing
    (both colours each), and placement games a new version plays on a ladder."""

    kind: str = "swiss"
    rounds: int = 5
    games_per_pair: int = 2
    placement_games: int = 6


@dataclass(frozen=True, slots=True)
class Candidates:
    """How a candidate version is tested before it counts: ``games_per_opponent``
    against each entrant's current version (both colours), and up to
    ``previous_pairs`` pairs against its owner's own current version under the
    sequential test ``sprt`` (``elo0,elo1[,alpha,beta]``), stopped once it decides.
    The bounds are wider than fishtest's (0,5 needs thousands of games): within a
    contest's budget of pairs a clear change decides, a close one ends undecided."""

    games_per_opponent: int = 2
    previous_pairs: int = 20
    sprt: str = "0,50"


@dataclass(frozen=True, slots=True)
class PlayLimits:
    """Games people play against entrants on the site (``[play]``): at most
    ``per_person`` in progress per person, and no more at once in all than the
    entrants' programs fit in ``memory_mb`` (each counted at the contest's
    ``[limits] memory_mb``). 0 ``per_person`` turns such games off."""

    per_person: int = 2
    memory_mb: int = 8192


@dataclass(frozen=True, slots=True)
class ContestConfig:
    """A contest as its file says, defaults filled in. ``folder`` holds the sources,
    builds and transcripts; ``database`` is an SQLAlchemy URL. A game is settled
    unplayed once ``max_failures`` different workers reported they could not play it,
    or its lease ran out ``max_attempts`` times (:mod:`arbiter.host.settle`); a worker
    that fails ``pause_after`` games in a row is paused until the organiser resumes
    it. ``play`` limits people's games against entrants. ``check_clock``
    is the clock of the conformance gate's checks (``None``: the contest's own
    ``clock``); ``rank_by`` the standings' order (:data:`RANKINGS`); ``description``
    the contest page's Markdown; ``calendar`` when uploads are taken, the schedule of
    test rounds and the final."""

    name: str
    game: str
    clock: str
    database: str
    folder: Path
    registration: str = "open"
    format: Format = field(default_factory=Format)
    limits: Limits = field(default_factory=Limits)
    languages: dict[str, Language] = field(default_factory=lambda: dict(LANGUAGES))
    lease_seconds: float = 60.0
    local_workers: int = 2
    max_failures: int = 3
    max_attempts: int = 5
    pause_after: int = 10
    play: PlayLimits = field(default_factory=lambda: PlayLimits())
    check_clock: str | None = None
    rank_by: str = "contest"
    description: str = ""
    calendar: Calendar = field(default_factory=Calendar)
    candidates: Candidates = field(default_factory=Candidates)

    @property
    def time_control(self) -> TimeControl:
        return TimeControl.parse(self.clock)

    @property
    def gate_clock(self) -> str:
        """The clock the conformance gate plays its checks on: ``check_clock``, else the
        contest's own, so a program is gated at the pace it will play."""
        return self.check_clock or self.clock


def contest_supervision(
    game: str, memory_mb: float, isolation: str = "auto", disk_mb: float = 256
) -> Supervision:
    """How a contest watches its programs, in the gate and in every game: the game's
    own rulings with the contest's memory and disk limits, and no network (a
    contestant's program reaches nothing of the server's, nor anything else)."""
    return replace(
        find_game(game).supervision,
        memory_limit_mb=float(memory_mb),
        disk_limit_mb=float(disk_mb),
        network=False,
        isolation=isolation,
    )


def load(path: str | Path) -> ContestConfig:
    """Reads a contest file.

    :raises ConfigError: naming the file and the setting, for a file that cannot be
        read, is not TOML, or holds a setting that is unknown or of the wrong kind.
    """
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise ConfigError(f"cannot read contest file {str(path)!r}: {e.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ConfigError(f"contest file {str(path)!r} is not TOML: {e}") from None
    return from_dict(data, base=path.resolve().parent, stem=path.stem, where=str(path))


def from_dict(data: dict[str, Any], *, base: Path, stem: str, where: str) -> ContestConfig:
    """A contest from the parsed TOML ``data``; paths in it are relative to ``base``.

    :raises ConfigError: naming ``where`` and the setting at fault.
    """
    top = _Table(data, where)
    game = top.text("game", None)
    if game not in game_names():
        raise ConfigError(f"{where}: game must be one of {', '.join(game_names())}, not {game!r}")
    spec = find_game(game)
    clock = top.text("clock", str(spec.time_control))
    try:
        TimeControl.parse(clock)
    except ConfigError as e:
        raise ConfigError(f"{where}: clock: {e}") from None
    check_clock = top.text("check_clock", "") or None
    folder = base / top.text("folder", f"{stem}-data")
    database = top.text("database", f"sqlite:///{base / (stem + '.db')}")
    registration = top.choice("registration", REGISTRATION, "open")
    rank_by = top.choice("rank_by", RANKINGS, "contest")
    description = _description(top, base, where)
    calendar = _calendar(top, where)
    form = _format(top, where)
    limits = _limits(top, where)
    candidates = _candidates(top, where)
    local, lease, max_failures, max_attempts, pause_after = _workers(top, where)
    play = _play(top, where)
    languages = dict(LANGUAGES)
    for key, value in top.table("languages").items():
        languages[key] = _language(key, value, languages.get(key), f"{where} [languages.{key}]")
    config = ContestConfig(
        name=top.text("name", spec.title),
        game=game,
        clock=clock,
        database=database,
        folder=folder,
        registration=registration,
        rank_by=rank_by,
        format=form,
        limits=limits,
        languages=languages,
        lease_seconds=lease,
        local_workers=local,
        max_failures=max_failures,
        max_attempts=max_attempts,
        pause_after=pause_after,
        play=play,
        check_clock=check_clock,
        description=description,
        calendar=calendar,
        candidates=candidates,
    )
    top.done()
    return config


def _format(top: _Table, where: str) -> Format:
    """``[format]``: how the test rounds are paired."""
    fmt = _Table(top.table("format"), f"{where} [format]")
    kind = fmt.choice("kind", FORMATS, "swiss")
    form = Format(
        kind,
        fmt.number("rounds", 5, 1, 1000),
        fmt.number("games_per_pair", 2, 2, 100, even=True),
        fmt.number("placement_games", 6, 2, 100, even=True),
    )
    fmt.done()
    return form


def _limits(top: _Table, where: str) -> Limits:
    """``[limits]``: what an upload, a build and a program may take."""
    lim = _Table(top.table("limits"), f"{where} [limits]")
    limits = Limits(
        lim.number("upload_kb", 1024, 1, 1 << 20),
        lim.number("archive_files", 200, 1, 100_000),
        lim.number("unpacked_kb", 16384, 1, 1 << 22),
        float(lim.number("compile_seconds", 60, 1, 3600)),
        lim.number("compile_memory_mb", 2048, 64, 1 << 16),
        lim.number("memory_mb", 1024, 16, 1 << 16),
        lim.number("versions_per_hour", 20, 1, 10_000),
        lim.number("disk_mb", 256, 1, 1 << 20),
        lim.number("compile_disk_mb", 1024, 1, 1 << 20),
        lim.number("build_mb", 64, 1, 1 << 16),
        lim.number("build_files", 2000, 1, 1_000_000),
    )
    lim.done()
    return limits


def _candidates(top: _Table, where: str) -> Candidates:
    """``[candidates]``: how a candidate version is tested against the field."""
    cand = _Table(top.table("candidates"), f"{where} [candidates]")
    candidates = Candidates(
        cand.number("games_per_opponent", 2, 2, 100, even=True),
        cand.number("previous_pairs", 20, 0, 500),
        cand.text("sprt", "0,50"),
    )
    cand.done()
    try:
        Sprt.parse(candidates.sprt)
    except ConfigError as e:
        raise ConfigError(f"{where} [candidates]: sprt: {e}") from None
    return candidates


def _workers(top: _Table, where: str) -> tuple[int, float, int, int, int]:
    """``[workers]``: the local workers, the lease, and when a game or a worker is
    given up on (failures, attempts, failures in a row)."""
    work = _Table(top.table("workers"), f"{where} [workers]")
    local = work.number("local", 2, 0, 256)
    lease = float(work.number("lease_seconds", 60, 5, 3600))
    max_failures = work.number("max_failures", 3, 1, 100)
    max_attempts = work.number("max_attempts", 5, 1, 100)
    pause_after = work.number("pause_after", 10, 1, 10_000)
    work.done()
    return local, lease, max_failures, max_attempts, pause_after


def _play(top: _Table, where: str) -> PlayLimits:
    """``[play]``: the games people play against entrants."""
    plays = _Table(top.table("play"), f"{where} [play]")
    play = PlayLimits(
        plays.number("per_person", 2, 0, 100),
        plays.number("memory_mb", 8192, 0, 1 << 22),
    )
    plays.done()
    return play


def _description(top: _Table, base: Path, where: str) -> str:
    """The contest page's Markdown: ``description``, or the file ``description_file``
    names (relative to the contest file)."""
    text = top.text("description", "")
    name = top.text("description_file", "")
    if text and name:
        raise ConfigError(f"{where}: give description or description_file, not both")
    if not name:
        return text
    try:
        return (base / name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        why = e.strerror if isinstance(e, OSError) else "not UTF-8 text"
        raise ConfigError(f"{where}: description_file {name!r}: {why}") from None


def _calendar(top: _Table, where: str) -> Calendar:
    """``opens``, ``closes``, ``[schedule]`` and ``[final]``."""
    times = {}
    for key in ("opens", "closes"):
        value = top.raw(key)
        try:
            times[key] = None if value is None else parse_time(value)
        except ConfigError as e:
            raise ConfigError(f"{where}: {key}: {e}") from None
    opens, closes = times["opens"], times["closes"]
    if opens is not None and closes is not None and closes <= opens:
        raise ConfigError(f"{where}: closes must come after opens")
    schedule = _Table(top.table("schedule"), f"{where} [schedule]")
    every_text = schedule.text("every", "")
    first_value = schedule.raw("first")
    schedule.done()
    try:
        every = parse_duration(every_text) if every_text else None
    except ConfigError as e:
        raise ConfigError(f"{where} [schedule]: every: {e}") from None
    try:
        first = None if first_value is None else parse_time(first_value)
    except ConfigError as e:
        raise ConfigError(f"{where} [schedule]: first: {e}") from None
    if first is not None and every is None:
        raise ConfigError(f"{where} [schedule]: first needs every (how often rounds follow it)")
    final = None
    if "final" in top.data:
        fin = _Table(top.table("final"), f"{where} [final]")
        final = Final(
            fin.number("rounds", 5, 0, 1000),
            fin.number("top", 0, 0, 1000),
            fin.number("games_per_pair", 2, 2, 100, even=True),
        )
        fin.done()
        if final.top == 1:
            raise ConfigError(f"{where} [final]: top must be 0 (no round robin) or at least 2")
        if final.rounds == 0 and final.top == 0:
            raise ConfigError(f"{where} [final]: a final needs Swiss rounds or a top group")
    return Calendar(opens, closes, every, final, first)


def _language(key: str, value: Any, old: Language | None, where: str) -> Language:
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: must be a table")
    t = _Table(value, where)
    base = old or Language(key, key, (), None, "")
    suffixes = t.strings("suffixes", list(base.suffixes))
    language = Language(
        key,
        t.text("title", base.title),
        tuple(suffixes),
        t.text("compile", base.compile or "") or None,
        t.text("run", base.run or "") or "",
        tuple(t.strings("expose", list(base.expose))),
        t.text("main", base.main),
    )
    t.done()
    if not language.run:
        raise ConfigError(f"{where}: run must name the command that starts a program")
    if not language.suffixes:
        raise ConfigError(f"{where}: suffixes must name at least one file ending")
    return language


class _Table:
    """Reads one TOML table, remembering which keys were used so that an unknown one
    (a typo) is named instead of silently ignored."""

    def __init__(self, data: dict[str, Any], where: str) -> None:
        self.data = data
        self.where = where
        self.used: set[str] = set()

    def text(self, key: str, default: str | None) -> str:
        self.used.add(key)
        value = self.data.get(key, default)
        if not isinstance(value, str):
            want = "is required" if value is None else "must be a string"
            raise ConfigError(f"{self.where}: {key} {want}")
        return value

    def raw(self, key: str) -> Any:
        """The value as TOML gave it (``None`` when absent), for the caller to check."""
        self.used.add(key)
        return self.data.get(key)

    def strings(self, key: str, default: list[str]) -> list[str]:
        self.used.add(key)
        value = self.data.get(key, default)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{self.where}: {key} must be a list of strings")
        return value

    def choice(self, key: str, options: tuple[str, ...], default: str) -> str:
        value = self.text(key, default)
        if value not in options:
            raise ConfigError(
                f"{self.where}: {key} must be one of {', '.join(options)}, not {value!r}"
            )
        return value

    def number(self, key: str, default: int, low: int, high: int, *, even: bool = False) -> int:
        self.used.add(key)
        value = self.data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ConfigError(f"{self.where}: {key} must be a whole number from {low} to {high}")
        if even and value % 2:
            raise ConfigError(f"{self.where}: {key} must be even (each pairing plays both colours)")
        return value

    def table(self, key: str) -> dict[str, Any]:
        self.used.add(key)
        value = self.data.get(key, {})
        if not isinstance(value, dict):
            raise ConfigError(f"{self.where}: [{key}] must be a table")
        return value

    def done(self) -> None:
        unknown = sorted(set(self.data) - self.used)
        if unknown:
            raise ConfigError(f"{self.where}: unknown setting {unknown[0]!r}")
