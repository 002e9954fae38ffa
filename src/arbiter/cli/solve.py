"""``arbiter solve GAME [FILE]``: one position answered by a built-in engine, its move
printed in the contest's notation."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from arbiter.cli.options import Known, _engine, _nonnegative_int, _positive_float
from arbiter.errors import ConfigError, NotationError


def add_parser(sub: Any, known: Known) -> None:
    """Adds ``solve`` to the ``arbiter`` parser's subcommands."""
    names, engines, depth = known.names, known.engines, known.depth
    so = sub.add_parser("solve", help="answer one position with a built-in engine")
    so.add_argument("game", choices=names, metavar="GAME")
    so.add_argument(
        "file",
        nargs="?",
        help="the position: its one-line text, or a file holding it (halma: an input.txt, "
        "the default); - reads standard input",
    )
    so.add_argument("--engine", default="alphabeta", help=f"{engines} (with options)")
    so.add_argument(
        "--move-time",
        type=_positive_float,
        metavar="S",
        help="seconds to think (default: what an input.txt gives, else 1)",
    )
    so.add_argument("--depth", type=depth, help="search to this depth instead")
    so.add_argument("--seed", type=_nonnegative_int, default=0)


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


def cmd_solve(args: argparse.Namespace) -> int:
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
