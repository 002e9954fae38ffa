"""The ``arbiter`` commands: each turns its parsed arguments into the library's typed
values, calls the library, and prints. Imports are made inside the commands so that
``arbiter agent`` starts quickly: its start-up CPU time counts against its first move."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arbiter import core
from arbiter.cli.options import (
    MAX_GAMES,
    _engine,
    _rule_options,
    _supervision,
    _time_control,
)
from arbiter.errors import ConfigError, NotationError

if TYPE_CHECKING:
    from collections.abc import Iterable

    from arbiter.contract import GameSpec
    from arbiter.tournament.match import Match, PlayedGame
    from arbiter.tournament.sprt import Sprt


def _cmd_match(args: argparse.Namespace) -> int:
    from arbiter.games import find_game
    from arbiter.referee.events import Event, GameStarted, MovePlayed, ignore
    from arbiter.referee.file_seat import runs_once_per_move
    from arbiter.tournament.match import Match
    from arbiter.tournament.sprt import Sprt

    spec = find_game(args.game)
    sprt = Sprt.parse(args.sprt) if args.sprt else None
    total = args.games or (MAX_GAMES if sprt else 2)
    match = Match.between(
        spec.name,
        args.first,
        args.second,
        names=args.names,
        dirs=args.dirs or (None, None),
        depth=args.depth,
        games=total,
        time_control=_time_control(args, spec.time_control),
        options=_rule_options(args, spec),
        supervision=_supervision(args, spec),
        seed=args.seed,
        openings=args.openings,
        openings_file=args.openings_file,
        concurrency=args.concurrency,
        sprt=sprt,
        record=args.record,
        resume=args.resume,
    )

    def show(event: Event) -> None:
        if isinstance(event, GameStarted):
            print(f"game {event.game}: {' vs '.join(event.players)}", flush=True)
        elif isinstance(event, MovePlayed):
            side = spec.seat_names[event.seat]
            print(
                f"  game {event.game} {event.ply:4d}. {side:6s} {event.shown():>8s}  "
                f"{event.seconds:6.2f}s" + (f"  {event.note}" if event.note else ""),
                flush=True,
            )

    played = match.play(show if args.verbose else ignore)
    tc, supervision, labels = match.clock, match.watching, match.score.names
    contest = " (the contest's)" if tc == spec.time_control else ""
    waiting = (
        "programs run once per move"
        if runs_once_per_move(spec)
        else f"waiting program {'suspended' if supervision.suspend else 'running'}"
    )
    games = f"{total} game" + ("s" if total != 1 else "")
    print(
        f"{spec.title}: {labels[0]} vs {labels[1]}, {games}, time control {tc}: "
        f"{tc.describe()}{contest}, charged as {supervision.charging} time, {waiting}",
        flush=True,
    )
    if any(agent.program is not None for agent in match.agents):
        print(describe_walls(supervision), flush=True)
    if match.resumed:
        pa, pb = match.score.points
        print(
            f"resumed: {match.resumed} games already in {args.record}, score {labels[0]} "
            f"{pa:g} - {pb:g} {labels[1]}, pairs {'-'.join(map(str, match.pentanomial))}",
            flush=True,
        )

    from arbiter.play.series import DRAIN

    t0 = time.monotonic()
    try:
        with DRAIN.on_interrupt(lambda text: print(f"\n{text}", flush=True)):
            games_played = _follow_match(played, match, spec, sprt, labels, total, t0)
    except KeyboardInterrupt:
        print(f"\ninterrupted after {match.played} of {total} games", flush=True)
        print("\n".join(match.summary()))
        return 130
    print()
    if DRAIN.requested and games_played < total:
        print(f"stopped after the games under way: {match.played} of {total} games", flush=True)
        print("\n".join(match.summary()))
        return 130
    print("\n".join(match.summary()))
    return 0


def _follow_match(
    played: Iterable[PlayedGame],
    match: Match,
    spec: GameSpec[Any, Any],
    sprt: Sprt | None,
    labels: tuple[str, str],
    total: int,
    t0: float,
) -> int:
    """Prints each game of a match as it ends (and the SPRT's state); returns how many."""
    count = 0
    for game in played:
        count += 1
        job, record, out = game.job, game.record, game.record.outcome
        players = (job.agents[0].name, job.agents[1].name)
        who = "draw" if out.winner is None else f"{players[out.winner]} wins"
        detail = f" ({out.detail})" if out.reason.is_fault and out.detail else ""
        pa, pb = match.score.points
        print(
            f"game {job.number}/{total}: {players[0]} ({spec.seat_names[0]}) vs "
            f"{players[1]} ({spec.seat_names[1]}): {out.result()} {who} by "
            f"{out.reason}{detail}, {len(record.moves)} plies | after "
            f"{time.monotonic() - t0:.1f}s score {labels[0]} {pa:g} - {pb:g} {labels[1]}",
            flush=True,
        )
        if game.sprt is not None and sprt is not None:
            counts = game.sprt.counts
            print(f"{sprt.standing(counts)}, pairs {'-'.join(map(str, counts))}", flush=True)
            if game.sprt.decision is not None:
                decision = game.sprt.decision
                elo = sprt.elo1 if decision == "H1" else sprt.elo0
                side = "at least" if decision == "H1" else "at most"
                print(
                    f"SPRT accepts {decision}: {labels[0]} is {side} {elo:g} Elo "
                    f"stronger than {labels[1]} (after {match.played} games)",
                    flush=True,
                )
    return count


# -- agent, play, perft, replay ---------------------------------------------------------


def _cmd_agent(args: argparse.Namespace) -> int:
    from arbiter.agents.registry import make_agent
    from arbiter.clock import TimeControl
    from arbiter.contract import AgentRun
    from arbiter.games import find_game

    spec = find_game(args.game)
    game = spec.make(_rule_options(args, spec))
    agent = make_agent(spec, _engine(args.engine, args.depth))
    reply_filter = None
    faulty = None
    if args.fault is not None:
        from arbiter.agents.faults import Fault
        from arbiter.agents.faulty import FaultyAgent

        faulty = FaultyAgent(agent, spec, Fault(args.fault), ply=args.fault_ply, tag=args.fault_tag)
        agent, reply_filter = faulty, faulty.reply_filter
    default = spec.time_control
    if default.per_move is not None:
        default = TimeControl.per_move_seconds(1.0)
    run = AgentRun(
        _time_control(args, default),
        sys.stdin,
        sys.stdout,
        sys.stderr,
        seed=args.seed,
        verbose=args.verbose,
        reply_filter=reply_filter,
    )
    status = spec.serve(agent, game, args.args, run)
    if faulty is not None:
        faulty.after_game()
    return status


def _cmd_play(args: argparse.Namespace) -> int:
    import asyncio

    from arbiter.agents.registry import make_agent
    from arbiter.clock import Limit, TimeControl
    from arbiter.contract import Seat
    from arbiter.games import find_game
    from arbiter.referee.human import HELP, HumanSeat, terminal_events
    from arbiter.referee.match import play_game
    from arbiter.referee.seat import LocalSeat

    spec = find_game(args.game)
    human = spec.seat_by_name(args.side or spec.seat_names[0])
    options = _rule_options(args, spec)
    game = spec.make(options)
    engine = _engine(args.engine, args.depth)
    limit = None if args.tc else Limit(time=args.move_time or 1.0)
    tc = TimeControl.parse(args.tc) if args.tc else TimeControl()
    computer: Seat[Any, Any] = LocalSeat(
        make_agent(spec, engine),
        game,
        spec.contest,
        name=engine.name,
        seed=args.seed,
        limit=limit,
    )
    person: Seat[Any, Any] = HumanSeat(spec, game)
    seats = [person, computer] if human == 0 else [computer, person]
    print(
        f"{spec.title}: you play {spec.seat_names[human]}, {engine.name} plays "
        f"{spec.seat_names[1 - human]}."
    )
    print(HELP)
    asyncio.run(
        play_game(
            spec,
            game,
            seats,
            tc,
            seed=args.seed,
            options=options,
            events=terminal_events(spec, human),
            takebacks=True,
        )
    )
    return 0


def _cmd_perft(args: argparse.Namespace) -> int:
    from arbiter.games import find_game
    from arbiter.perft import divide, perft

    spec = find_game(args.game)
    game = spec.make()
    s = game.initial() if args.position is None else spec.notation.parse_position(args.position)
    if args.divide:
        total = 0
        p = game.to_move(s)
        for m, nodes in divide(game, s, args.depth):
            print(f"{spec.contest.move_text(game, s, m, seat=p)} {nodes}")
            total += nodes
        print(f"total {total}")
        return 0
    print("depth nodes seconds nodes/s", flush=True)
    for depth in range(1, args.depth + 1):
        t0 = time.perf_counter()
        nodes = perft(game, s, depth)
        dt = time.perf_counter() - t0
        print(f"{depth} {nodes} {dt:.3f}s {nodes / dt if dt > 0 else 0:.0f} nodes/s", flush=True)
    return 0


def _cmd_tournament(args: argparse.Namespace) -> int:
    from arbiter.cli.tournament import cmd_tournament
    from arbiter.games import find_game

    spec = find_game(args.game)
    tc = _time_control(args, spec.time_control)
    return cmd_tournament(args, tc, _rule_options(args, spec), _supervision(args, spec))


def _cmd_report(args: argparse.Namespace) -> int:
    from arbiter.cli.tournament import cmd_report

    return cmd_report(args)


def _cmd_export(args: argparse.Namespace) -> int:
    from arbiter.cli.tournament import cmd_export

    return cmd_export(args)


def _cmd_check_agent(args: argparse.Namespace) -> int:
    from arbiter.agents.spec import AgentSpec
    from arbiter.games import find_game
    from arbiter.play.checkagent import check_agent

    spec = find_game(args.game)
    AgentSpec.parse(args.program).check()
    clock = str(_time_control(args, spec.time_control))
    supervision = _supervision(args, spec)
    print(f"{spec.title}: checking {args.program!r} through the contest's protocol", flush=True)
    print(describe_walls(supervision), flush=True)
    with CheckPrinter() as printer:
        results = check_agent(
            spec,
            args.program,
            clock,
            supervision=supervision,
            progress=printer,
            burn=not args.no_burners,
        )
    failed = sum(not r.passed for r in results)
    print(f"{failed} of the checks failed" if failed else "all checks passed")
    return 1 if failed else 0


class CheckPrinter:
    """Prints each check of ``check-agent`` as it starts and ends, and, while checks
    run, the ply each has reached every :attr:`EVERY` seconds of silence (a whole game
    on a contest's clock can take minutes)."""

    EVERY = 15.0

    def __init__(self) -> None:
        import threading

        self._lock = threading.Lock()
        self._plies: dict[str, int] = {}
        self._said = time.monotonic()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, daemon=True)

    def __enter__(self) -> CheckPrinter:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _say(self, text: str) -> None:
        with self._lock:
            print(text, flush=True)
            self._said = time.monotonic()

    def _beat(self) -> None:
        while not self._stop.wait(1.0):
            with self._lock:
                quiet = time.monotonic() - self._said >= self.EVERY
                under_way = ", ".join(f"{name} at ply {n}" for name, n in self._plies.items())
            if quiet and under_way:
                self._say(f"      under way: {under_way}")

    def started(self, check: Any) -> None:
        self._plies[check.name] = 0
        self._say(f"...   {check.name}: {check.about}")

    def moved(self, check: Any, ply: int) -> None:
        self._plies[check.name] = ply

    def finished(self, result: Any) -> None:
        self._plies.pop(result.check.name, None)
        mark = "pass" if result.passed else "FAIL"
        lines = [f"{mark}  {result.check.name}: {result.check.about}: {result.verdict}"]
        if (met := result.situations()) is not None:
            lines.append(f"      {met}")
        if not result.passed:
            if result.check.start:
                lines.append(f"      from the position {result.check.start}")
            lines += [f"      {line}" for line in result.transcript]
        self._say("\n".join(lines))


SERVE_GRACE = 5
"""Seconds ``arbiter serve`` gives open connections to close when it is stopped."""


def _cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from arbiter.cli.tournament import read_agent_entries
    from arbiter.games import game_names
    from arbiter.web.app import create_app

    agents: dict[str, list[Any]] = {name: [] for name in game_names()}
    if args.config is not None:
        for agent, only in read_agent_entries(args.config):
            agent.check()
            for name in [only] if only is not None else game_names():
                agents[name].append(agent)
    if args.db is not None:
        from arbiter.tournament.store import Store

        if not Path(args.db).is_file():
            raise ConfigError(f"no database {args.db!r}")
        with Store(args.db) as store:  # a file that is no results database: said now
            store.tournaments()
    listening = _listen(args.host, args.port)  # a port in use: said before "listening"
    where = "this machine only" if args.host in ("127.0.0.1", "localhost", "::1") else "the network"
    print(f"arbiter serve: http://{args.host}:{args.port}/ (listening on {where})", flush=True)
    config = uvicorn.Config(
        create_app(args.db, agents),
        log_level="warning",
        timeout_graceful_shutdown=SERVE_GRACE,
    )
    uvicorn.Server(config).run(sockets=[listening])
    return 0


def _listen(host: str, port: int) -> Any:
    """A socket bound to ``host:port`` for the server to take.

    :raises ConfigError: naming the address, when it cannot be had (in use, not
        this machine's, a port below 1024 without the right).
    """
    import socket

    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError as e:
        raise ConfigError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    except UnicodeError:
        raise ConfigError(f"cannot listen on {host!r}: not a host name") from None
    return sock


def _solve_position(spec: Any, text: str) -> tuple[Any, float | None]:
    """The position to solve in ``text``, and the seconds it gives (``None``: none):
    the contest's own position file where the game has one (Halma's ``input.txt``),
    else its one-line position text.

    :raises NotationError: naming what is wrong with the text.
    """
    if spec.position_file is not None and (given := spec.position_file(text)) is not None:
        state, seconds = given
        return state, seconds
    return spec.notation.parse_position(text.strip()), None


def _cmd_solve(args: argparse.Namespace) -> int:
    from arbiter.agents.registry import make_agent
    from arbiter.clock import Limit
    from arbiter.games import find_game

    spec = find_game(args.game)
    game = spec.make()
    if args.file is None:
        if spec.position_file is None:
            raise ConfigError(
                f"give the {spec.name} position: its one-line text, a file holding it, "
                "or - to read it from standard input"
            )
        args.file = "input.txt"  # the contest's own position file (Halma's)
    inline = args.file != "-" and not os.path.exists(args.file) and args.file != "input.txt"
    try:
        if args.file == "-":
            text = sys.stdin.read()
        elif inline:
            text = args.file  # the position itself, given on the command line
        else:
            text = Path(args.file).read_text("utf-8")
    except OSError as e:
        raise ConfigError(f"cannot read {args.file!r}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{args.file!r} is not text") from None
    if not text.strip():
        where = "standard input" if args.file == "-" else repr(args.file)
        raise ConfigError(f"{where} is empty: it should hold a {spec.name} position")
    try:
        s, given = _solve_position(spec, text)
    except NotationError as e:
        if inline:
            raise ConfigError(
                f"cannot read {args.file!r}: no such file, nor is it a position ({e})"
            ) from None
        raise
    if (ended := game.outcome(s)) is not None:
        who = "a draw" if ended.winner is None else f"won by {spec.seat_names[ended.winner]}"
        why = f"{ended.reason}: {ended.detail}" if ended.detail else str(ended.reason)
        raise ConfigError(f"the game is over in that position: {who} ({why})")
    agent = make_agent(spec, _engine(args.engine, args.depth))
    p = game.to_move(s)
    agent.reset(game, p, args.seed)
    seconds = args.move_time or given or 1.0
    m = agent.choose(s, Limit(depth=args.depth) if args.depth else Limit(time=seconds))
    print(spec.contest.move_text(game, s, m, seat=p))
    if agent.note():
        print(agent.note(), file=sys.stderr)
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from arbiter.errors import RecordError
    from arbiter.play.replay import replay
    from arbiter.record import key_path, read_lines, record_key

    signer = None
    if args.public_key is not None:
        from arbiter.host.export_check import ExportError, verify_export
        from arbiter.host.signing import public_key, record_signed

        try:
            pem = Path(args.public_key).read_bytes()
        except OSError as e:
            raise RecordError(f"cannot read public key {args.public_key!r}: {e.strerror}") from None
        signer = public_key(pem, repr(args.public_key))
        if args.file.endswith((".tar.gz", ".tgz")):
            try:
                done = verify_export(Path(args.file), signer, print)
            except ExportError as e:
                print(f"{args.file}: does not verify: {e}")
                return 1
            print(
                f"{args.file}: verified {done.games} games, {done.rounds} rounds and "
                f"{done.standings} standings rows, all signed by {args.public_key}"
            )
            return 0
    elif args.file.endswith((".tar.gz", ".tgz")):
        raise RecordError(
            f"{args.file!r} is a contest export: check it with --public-key FILE "
            "(the contest's key, from its /contest page)"
        )
    if args.file.endswith((".pdn", ".pgn")):
        return _replay_portable(args.file)
    from arbiter.cli.tournament import is_database

    if is_database(args.file):
        raise RecordError(
            f"{args.file!r} is a results database: arbiter export {args.file} -o games.jsonl "
            "writes its records, which arbiter replay then checks"
        )
    key = None if args.unsealed or signer is not None else record_key()
    if key is None and not args.unsealed and signer is None:
        print(f"no record key at {key_path()}: seals are not checked")
    bad = 0
    count = 0
    for number, record in read_lines(args.file):
        count += 1
        if isinstance(record, RecordError):
            bad += 1
            print(record)
            continue
        who = f"{record.game} {' vs '.join(record.players)}"
        if signer is not None and not record_signed(signer, record):
            bad += 1
            why = "no signature" if record.signature is None else "a signature that does not match"
            print(f"{args.file}:{number}: {who}: not signed by {args.public_key} ({why})")
            continue
        if not args.unsealed and signer is None and record.signature and record.seal is None:
            bad += 1
            print(
                f"{args.file}:{number}: {who}: signed by a contest, not sealed by this "
                "referee: check it with --public-key FILE (the contest's key, from its "
                "/contest page)"
            )
            continue
        if key is not None and not record.sealed_by(key):
            bad += 1
            why = "no seal" if record.seal is None else "a seal that does not match"
            print(f"{args.file}:{number}: {who}: not written by this referee ({why})")
            continue
        try:
            out = replay(record)
        except RecordError as e:
            bad += 1
            print(f"{args.file}:{number}: {who}: {e}")
            continue
        print(
            f"{args.file}:{number}: ok {who}: {out.result()} by {out.reason}, "
            f"{len(record.moves)} moves"
        )
    if count == 0:
        raise RecordError(f"{args.file!r} holds no game records")
    print(f"{count - bad} of {count} records verified")
    return 1 if bad else 0


def _replay_portable(path: str) -> int:
    """Checks every game of a PDN or PGN-style file through the rules: each move legal,
    the result the rules' where the moves end the game.

    :raises RecordError: if the file cannot be read, has a malformed tag or no game.
    """
    from arbiter.errors import RecordError
    from arbiter.play.portable import check_game, read_games

    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError as e:
        raise RecordError(f"cannot read {path!r}: {e.strerror}") from None
    bad = count = 0
    for game in read_games(text):
        count += 1
        who = " vs ".join(game.tags.get(k, "?") for k in _sides(game.tags))
        try:
            moves, outcome = check_game(game)
        except RecordError as e:
            bad += 1
            print(f"{path}: {e}")
            continue
        ended = "unfinished" if outcome is None else f"{game.result} by {outcome.reason}"
        print(f"{path}: game {game.number}: ok {game.game} {who}: {moves} moves legal, {ended}")
    if count == 0:
        raise RecordError(f"{path!r} holds no games")
    print(f"{count - bad} of {count} games verified")
    return 1 if bad else 0


def _sides(tags: dict[str, str]) -> list[str]:
    """The two side tags of a portable game, first mover first."""
    names = [k for k in tags if k in ("Black", "White", "First", "Second")]
    return names or ["Black", "White"]


def _cmd_doctor(args: argparse.Namespace) -> int:
    from arbiter.referee.isolation import available
    from arbiter.referee.sandbox import detect

    protection = detect()
    for line in protection.describe():
        print(line)
    print(available(protection).describe(protection))
    print(f"rules and search: {core.describe()}")
    return 0


def describe_walls(supervision: Any) -> str:
    """The one line said at the start of a match, tournament or check with programs:
    the walls they run behind on this machine, their network and disk."""
    from arbiter.referee.supervision import describe

    return describe(supervision)
