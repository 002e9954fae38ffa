"""The tournament commands: ``arbiter tournament``, ``arbiter report`` and ``arbiter
export``. The command line (:mod:`arbiter.cli`) parses; these run."""

from __future__ import annotations

import argparse
import sys
import time
import tomllib
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from arbiter.agents.spec import AgentSpec
from arbiter.clock import TimeControl
from arbiter.contract import OptionValue, Supervision
from arbiter.errors import ConfigError, RecordError
from arbiter.games import find_game, game_names
from arbiter.play.series import DRAIN, GameJob
from arbiter.record import GameRecord, read_lines, record_key
from arbiter.referee.events import EventSink
from arbiter.referee.supervision import describe
from arbiter.tournament.report import as_json, render, standings
from arbiter.tournament.run import Finished, missing, open_tournament, plan_tournament, play
from arbiter.tournament.store import Store, Tournament

DEFAULT_DB = "arbiter.db"


def read_agents(path: str, game: str | None = None) -> list[AgentSpec]:
    """The agents of a TOML file for ``game`` (see :func:`read_agent_entries`): those
    whose entry names that game or none.

    :raises ConfigError: naming the file and the entry, for anything wrong in it.
    """
    return [agent for agent, only in read_agent_entries(path) if only in (None, game)]


def read_agent_entries(path: str) -> list[tuple[AgentSpec, str | None]]:
    """The agents of a TOML file: ``[[agent]]`` tables, each with ``name`` and either
    ``engine`` (a built-in engine with options) or ``command`` (and optionally
    ``dir``, its working directory), and optionally ``game``, the only game it plays;
    each with that game or None.

    :raises ConfigError: naming the file and the entry, for anything else.
    """
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise ConfigError(f"cannot read agents from {path!r}: {e.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path!r} is not a TOML file of agents: {e}") from None
    entries = data.get("agent")
    if not isinstance(entries, list) or not entries:
        raise ConfigError(f"{path!r} lists no [[agent]] entries")
    agents: list[tuple[AgentSpec, str | None]] = []
    for number, entry in enumerate(entries, 1):
        where = f"{path!r} agent {number}"
        if not isinstance(entry, dict):
            raise ConfigError(f"{where}: expected a table")
        unknown = set(entry) - {"name", "engine", "command", "dir", "game"}
        if unknown:
            raise ConfigError(f"{where}: unknown key {sorted(unknown)[0]!r}")
        name, engine, command = entry.get("name"), entry.get("engine"), entry.get("command")
        if not isinstance(name, str) or not name:
            raise ConfigError(f"{where}: needs a name")
        if (engine is None) == (command is None):
            raise ConfigError(f"{where} ({name!r}): give either engine or command")
        text = engine if engine is not None else command
        if not isinstance(text, str):
            raise ConfigError(f"{where} ({name!r}): engine and command are text")
        cwd = entry.get("dir")
        if cwd is not None and not (isinstance(cwd, str) and Path(cwd).is_dir()):
            raise ConfigError(f"{where} ({name!r}): no directory {cwd!r}")
        only = entry.get("game")
        if only is not None and only not in game_names():
            known = ", ".join(game_names())
            raise ConfigError(f"{where} ({name!r}): unknown game {only!r} (games: {known})")
        agent = AgentSpec.parse(text, name=name, cwd=cwd)
        if engine is not None and agent.engine is None:
            raise ConfigError(f"{where} ({name!r}): {engine!r} is not a built-in engine")
        for earlier, (other, its_game) in enumerate(agents, 1):
            same_games = only is None or its_game is None or only == its_game
            if other.name == name and same_games:
                raise ConfigError(
                    f"{where}: the name {name!r} is agent {earlier}'s too: "
                    "every agent needs a name of its own"
                )
        agents.append((agent, only))
    return agents


def _agents(args: argparse.Namespace) -> list[AgentSpec]:
    """The tournament's agents: those given one by one, then those of its agents file.

    :raises ConfigError: for an agent or a file that cannot be read.
    """
    agents = [AgentSpec.parse(text).with_options(depth=args.depth) for text in args.agent]
    if args.agents:
        agents += [a.with_options(depth=args.depth) for a in read_agents(args.agents, args.game)]
    return agents


def cmd_tournament(
    args: argparse.Namespace,
    time_control: TimeControl,
    options: dict[str, OptionValue],
    supervision: Supervision,
) -> int:
    """Plays the tournament the command line asks for into its database (resuming it),
    following its games and standings on the console; returns the exit status."""
    spec = find_game(args.game)
    plan = plan_tournament(
        spec,
        _agents(args),
        name=args.name,
        form=args.format,
        rounds=args.rounds,
        time_control=time_control,
        options=options,
        supervision=supervision,
        seed=args.seed,
        opening_plies=args.openings,
        openings_file=args.openings_file,
        default_openings=not args.no_openings,
    )
    plan_agents, source = plan.agents, plan.opening_source
    key = record_key(create=True)
    with Store(args.db) as store:
        tournament = open_tournament(store, plan)
        games = plan.games()
        todo = missing(store, tournament, games)
        total = len(games)
        done = total - len(todo)
        console = Console()
        console.print(
            f"{spec.title}: tournament {plan.name!r} in {args.db}, {len(plan_agents)} agents, "
            f"{args.format}, {total} games ({done} already played), clock {time_control}, "
            f"openings: {source}",
            highlight=False,
            soft_wrap=True,
        )
        if any(agent.program is not None for agent in plan_agents):
            console.print(describe(supervision), highlight=False)
        every = max(5, total // 10)

        def table() -> None:
            stored = list(store.games(tournament.id))
            render(standings(plan.name, spec.name, tournament.agents, stored), console)

        seal: Callable[[GameRecord], str] = lambda r: r.to_json(key)  # noqa: E731
        series = None
        if args.backend == "ray":
            from arbiter.tournament.ray_backend import run_series_ray

            def series(
                jobs: Sequence[GameJob], k: int, events: EventSink
            ) -> Iterator[tuple[GameJob, GameRecord]]:
                return run_series_ray(jobs, k, events, args.address)

        finished = play(
            store, tournament, todo, concurrency=args.concurrency, seal=seal, series=series
        )
        try:
            with DRAIN.on_interrupt(lambda text: console.print(text, highlight=False)):
                _follow(finished, console, tournament, done, total, every, table)
        except KeyboardInterrupt:
            console.print(
                "interrupted: the games finished so far are stored; run it again to go on"
            )
            table()
            return 130
        if DRAIN.requested and len(missing(store, tournament, games)):
            console.print(
                "stopped after the games under way: they are stored; run it again to go on"
            )
            table()
            return 130
        table()
    return 0


def _follow(
    finished: Iterable[Finished],
    console: Console,
    tournament: Tournament,
    done: int,
    total: int,
    every: int,
    table: Callable[[], None],
) -> None:
    """Reports each game as it is stored: a progress bar on a terminal, plain lines
    otherwise; the standings every ``every`` games."""
    names = tournament.agents

    def line(f: Finished) -> str:
        a, b = (names[i] for i in f.pairing.seats)
        r = f.record
        return (
            f"game {f.pairing.number}/{total}: {a} vs {b}: {r.outcome.result()} by {r.reason}, "
            f"{len(r.moves)} plies"
        )

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeRemainingColumn(),
    )
    terminal = console.is_terminal  # else no bar: the count and rate go on each line
    with Progress(*columns, console=console, disable=not terminal) as progress:
        task = progress.add_task("games", total=total, completed=done, rate="")
        started = time.monotonic()
        for count, f in enumerate(finished, 1):
            rate = count / max(time.monotonic() - started, 1e-9) * 3600
            progress.update(task, advance=1, rate=f"{rate:.0f} games/h")
            tail = "" if terminal else f" ({done + count}/{total}, {rate:.0f} games/h)"
            console.print(line(f) + tail, highlight=False, soft_wrap=True)
            if count % every == 0:
                table()


def _tournament_of(store: Store, name: str | None) -> Tournament:
    found = store.tournaments()
    if not found:
        raise ConfigError(f"{store.path!r} holds no tournaments")
    if name is None:
        if len(found) > 1:
            names = ", ".join(t.name for t in found)
            raise ConfigError(
                f"{store.path!r} holds several tournaments ({names}): use --tournament"
            )
        return found[0]
    for t in found:
        if t.name == name:
            return t
    raise ConfigError(f"no tournament {name!r} in {store.path!r}")


def _existing_db(path: str) -> str:
    """``path``, a file.

    :raises ConfigError: if there is nothing there, or a directory.
    """
    if Path(path).is_dir():
        raise ConfigError(f"{path!r} is a directory, not a results database")
    if not Path(path).is_file():
        raise ConfigError(f"no database {path!r}")
    return path


def cmd_report(args: argparse.Namespace) -> int:
    with Store(_existing_db(args.db)) as store:
        t = _tournament_of(store, args.tournament)
        table = standings(t.name, t.game, t.agents, list(store.games(t.id)))
        damage = store.damage_note()
    if args.json:
        print(as_json(table))
    else:
        render(table)
    return _warn(damage)


def _warn(damage: str | None) -> int:
    """Says what a damaged database could not give; the exit status (1 if anything)."""
    if damage is None:
        return 0
    print(f"warning: {damage}", file=sys.stderr)
    return 1


def cmd_export(args: argparse.Namespace) -> int:
    """Writes a database's games (or a record file's) as records, PDN or tagged text.

    :raises ConfigError: for a missing input, an output that cannot be written, or
        ``--format pdn`` asked of a game other than checkers.
    """
    from arbiter.play.portable import write_game

    fmt = args.format
    damage: str | None = None
    if args.output:
        _refuse_overwriting(args.output, args.db)
    if args.db.endswith(".jsonl"):
        records = _record_file(args.db)
    else:
        with Store(_existing_db(args.db)) as store:
            tournaments = (
                [_tournament_of(store, args.tournament)] if args.tournament else store.tournaments()
            )
            records = [g.record for t in tournaments for g in store.games(t.id)]
            damage = store.damage_note()
    if fmt == "pdn" and (others := sorted({r.game for r in records} - {"checkers"})):
        raise ConfigError(
            f"PDN is for checkers and {args.db!r} holds {', '.join(others)} games: "
            "--format pgn writes them as tagged text"
        )
    try:
        out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout  # noqa: SIM115
    except OSError as e:
        raise ConfigError(f"cannot write {args.output!r}: {e.strerror}") from None
    try:
        for record in records:
            # a record keeps its seal, if it has one
            out.write(record.to_json() + "\n" if fmt == "jsonl" else write_game(record))
    finally:
        if out is not sys.stdout:
            out.close()
    if args.output:
        print(f"{len(records)} games written to {args.output}", file=sys.stderr)
    return _warn(damage)


SQLITE_HEADER = b"SQLite format 3\x00"


def is_database(path: str) -> bool:
    """Whether ``path`` is a SQLite file (by its first bytes; False if unreadable)."""
    try:
        with open(path, "rb") as f:
            return f.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


def _refuse_overwriting(output: str, source: str) -> None:
    """Refuses an export that would write over what it reads, or over any database.

    :raises ConfigError: if ``output`` is ``source`` (by any name) or a SQLite file.
    """
    target = Path(output)
    if not target.exists():
        return
    if target.is_file() and Path(source).exists() and target.samefile(source):
        raise ConfigError(f"-o {output!r} is the file being exported: give another file")
    if is_database(output):
        raise ConfigError(f"-o {output!r} is a database: an export never writes over one")


def _record_file(path: str) -> list[GameRecord]:
    """The records of a JSON-lines file.

    :raises ConfigError: if it is missing or a line is not a record.
    """
    if not Path(path).is_file():
        raise ConfigError(f"no record file {path!r}")
    records = []
    for _, record in read_lines(path):
        if isinstance(record, RecordError):
            raise ConfigError(str(record))  # it names the file and line
        records.append(record)
    if not records:
        raise ConfigError(f"{path!r} holds no game records")
    return records
