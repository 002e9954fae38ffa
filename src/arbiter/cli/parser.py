"""The ``arbiter`` command's parser, assembled from each group of commands' own
arguments: :mod:`arbiter.cli.options` holds what the groups share (clocks, openings,
the walls, a game's rule options), each command module its own."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any, NoReturn

from arbiter import __version__, core
from arbiter.cli.options import (
    MAX_GAMES,
    Known,
    _add_opening_options,
    _add_rule_options,
    _add_supervision_options,
    _add_time_options,
    _bounded_int,
    _nonnegative_int,
    _positive_int,
    _specs,
)

COMMANDS_WITH_GAME = ("match", "agent", "play", "perft", "tournament")
"""The commands whose first argument is a game: they offer its rule options."""


class OneLineParser(argparse.ArgumentParser):
    """A parser whose mistakes are one line, like every other error of the command:
    what was wrong, and where the usage is (argparse prints the usage first)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


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
    add_tournament(sub, known)
    _add_check_agent(sub, known)
    serve.add_parser(sub)
    solve.add_parser(sub, known)
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
