"""The ``arbiter`` command: match, agent, play, perft, replay.

Every user mistake (unknown game or engine, bad flag value, missing program,
broken record file) is reported as one line on standard error with exit status 1.
Imports are made inside the commands so that ``arbiter agent`` starts quickly:
its start-up CPU time counts against its first move.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from collections.abc import Sequence
from typing import Any

from arbiter.errors import ArbiterError, ConfigError

SEAT_CHOICES = ("1", "2")


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} must be a positive number")
    return value


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


def _nonnegative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be 0 or more")
    return value


def _add_rules_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--max-plies",
        type=_positive_int,
        default=1000,
        help="ply cap after which the game is drawn (default 1000)",
    )
    p.add_argument(
        "--plain-draws",
        action="store_true",
        help="checkers: score a repetition or 40-move end as a draw, not by piece count",
    )


def _rule_options(args: argparse.Namespace) -> dict[str, Any]:
    """Returns the rules engine's keyword options from the command line flags."""
    options: dict[str, Any] = {"max_plies": args.max_plies}
    if args.plain_draws:
        if args.game != "checkers":
            raise ConfigError(f"--plain-draws applies to checkers, not {args.game}")
        options["plain_draws"] = True
    return options


def build_parser() -> argparse.ArgumentParser:
    """Returns the argument parser of the ``arbiter`` command."""
    from arbiter.agents.registry import ENGINES
    from arbiter.games import GAME_NAMES

    parser = argparse.ArgumentParser(
        prog="arbiter",
        description="Rules engines, referees and agents for five game-AI programming contests.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    m = sub.add_parser("match", help="play games between two agents under a contest's referee")
    m.add_argument("game", choices=GAME_NAMES, metavar="GAME", help=", ".join(GAME_NAMES))
    m.add_argument("first", metavar="A", help=f"built-in engine ({', '.join(ENGINES)}) or command")
    m.add_argument("second", metavar="B", help="built-in engine or command")
    m.add_argument("--games", type=_positive_int, default=2, help="games, colours alternating")
    timing = m.add_mutually_exclusive_group()
    timing.add_argument(
        "--move-time", type=_positive_float, help="CPU seconds per move (default: the contest's)"
    )
    timing.add_argument(
        "--tc",
        metavar="TEXT",
        help="a time control instead: 'st=10', '300+1', '40/120', '300 ot=1', 'inf'",
    )
    m.add_argument("--record", metavar="FILE", help="append each game as a JSON line to FILE")
    m.add_argument("--seed", type=_nonnegative_int, default=0, help="base seed (default 0)")
    m.add_argument("--depth", type=_positive_int, help="fixed search depth of built-in alphabeta")
    m.add_argument(
        "--memory-limit", type=_positive_float, metavar="MB", help="resident memory cap per agent"
    )
    m.add_argument(
        "--names", nargs=2, metavar=("NAME_A", "NAME_B"), help="names to show for A and B"
    )
    m.add_argument(
        "--concurrency", type=_positive_int, default=1, help="games played at once (default 1)"
    )
    m.add_argument("-v", "--verbose", action="store_true", help="print every move")
    _add_rules_options(m)

    a = sub.add_parser("agent", help="run a built-in engine as a contest program")
    a.add_argument("game", choices=GAME_NAMES, metavar="GAME")
    a.add_argument("color", choices=SEAT_CHOICES, metavar="COLOR", help="1 = first, 2 = second")
    a.add_argument("--engine", choices=ENGINES, default="alphabeta")
    a.add_argument("--seed", type=_nonnegative_int, default=0)
    a.add_argument("--move-time", type=_positive_float, default=1.0, help="seconds per move")
    a.add_argument("--depth", type=_positive_int, help="fixed search depth (alphabeta)")
    a.add_argument("-v", "--verbose", action="store_true", help="report each search on stderr")
    _add_rules_options(a)

    pl = sub.add_parser("play", help="play against a built-in engine in the terminal")
    pl.add_argument("game", choices=GAME_NAMES, metavar="GAME")
    pl.add_argument("--as", dest="side", default=None, help="your side, e.g. black or white")
    pl.add_argument("--engine", choices=ENGINES, default="alphabeta")
    pl.add_argument("--move-time", type=_positive_float, default=1.0)
    pl.add_argument("--seed", type=_nonnegative_int, default=0)
    pl.add_argument("--depth", type=_positive_int)
    _add_rules_options(pl)

    pf = sub.add_parser("perft", help="count move sequences to each depth")
    pf.add_argument("game", choices=GAME_NAMES, metavar="GAME")
    pf.add_argument("depth", type=_positive_int)
    pf.add_argument("--position", help="start from this position text instead")
    pf.add_argument(
        "--divide", action="store_true", help="count per first move at DEPTH (contest notation)"
    )

    r = sub.add_parser("replay", help="re-verify every move and result of a record file")
    r.add_argument("file")
    return parser


# -- match -----------------------------------------------------------------------


def _check_command(who: str) -> None:
    from arbiter.agents.registry import ENGINES
    from arbiter.referee.seat import split_command

    if who in ENGINES:
        return
    program = split_command(who)[0]
    if os.sep in program:
        if not os.path.isfile(program):
            raise ConfigError(f"agent command {who!r}: no such file {program!r}")
        if not os.access(program, os.X_OK):
            raise ConfigError(f"agent command {who!r}: {program!r} is not executable")
    elif shutil.which(program) is None:
        raise ConfigError(f"agent {who!r} is neither a built-in engine nor a program on PATH")


def _cmd_match(args: argparse.Namespace) -> int:
    from arbiter.clock import TimeControl
    from arbiter.games import find_game
    from arbiter.record import append_record
    from arbiter.referee.match import MoveEvent
    from arbiter.referee.series import GameJob, run_series
    from arbiter.tournament.score import MatchScore

    spec = find_game(args.game)
    for who in (args.first, args.second):
        _check_command(who)
    if args.verbose and args.concurrency > 1:
        raise ConfigError("-v prints the moves of one game at a time: drop --concurrency")
    if args.record:
        try:
            with open(args.record, "a", encoding="utf-8"):
                pass
        except OSError as e:
            raise ConfigError(f"cannot write records to {args.record!r}: {e.strerror}") from None
    if args.tc is not None:
        tc = TimeControl.parse(args.tc)
    else:
        tc = TimeControl.per_move_seconds(args.move_time or spec.protocol.DEFAULT_MOVE_TIME)
    options = _rule_options(args)
    spec.make(**options)
    commands = (args.first, args.second)
    shown = args.names or commands
    labels = (shown[0], shown[1] if shown[1] != shown[0] else shown[1] + "'")
    jobs = []
    for i in range(args.games):
        first = i % 2  # which agent sits in seat 0; each pair of games shares a seed
        order = (first, 1 - first)
        jobs.append(
            GameJob(
                game=spec.name,
                agents=(commands[order[0]], commands[order[1]]),
                names=(labels[order[0]], labels[order[1]]),
                time_control=str(tc),
                seed=args.seed + i // 2,
                round=i + 1,
                options=options,
                depth=args.depth,
                memory_limit_mb=args.memory_limit,
            )
        )
    score = MatchScore(labels)
    games = f"{args.games} game" + ("s" if args.games != 1 else "")
    print(f"{spec.title}: {labels[0]} vs {labels[1]}, {games}, time control {tc}")

    def show(ev: MoveEvent) -> None:
        side = spec.seat_names[ev.seat]
        print(f"  {ev.ply:4d}. {side:6s} {ev.text:>8s}  {ev.seconds:6.2f}s", flush=True)

    t0 = time.monotonic()
    for job, record in run_series(jobs, args.concurrency, show if args.verbose else None):
        if args.record:
            append_record(args.record, record)
        out = record.outcome
        score.add(out, first=(job.round - 1) % 2)
        who = "draw" if out.winner is None else f"{job.names[out.winner]} wins"
        detail = f" ({out.detail})" if out.reason.is_fault and out.detail else ""
        pa, pb = score.points
        print(
            f"game {job.round}/{args.games}: {job.names[0]} ({spec.seat_names[0]}) vs "
            f"{job.names[1]} ({spec.seat_names[1]}): {out.result()} {who} by "
            f"{out.reason}{detail}, {len(record.moves)} plies | after "
            f"{time.monotonic() - t0:.1f}s score {labels[0]} {pa:g} - {pb:g} {labels[1]}",
            flush=True,
        )
    print()
    for line in score.summary(spec.seat_names):
        print(line)
    return 0


# -- agent, play, perft, replay ---------------------------------------------------------


def _cmd_agent(args: argparse.Namespace) -> int:
    from arbiter.agents.registry import make_agent
    from arbiter.games import find_game

    spec = find_game(args.game)
    game = spec.make(**_rule_options(args))
    agent = make_agent(args.engine, spec, depth=args.depth)
    status = spec.protocol.serve(
        agent, game, int(args.color), args.move_time, seed=args.seed, verbose=args.verbose
    )
    return int(status)


def _cmd_play(args: argparse.Namespace) -> int:
    from arbiter.agents.registry import make_agent
    from arbiter.games import find_game
    from arbiter.human import play_terminal

    spec = find_game(args.game)
    side = (args.side or spec.seat_names[0]).lower()
    choices = {name: i for i, name in enumerate(spec.seat_names)} | {"1": 0, "2": 1}
    if side not in choices:
        raise ConfigError(f"unknown side {args.side!r}: expected {' or '.join(spec.seat_names)}")
    game = spec.make(**_rule_options(args))
    agent = make_agent(args.engine, spec, depth=args.depth)
    play_terminal(spec, game, choices[side], agent, args.move_time, seed=args.seed)
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
            print(f"{spec.protocol.move_text(game, s, m, p)} {nodes}")
            total += nodes
        print(f"total {total}")
        return 0
    for depth in range(1, args.depth + 1):
        t0 = time.perf_counter()
        nodes = perft(game, s, depth)
        dt = time.perf_counter() - t0
        print(f"{depth} {nodes} {dt:.3f}s {nodes / dt if dt > 0 else 0:.0f} nodes/s", flush=True)
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from arbiter.errors import RecordError
    from arbiter.record import read_lines, replay

    bad = 0
    count = 0
    for number, record in read_lines(args.file):
        count += 1
        if isinstance(record, RecordError):
            bad += 1
            print(record)
            continue
        who = f"{record.game} {' vs '.join(record.players)}"
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


COMMANDS = {
    "match": _cmd_match,
    "agent": _cmd_agent,
    "play": _cmd_play,
    "perft": _cmd_perft,
    "replay": _cmd_replay,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except ArbiterError as e:
        print(f"arbiter {args.command}: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"arbiter {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1


if __name__ == "__main__":
    sys.exit(main())
