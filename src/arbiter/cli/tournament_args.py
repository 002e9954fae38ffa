"""The arguments of the tournament commands (``tournament``, ``report``, ``export``),
apart from the commands themselves (:mod:`arbiter.cli.tournament`), whose imports are
heavy: every ``arbiter`` command builds the whole parser, ``arbiter agent`` too, whose
start-up counts against its first move."""

from __future__ import annotations

from typing import Any

from arbiter.cli.options import (
    Known,
    _add_opening_options,
    _add_rule_options,
    _add_supervision_options,
    _add_time_options,
    _bounded_int,
    _nonnegative_int,
    _positive_int,
)


def add_parsers(sub: Any, known: Known) -> None:
    """Adds ``tournament``, ``report`` and ``export`` to the ``arbiter`` parser's
    subcommands."""
    names, specs, engines, depth = known.names, known.specs, known.engines, known.depth
    tu = sub.add_parser("tournament", help="play every agent against every other, into a database")
    tu.add_argument("game", choices=names, metavar="GAME")
    tu.add_argument(
        "--agent",
        action="append",
        default=[],
        metavar="SPEC",
        help=f"an agent: a built-in engine ({engines}, with options) or a program's command; "
        "repeat for each",
    )
    tu.add_argument("--agents", metavar="FILE", help="agents named in a TOML file ([[agent]])")
    tu.add_argument("--format", choices=("round-robin", "gauntlet"), default="round-robin")
    tu.add_argument(
        "--rounds", type=_bounded_int(1, 10_000), default=1, help="meetings of each pairing"
    )
    tu.add_argument(
        "--concurrency", type=_positive_int, default=1, help="games played at once (default 1)"
    )
    tu.add_argument("--db", default="arbiter.db", help="results database (default arbiter.db)")
    tu.add_argument("--name", help="the tournament's name in the database (default: the game)")
    tu.add_argument("--seed", type=_nonnegative_int, default=0, help="base seed (default 0)")
    tu.add_argument("--depth", type=depth, help="fixed search depth of built-in alphabeta")
    tu.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="where games run: local worker processes (default) or Ray actors",
    )
    tu.add_argument("--address", help="the Ray cluster to use (default: one started here)")
    _add_opening_options(tu)
    tu.add_argument(
        "--no-openings",
        action="store_true",
        help="every game from the game's start (default: the game's shipped opening set)",
    )
    _add_time_options(tu, "default: the contest's clock")
    _add_supervision_options(tu)
    _add_rule_options(tu, specs)

    rp = sub.add_parser("report", help="standings, ratings and crosstable of a tournament")
    rp.add_argument("db", metavar="DB")
    rp.add_argument("--tournament", metavar="NAME", help="which one (if the file holds several)")
    rp.add_argument("--json", action="store_true", help="as JSON")

    ex = sub.add_parser(
        "export", help="write a database's (or a record file's) games: records, PDN or PGN"
    )
    ex.add_argument("db", metavar="DB", help="a tournament database, or a .jsonl record file")
    ex.add_argument(
        "--format",
        choices=("jsonl", "pdn", "pgn"),
        default="jsonl",
        help="jsonl: records for arbiter replay (default); pdn: checkers as Portable "
        "Draughts Notation; pgn: any game as tagged text (checkers as PDN)",
    )
    ex.add_argument("--tournament", metavar="NAME")
    ex.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")
