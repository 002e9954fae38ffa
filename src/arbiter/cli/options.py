"""The ``arbiter`` command's arguments: the parser, and the typed values commands take
from it (a game's rule options, a clock, how programs are watched, an engine)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from arbiter.errors import ConfigError


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
    _add_wall_options(p)


def _add_wall_options(p: argparse.ArgumentParser) -> None:
    """The flags of the walls programs run behind: network, disk, environment,
    processes, the isolation level and what namespaced programs may read."""
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


@dataclass(frozen=True, slots=True)
class Known:
    """What several commands' arguments offer: the games, the rule options of the
    game named on the command line (``specs``), the built-in engines, and the type of
    a search depth."""

    names: tuple[str, ...]
    specs: list[Any]
    engines: str
    depth: Any
