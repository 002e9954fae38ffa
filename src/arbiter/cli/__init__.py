"""The ``arbiter`` command: match, agent, play, tournament, serve, check-agent, solve,
perft, replay, report, export, doctor, host, worker, kit.

The command line only parses and prints (:mod:`arbiter.cli.options` parses,
:mod:`arbiter.cli.commands` calls the library): games, their rule options and their
contests' clocks come from each game's :class:`~arbiter.contract.GameSpec`; a match
from :mod:`arbiter.tournament.match`; the games themselves from the referee. Every
user mistake (unknown game or engine, bad flag value,
missing program, broken record file) is reported as one line on standard error
with exit status 1. Imports are made inside the commands so that ``arbiter agent``
starts quickly: its start-up CPU time counts against its first move.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from arbiter.cli.commands import (
    _cmd_agent,
    _cmd_check_agent,
    _cmd_doctor,
    _cmd_export,
    _cmd_match,
    _cmd_perft,
    _cmd_play,
    _cmd_report,
    _cmd_tournament,
)
from arbiter.cli.host import cmd_host, cmd_worker
from arbiter.cli.kit import cmd_kit
from arbiter.cli.parser import build_parser
from arbiter.cli.replay import cmd_replay
from arbiter.cli.serve import cmd_serve
from arbiter.cli.solve import cmd_solve
from arbiter.errors import ArbiterError

COMMANDS = {
    "match": _cmd_match,
    "agent": _cmd_agent,
    "play": _cmd_play,
    "perft": _cmd_perft,
    "tournament": _cmd_tournament,
    "report": _cmd_report,
    "export": _cmd_export,
    "check-agent": _cmd_check_agent,
    "serve": cmd_serve,
    "solve": cmd_solve,
    "replay": cmd_replay,
    "doctor": _cmd_doctor,
    "host": cmd_host,
    "worker": cmd_worker,
    "kit": cmd_kit,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status."""
    words = list(sys.argv[1:] if argv is None else argv)
    try:
        parser = build_parser(words)  # loads the games the command may name
    except ArbiterError as e:  # an outside game ARBITER_GAMES names that cannot load
        print(f"arbiter: error: {e}", file=sys.stderr)
        return 2
    args, extra = parser.parse_known_args(words)
    if extra and args.command == "agent" and not any(e.startswith("-") for e in extra):
        args.args += extra  # the contest's arguments may follow the options
    elif args.command == "solve" and len(extra) == 1 and args.file is None:
        args.file = extra[0]  # the file after the options
    elif extra:
        print(
            f"arbiter {args.command}: error: unrecognized arguments: {' '.join(extra)} "
            f"(see arbiter {args.command} --help)",
            file=sys.stderr,
        )
        return 2
    if argv is None and args.command in ("match", "play", "tournament"):
        from arbiter.play.series import interrupt_on_termination

        interrupt_on_termination()  # SIGTERM and SIGHUP end a match as Ctrl-C does
    try:
        status = COMMANDS[args.command](args)
        if argv is None and args.command == "agent":
            # a program whose game is over leaves at once: freeing the search's tables
            # at the interpreter's exit would only keep the referee waiting
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(status)
        return status
    except ArbiterError as e:
        print(f"arbiter {args.command}: error: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 1
    except Exception as e:
        # a database's failure; sqlite3 is loaded only by the commands that use one (a
        # contest program started by ``arbiter agent`` does not pay for its import)
        sqlite3 = sys.modules.get("sqlite3")
        if sqlite3 is None or not isinstance(e, sqlite3.DatabaseError):
            raise
        print(
            f"arbiter {args.command}: error: the results database failed: {e} "
            "(damaged, or in use by another program?)",
            file=sys.stderr,
        )
        return 1
    except KeyboardInterrupt:
        print(f"arbiter {args.command}: interrupted", file=sys.stderr)
        return 130
