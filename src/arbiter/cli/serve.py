"""``arbiter serve``: play, watch and replay games in the browser, on this machine or
the network, with the agents an agents file names and a tournament database's
standings."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from arbiter.cli.options import _bounded_int
from arbiter.errors import ConfigError


def add_parser(sub: Any) -> None:
    """Adds ``serve`` to the ``arbiter`` parser's subcommands."""
    sv = sub.add_parser("serve", help="play, watch and replay games in the browser")
    sv.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: this machine only)"
    )
    sv.add_argument("--port", type=_bounded_int(1, 65535), default=8000)
    sv.add_argument("--db", metavar="FILE", help="a tournament database whose standings to show")
    sv.add_argument(
        "--config",
        metavar="FILE",
        help="a TOML file of [[agent]] entries (name, engine or command, dir, game): the "
        "only programs the pages may play",
    )


SERVE_GRACE = 5
"""Seconds ``arbiter serve`` gives open connections to close when it is stopped."""


def cmd_serve(args: argparse.Namespace) -> int:
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
