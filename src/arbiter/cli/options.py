"""The ``arbiter`` command's arguments: the parser, and the typed values commands take
from it (a game's rule options, a clock, how programs are watched, an engine)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from arbiter import __version__, core
from arbiter.errors import ConfigError

COMMANDS_WITH_GAME = ("match", "agent", "play", "perft", "tournament")


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} must be a positive number")
    return value


def _bounded_int(low: int, high: int | None = None) -> Any:
    """An argparse type for a whole number from ``low`` to ``high`` (no upper bound
    without one)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low or (high is not None and value > high):
            if high is not None:
                want = f"from {low} to {high}"
            else:
                want = "0 or more" if low == 0 else f"at least {low}"
            raise argparse.ArgumentTypeError(f"{text!r} must be {want}")
        return value

    return parse


_positive_int = _bounded_int(1)
_nonnegative_int = _bounded_int(0)


MAX_GAMES = 1_000_000
"""The most games one match plays."""


def _specs(argv: Sequence[str]) -> list[Any]:
    """The specs whose rule options the parser offers: the game named on the command
    line, or every game (for ``--help`` without one)."""
    from arbiter.games import find_game, game_names

    names = game_names()
    named = [a.replace("_", "-") for a in argv[1:3] if a.replace("_", "-") in names]
    return [find_game(n) for n in (named[:1] or names)]


def _add_rule_options(p: argparse.ArgumentParser, specs: list[Any]) -> None:
    """Adds one flag per rule option of the given games (the games' own declarations)."""
    seen: dict[str, list[str]] = {}
    options = {}
    for spec in specs:
        for option in spec.options:
            seen.setdefault(option.name, []).append(spec.name)
            options[option.name] = option
    group = p.add_argument_group("rule options")
    for name, option in options.items():
        games = "" if len(seen[name]) == len(specs) else f" [{', '.join(seen[name])}]"
        if option.type is bool:
            group.add_argument(
                option.flag,
                dest=f"rule_{name}",
                action="store_true",
                default=None,
                help=option.help + games,
            )
        else:
            group.add_argument(
                option.flag,
                dest=f"rule_{name}",
                type=option.type,
                default=None,
                metavar=name.upper(),
                help=option.help + games,
            )


def _rule_options(args: argparse.Namespace, spec: Any) -> dict[str, Any]:
    """Returns the rule options of ``spec`` set on the command line (with the ply cap
    always recorded), checked by the spec.

    :raises ConfigError: for a flag of another game's option, or a bad value.
    """
    mine = {o.name: o for o in spec.options}
    options: dict[str, Any] = {}
    for key, value in vars(args).items():
        if not key.startswith("rule_") or value is None:
            continue
        name = key[5:]
        if name not in mine:
            flag = "--" + name.replace("_", "-")
            raise ConfigError(f"{flag} is not a rule of {spec.name}")
        options[name] = mine[name].check(value, mine[name].flag)
    options.setdefault("max_plies", next(o.default for o in spec.options if o.name == "max_plies"))
    spec.make(options)
    return options


def _add_time_options(p: argparse.ArgumentParser, default: str) -> None:
    timing = p.add_mutually_exclusive_group()
    timing.add_argument(
        "--move-time", type=_positive_float, metavar="S", help=f"seconds per move ({default})"
    )
    timing.add_argument(
        "--tc",
        metavar="TEXT",
        help="a time control instead: 'st=10', '300+1', '40/120', '300 ot=1', 'inf'",
    )


def _add_opening_options(p: argparse.ArgumentParser) -> None:
    starts = p.add_mutually_exclusive_group()
    starts.add_argument(
        "--openings",
        type=_bounded_int(1, 200),
        metavar="N",
        help="start each pair of games after the same N random plies (seeded by --seed)",
    )
    starts.add_argument(
        "--openings-file", metavar="FILE", help="start positions, one position text a line"
    )


def _add_supervision_options(p: argparse.ArgumentParser, *, log_dir: bool = True) -> None:
    """The flags that change how programs are watched (default: as the contest)."""
    if log_dir:
        p.add_argument(
            "--log-dir",
            metavar="DIR",
            help="keep every line (or file) each program read and wrote, timed, and the end "
            "of its standard error: DIR/game-NNNN/SEAT-NAME.log",
        )
    p.add_argument(
        "--memory-limit", type=_positive_float, metavar="MB", help="resident memory cap per agent"
    )
    p.add_argument(
        "--pin",
        action="store_true",
        help="run each program on a core of its own, set before it starts (two cores a "
        "game; for wall-clock contests)",
    )
    p.add_argument(
        "--no-suspend",
        action="store_true",
        help="let a waiting program run (it is still charged for what it uses)",
    )
    p.add_argument(
        "--charge",
        choices=("cpu", "wall"),
        help="what a move costs: CPU of the program's tree, or wall time from message to "
        "reply (default: the contest's)",
    )
    net = p.add_mutually_exclusive_group()
    net.add_argument(
        "--network",
        action="store_true",
        help="let programs use the network (default: none, not even this machine's; each "
        "has a loopback of its own)",
    )
    # the default since programs run without a network: still accepted
    net.add_argument("--no-network", action="store_true", help=argparse.SUPPRESS)
    p.add_argument(
        "--disk-limit",
        type=_positive_float,
        default=256.0,
        metavar="MB",
        help="what a program may write, its work directory and /tmp together (default 256; "
        "the whole of it needs root, elsewhere each file)",
    )
    p.add_argument(
        "--pass-env",
        action="append",
        default=[],
        metavar="NAME",
        help="let programs see this environment variable too (they get a minimal one, with "
        "what their contest passes)",
    )
    p.add_argument(
        "--max-processes",
        type=_bounded_int(1, 100_000),
        default=256,
        metavar="N",
        help="processes and threads a program may have at once, where cgroups allow",
    )
    p.add_argument(
        "--isolation",
        choices=("auto", "rlimits", "cgroup", "user", "namespaces", "strict"),
        default="auto",
        help="the walls programs run behind: auto (every wall this machine has, the "
        "default), a level (at most its walls, and refuse to run without its own), or "
        "strict (refuse to run without a cgroup, a uid of its own and namespaces); "
        "see 'arbiter doctor'",
    )
    p.add_argument(
        "--expose",
        action="append",
        default=[],
        metavar="PATH",
        help="let namespaced programs read this path too (a runtime, shared data)",
    )
    alone = p.add_mutually_exclusive_group()
    alone.add_argument(
        "--single-process",
        dest="single_process",
        action="store_const",
        const=True,
        help="a program that starts another process loses (Chinese checkers' default)",
    )
    alone.add_argument(
        "--allow-children",
        dest="single_process",
        action="store_const",
        const=False,
        help="programs may start other processes (every other game's default)",
    )


def _supervision(args: argparse.Namespace, spec: Any) -> Any:
    """The contest's supervision with the command line's changes.

    :raises ConfigError: for --no-network or an --isolation level where this machine
        cannot give it, or an --expose path that does not exist.
    """
    from dataclasses import replace

    from arbiter.clock import Charging
    from arbiter.referee.isolation import choose
    from arbiter.referee.sandbox import detect

    walls = choose(args.isolation)
    if args.no_network and not (detect().network_namespaces or walls.namespaces):
        raise ConfigError(
            "--no-network needs root and unshare, or bubblewrap: see 'arbiter doctor'"
        )
    for path in args.expose:
        if not os.path.exists(path):
            raise ConfigError(f"--expose: no such path {path!r}")
    log_dir = getattr(args, "log_dir", None)
    if log_dir is not None:
        _writable(log_dir, "--log-dir")
    if getattr(args, "pin", False):
        from arbiter.play.series import pin_cores

        pin_cores(getattr(args, "concurrency", 1) or 1)
    return replace(
        spec.supervision,
        suspend=spec.supervision.suspend and not args.no_suspend,
        memory_limit_mb=args.memory_limit or spec.supervision.memory_limit_mb,
        network=args.network,
        disk_limit_mb=args.disk_limit,
        pass_env=tuple(dict.fromkeys([*spec.supervision.pass_env, *args.pass_env])),
        charging=Charging(args.charge) if args.charge else spec.supervision.charging,
        max_processes=args.max_processes,
        single_process=(
            spec.supervision.single_process if args.single_process is None else args.single_process
        ),
        log_dir=None if getattr(args, "log_dir", None) is None else os.path.abspath(args.log_dir),
        isolation=args.isolation,
        expose=(*spec.supervision.expose, *(os.path.abspath(p) for p in args.expose)),
        pin=getattr(args, "pin", False),
    )


def _writable(folder: str, flag: str) -> None:
    """Makes ``folder`` if need be and checks a file can be written in it: a game's
    transcripts are never allowed to stop a game, so a folder that takes none would
    lose them all in silence.

    :raises ConfigError: naming the flag, the folder and why.
    """
    import tempfile

    try:
        os.makedirs(folder, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as e:
        raise ConfigError(f"{flag}: cannot write into {folder!r}: {e.strerror}") from None


class OneLineParser(argparse.ArgumentParser):
    """A parser whose mistakes are one line, like every other error of the command:
    what was wrong, and where the usage is (argparse prints the usage first)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


@dataclass(frozen=True, slots=True)
class Known:
    """What several commands' arguments offer: the games, the rule options of the
    game named on the command line (``specs``), the built-in engines, and the type of
    a search depth."""

    names: tuple[str, ...]
    specs: list[Any]
    engines: str
    depth: Any


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """Returns the argument parser of the ``arbiter`` command; the rule options offered
    are those of the game named in ``argv`` (all games' when none is)."""
    from arbiter.agents.spec import ENGINES, MAX_DEPTH
    from arbiter.cli import replay, serve, solve
    from arbiter.cli.host import add_parsers as add_host
    from arbiter.cli.kit import add_parser as add_kit
    from arbiter.cli.tournament_args import add_parsers as add_tournament
    from arbiter.games import game_names

    names = game_names()
    specs = _specs(argv) if argv and argv[0] in COMMANDS_WITH_GAME else []
    known = Known(names, specs, ", ".join(ENGINES), _bounded_int(1, MAX_DEPTH))
    parser = OneLineParser(
        prog="arbiter",
        description="Rules engines, referees and agents for game-AI programming contests. "
        f"Games: {', '.join(names)}.",
    )
    parser.add_argument(
        "--version", action="version", version=f"arbiter {__version__}, {core.describe()}"
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_match(sub, known)
    _add_agent(sub, known)
    _add_play(sub, known)
    _add_perft(sub, known)
    add_tournament(sub, names, specs)
    _add_check_agent(sub, known)
    serve.add_parser(sub)
    solve.add_parser(sub, names)
    replay.add_parser(sub)
    sub.add_parser(
        "doctor",
        help="say how this machine lets the referee hold programs, and which core runs",
    )
    add_host(sub, _bounded_int)
    add_kit(sub)
    return parser


def _add_match(sub: Any, known: Known) -> None:
    """``match``: games between two agents under a contest's referee."""
    m = sub.add_parser("match", help="play games between two agents under a contest's referee")
    m.add_argument("game", choices=known.names, metavar="GAME", help=", ".join(known.names))
    m.add_argument(
        "first",
        metavar="A",
        help=f"built-in engine ({known.engines}, e.g. alphabeta:depth=4) or a program's command",
    )
    m.add_argument("second", metavar="B", help="built-in engine or command")
    m.add_argument(
        "--games",
        type=_bounded_int(1, MAX_GAMES),
        help="games, seats alternating (default 2; with --sprt, the most to play)",
    )
    m.add_argument(
        "--sprt",
        metavar="ELO0,ELO1[,ALPHA,BETA]",
        help="stop as soon as a sequential test over game pairs accepts that A is at most "
        "ELO0 or at least ELO1 logistic Elo stronger than B (alpha, beta 0.05 by default)",
    )
    _add_time_options(m, "default: the contest's clock")
    _add_opening_options(m)
    m.add_argument("--record", metavar="FILE", help="append each game as a JSON line to FILE")
    m.add_argument(
        "--resume",
        action="store_true",
        help="go on from the games the --record file holds (a match or SPRT stopped part "
        "way, run again with the same arguments, or more games): they count, the rest "
        "are played",
    )
    m.add_argument("--seed", type=_nonnegative_int, default=0, help="base seed (default 0)")
    m.add_argument("--depth", type=known.depth, help="fixed search depth of built-in alphabeta")
    _add_supervision_options(m)
    m.add_argument(
        "--names", nargs=2, metavar=("NAME_A", "NAME_B"), help="names to show for A and B"
    )
    m.add_argument(
        "--dirs",
        nargs=2,
        metavar=("DIR_A", "DIR_B"),
        help="the programs' own directories: each game runs a program in a fresh copy of "
        "its directory, removed after the game (default: an empty one)",
    )
    m.add_argument(
        "--concurrency", type=_positive_int, default=1, help="games played at once (default 1)"
    )
    m.add_argument("-v", "--verbose", action="store_true", help="print every move")
    _add_rule_options(m, known.specs)


def _add_agent(sub: Any, known: Known) -> None:
    """``agent``: a built-in engine as a contest program."""
    from arbiter.agents.faults import Fault

    a = sub.add_parser("agent", help="run a built-in engine as a contest program")
    a.add_argument("game", choices=known.names, metavar="GAME")
    a.add_argument(
        "args",
        nargs="*",
        metavar="ARG",
        help="what the contest starts a program with (votey, checkers: 1 or 2)",
    )
    a.add_argument("--engine", default="alphabeta", help=f"{known.engines} (with options)")
    a.add_argument("--seed", type=_nonnegative_int, default=0)
    _add_time_options(a, "default: the contest's game clock, or 1 s per move")
    a.add_argument("--depth", type=known.depth, help="fixed search depth (alphabeta)")
    a.add_argument("-v", "--verbose", action="store_true", help="report each search on stderr")
    a.add_argument(
        "--fault",
        choices=[str(f) for f in Fault],
        metavar="FAULT",
        help="misbehave on purpose, to test a referee: " + ", ".join(Fault),
    )
    a.add_argument("--fault-ply", type=_positive_int, default=1, help="at which own move")
    a.add_argument("--fault-tag", default="", help="a word added to every process it starts")
    _add_rule_options(a, known.specs)


def _add_play(sub: Any, known: Known) -> None:
    """``play``: a person against a built-in engine in the terminal."""
    pl = sub.add_parser("play", help="play against a built-in engine in the terminal")
    pl.add_argument("game", choices=known.names, metavar="GAME")
    pl.add_argument("--as", dest="side", default=None, help="your side, e.g. black or white")
    pl.add_argument("--engine", default="alphabeta", help=f"{known.engines} (with options)")
    _add_time_options(pl, "the engine's, default 1; with --tc both sides are on the clock")
    pl.add_argument("--seed", type=_nonnegative_int, default=0)
    pl.add_argument("--depth", type=known.depth)
    _add_rule_options(pl, known.specs)


def _add_perft(sub: Any, known: Known) -> None:
    """``perft``: move sequences counted to each depth."""
    pf = sub.add_parser("perft", help="count move sequences to each depth")
    pf.add_argument("game", choices=known.names, metavar="GAME")
    pf.add_argument("depth", type=_bounded_int(1, 30))
    pf.add_argument("--position", help="start from this position text instead")
    pf.add_argument(
        "--divide", action="store_true", help="count per first move at DEPTH (contest notation)"
    )


def _add_check_agent(sub: Any, known: Known) -> None:
    """``check-agent``: a program checked against its contest's protocol."""
    ck = sub.add_parser(
        "check-agent", help="check a program against its contest's protocol before submitting"
    )
    ck.add_argument("game", choices=known.names, metavar="GAME")
    ck.add_argument("program", metavar="COMMAND", help="the program's command, one quoted string")
    _add_time_options(ck, "default: the contest's clock")
    _add_supervision_options(ck, log_dir=False)
    ck.add_argument(
        "--no-burners",
        action="store_true",
        help="play the busy-machine check without keeping every core busy (on a machine "
        "whose cores other work needs)",
    )


def _time_control(args: argparse.Namespace, default: Any) -> Any:
    from arbiter.clock import TimeControl

    if args.tc is not None:
        return TimeControl.parse(args.tc)
    if args.move_time is not None:
        return TimeControl.per_move_seconds(args.move_time)
    return default


def _engine(text: str, depth: int | None) -> Any:
    from arbiter.agents.spec import AgentSpec

    agent = AgentSpec.parse(text).with_options(depth=depth)
    if agent.engine is None:
        raise ConfigError(f"unknown engine {text!r}: expected a built-in engine")
    return agent


# -- match -----------------------------------------------------------------------
