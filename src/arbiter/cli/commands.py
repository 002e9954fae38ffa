"""The ``arbiter`` commands: each turns its parsed arguments into the library's typed
values, calls the library, and prints. Imports are made inside the commands so that
``arbiter agent`` starts quickly: its start-up CPU time counts against its first move."""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING, Any

from arbiter import core
from arbiter.cli.options import (
    MAX_GAMES,
    _engine,
    _rule_options,
    _supervision,
    _time_control,
)

if TYPE_CHECKING:
    from collections.abc import Iterable

    from arbiter.contract import GameSpec
    from arbiter.tournament.match import Match, PlayedGame
    from arbiter.tournament.sprt import Sprt


def _cmd_match(args: argparse.Namespace) -> int:
    from arbiter.games import find_game
    from arbiter.referee.events import Event, GameStarted, MovePlayed, ignore
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
    labels = match.score.names
    _say_match(match, spec, total, args.record)

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


def _say_match(match: Match, spec: GameSpec[Any, Any], total: int, record: str | None) -> None:
    """The match's first lines: who plays what, on which clock, behind which walls, and
    what a resumed match already holds."""
    from arbiter.referee.file_seat import runs_once_per_move

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
            f"resumed: {match.resumed} games already in {record}, score {labels[0]} "
            f"{pa:g} - {pb:g} {labels[1]}, pairs {'-'.join(map(str, match.pentanomial))}",
            flush=True,
        )


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
