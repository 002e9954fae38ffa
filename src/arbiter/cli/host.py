"""``arbiter host`` (the contest server) and ``arbiter worker`` (a machine that plays
its games): their options and what they call."""

from __future__ import annotations

import argparse
import getpass
import os
import signal
import sys
from typing import Any

from arbiter.errors import ConfigError

GRACE = 20
"""Seconds a stopping server gives the requests under way (an upload, a result)."""


def add_parsers(sub: Any, bounded_int: Any) -> None:
    """Adds the two commands to the ``arbiter`` parser's subcommands."""
    h = sub.add_parser("host", help="run a contest server: accounts, submissions, rounds, pages")
    h.add_argument(
        "contest", metavar="CONTEST.toml", nargs="?", help="the contest's file (not with --restore)"
    )
    h.add_argument("--host", default="127.0.0.1", help="address to listen on")
    h.add_argument("--port", type=bounded_int(1, 65535), default=8000)
    h.add_argument("--isolation", default="auto", help="walls for builds and games")
    h.add_argument(
        "--workers", type=bounded_int(0, 256), help="local workers (default: the file's)"
    )
    h.add_argument(
        "--secure-cookies",
        action="store_true",
        help="send session cookies over HTTPS only (behind a TLS proxy)",
    )
    h.add_argument(
        "--forwarded-allow-ips",
        default="",
        metavar="ADDRESSES",
        help="the reverse proxy's addresses (comma-separated), whose X-Forwarded-For and "
        "X-Forwarded-Proto headers are believed; none by default, so no client can pose "
        "as another address to the per-address limits",
    )
    h.add_argument(
        "--organiser",
        metavar="NAME",
        help="make (or set the password of) the organiser's account and exit; the "
        "password is read from ARBITER_PASSWORD or asked for",
    )
    h.add_argument(
        "--add-worker", metavar="NAME", help="register a worker machine, print its token and exit"
    )
    h.add_argument(
        "--backup",
        metavar="FILE",
        help="write a backup of the contest (running or not) to FILE (.tar.gz) and exit",
    )
    h.add_argument(
        "--restore",
        nargs=2,
        metavar=("FILE", "DIR"),
        help="make the new folder DIR a contest from the backup FILE and exit",
    )
    h.add_argument(
        "--database",
        metavar="URL",
        help="with --restore: the empty PostgreSQL database a PostgreSQL backup goes into",
    )
    w = sub.add_parser("worker", help="play a contest server's games on this machine")
    w.add_argument("url", help="the contest server, e.g. http://host:8000")
    w.add_argument("--token", default=None, help="the worker's token (or ARBITER_WORKER_TOKEN)")
    w.add_argument("--name", default="", help="the name the server shows")
    w.add_argument("--cache", default=None, help="where programs and unsent results are kept")
    w.add_argument("--isolation", default="auto", help="walls for the games")
    w.add_argument("--games", type=bounded_int(1, 10**9), default=None, help="stop after so many")
    w.add_argument(
        "--away-max",
        type=float,
        default=30.0,
        help="longest wait between two tries while the server is away (s)",
    )


def cmd_host(args: argparse.Namespace) -> int:
    from pathlib import Path

    from arbiter.host.accounts import AccountError, create, set_password
    from arbiter.host.config import load
    from arbiter.host.db import Database
    from arbiter.host.storage import make_private

    if args.restore is not None:
        return _restore(args)
    if args.contest is None:  # a usage mistake, as argparse says one
        print(
            "arbiter host: error: the following arguments are required: CONTEST.toml "
            "(or --restore FILE DIR)",
            file=sys.stderr,
        )
        return 2
    if args.database is not None:
        raise ConfigError("--database goes with --restore (the contest file names its own)")
    config = load(args.contest)
    if args.backup is not None:
        from arbiter.host.backup import backup

        made = backup(config, Path(args.contest).resolve(), Path(args.backup))
        print(
            f"arbiter host: backup of {config.name} ({made['database']}, taken "
            f"{made['taken']}) written to {args.backup}",
            file=sys.stderr,
        )
        return 0
    if args.workers is not None:
        from dataclasses import replace

        config = replace(config, local_workers=args.workers)
    db = Database(config.database)
    make_private(config.folder, config.database)
    if args.organiser or args.add_worker:
        with db.session() as s:
            if args.add_worker:
                from arbiter.host.signing import ContestKey
                from arbiter.host.workers import new_worker

                key = ContestKey.of_folder(config.folder)
                print(new_worker(s, args.add_worker, key.public_raw))
            else:
                password = _password()
                try:
                    set_password(s, args.organiser, password)
                except AccountError:
                    create(s, args.organiser, password, role="organiser")
                print(f"arbiter host: organiser {args.organiser!r} can log in", file=sys.stderr)
            s.commit()
        return 0
    import uvicorn

    from arbiter.host.app import create_app
    from arbiter.host.coordination import hold_sqlite
    from arbiter.host.service import Service
    from arbiter.host.storage import sqlite_file

    served = sqlite_file(config.database)
    serving = None if served is None else hold_sqlite(served)  # one process on SQLite

    service = Service(config, Path(args.contest).resolve(), db, isolation=args.isolation)
    url = f"http://127.0.0.1:{args.port}"
    app = create_app(config, service, secure_cookies=args.secure_cookies, worker_url=url)
    where = "this machine only" if args.host in ("127.0.0.1", "localhost", "::1") else "the network"
    print(
        f"arbiter host: {config.name} at http://{args.host}:{args.port}/ (listening on "
        f"{where}; {config.local_workers} local workers)",
        flush=True,
    )
    proxies = args.forwarded_allow_ips.strip()
    settings = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        timeout_graceful_shutdown=GRACE,
        # uvicorn believes X-Forwarded-For from 127.0.0.1 by default: any local program
        # would choose its address for the log-in delays and stream limits
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies or None,
    )

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            if not self.should_exit:
                name = signal.Signals(sig).name
                print(
                    f"arbiter host: {name}: stopping: the requests under way are finished "
                    f"(at most {GRACE} s), live pages reconnect",
                    file=sys.stderr,
                    flush=True,
                )
                service.stopping()
            super().handle_exit(sig, frame)

    def terminated(_sig: int, _frame: Any) -> None:
        raise SystemExit(0)

    # uvicorn raises the signal again once it has stopped gracefully: a SIGTERM ends
    # the command as a stop it asked for, not as a kill (a service manager's stop)
    signal.signal(signal.SIGTERM, terminated)
    try:
        Server(settings).run()
    except SystemExit:
        pass
    finally:
        if serving is not None:
            serving.close()
    print("arbiter host: stopped", file=sys.stderr)
    return 0


def _restore(args: argparse.Namespace) -> int:
    from pathlib import Path

    from arbiter.host.backup import restore

    if args.contest is not None:
        raise ConfigError("--restore makes a contest's file: name no CONTEST.toml with it")
    archive, target = (Path(p) for p in args.restore)
    contest = restore(archive, target, args.database)
    print(f"arbiter host: restored; serve it with: arbiter host {contest}", file=sys.stderr)
    return 0


def _password() -> str:
    from arbiter.host.accounts import AccountError, check_password

    password = os.environ.get("ARBITER_PASSWORD")
    if password is None:
        if not sys.stdin.isatty():
            raise ConfigError("give the organiser's password in ARBITER_PASSWORD")
        password = getpass.getpass("organiser's password: ")
        if getpass.getpass("again: ") != password:
            raise ConfigError("the two passwords differ")
    try:
        return check_password(password)
    except AccountError as e:
        raise ConfigError(str(e)) from None


def cmd_worker(args: argparse.Namespace) -> int:
    from arbiter.host.worker import main

    argv = [args.url, "--name", args.name, "--isolation", args.isolation]
    if args.token:
        argv += ["--token", args.token]
    if args.cache:
        argv += ["--cache", args.cache]
    if args.games:
        argv += ["--games", str(args.games)]
    return main([*argv, "--away-max", str(args.away_max)])
