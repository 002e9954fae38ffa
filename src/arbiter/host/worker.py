"""``arbiter worker URL --token TOKEN``: a machine that plays a contest's games, and
never gives up on its own, as fishtest's workers do.

It asks the server for a game, fetches the packed programs it has not cached yet
(checking each archive's size before and its hash after the download), plays the
game through the contest's referee (the same walls, clocks and rulings as every
arbiter game), renews its lease while it plays and sends the record and each
program's stderr back. It prints one line as each game starts and one as it ends.

- **The server away** (restarting, the network down, a proxy answering 502-504):
  every call is tried again, waiting a little longer each time (up to
  ``--away-max`` seconds), with one line when the server goes and one when it is
  back. A finished game's result is first written to the worker's spool on disk and
  deleted only once the server has answered for it (stored, or refused with a
  reason: its lease ran out and another worker played it), so a worker killed or
  restarted after a game still delivers it.
- **Its own contest only**: its token pins the contest's public key. Before its
  first call, and again each time the server was away, it has the server sign a
  fresh challenge with the contest's key; a server that cannot is never called.
  Its secret never crosses the wire: each call is signed with it
  (:mod:`arbiter.host.request_signing`).
- **A game it cannot play** (a program too large to fetch, an archive that does not
  unpack even fetched again, a referee that cannot start) is reported as a failure
  with its reason; the server settles the game once enough *different* workers have
  failed it, and blames a program only when they all blame the same one.
- **It stops by itself** only when the server refuses its token (revoked: one line,
  exit code 1). The server also refuses a second live process on one token: the
  second waits until the first is gone.

The server stores a result only under the worker's current lease
(:mod:`arbiter.host.queue`), so a worker may die at any moment: its game is played
again elsewhere and never stored twice.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import IO, Any, TypeVar

import httpx2 as httpx

from arbiter.agents.spec import AgentSpec
from arbiter.contract import Program
from arbiter.errors import ArbiterError
from arbiter.games import find_game
from arbiter.host.config import contest_supervision
from arbiter.host.languages import fill, shown
from arbiter.host.programs import ProgramError, file_sha256, unpack_once
from arbiter.host.server_link import (
    Away,
    Revoked,
    ServerLink,
    code_of,
    error_of,
)
from arbiter.host.wire import (
    FailureBody,
    Job,
    LiveMove,
    MovesBody,
    Player,
    ResultBody,
)
from arbiter.play.series import GameJob, interrupt_on_termination, play_job
from arbiter.record import GameRecord
from arbiter.referee.events import Event, EventSink, MovePlayed
from arbiter.referee.transcript import game_dir

IDLE_MIN = 0.5
IDLE_MAX = 5.0
AWAY_MAX = 30.0
"""The longest wait, in seconds, between two tries while the server is away."""
MAX_PROGRAM = 256 << 20
"""The largest program archive a worker fetches."""
MAX_LOG = 256 << 10
"""The most of a program's stderr sent with a result."""
WAIT_CODES = ("token-in-use", "worker-paused")
"""Refusals of a lease a worker waits out, saying so once: another process holds its
token, or the organiser has yet to resume it."""

T = TypeVar("T")


class Unplayable(ArbiterError):
    """A game this worker cannot play; ``culprit`` is the seat whose program is at
    fault, or None (this machine, or the server)."""

    def __init__(self, message: str, culprit: int | None = None) -> None:
        super().__init__(message)
        self.culprit = culprit


class Worker:
    """One worker process's loop against one server.

    ``out`` gets the worker's lines (a game started or ended, the server away or
    back); ``away_max`` caps the wait between two tries while the server is away."""

    def __init__(
        self,
        url: str,
        token: str,
        cache: Path,
        *,
        isolation: str = "auto",
        name: str = "",
        out: IO[str] | None = None,
        away_max: float = AWAY_MAX,
    ) -> None:
        self.out = out or sys.stdout
        self.link = ServerLink(url, token, self.say, away_max)
        self.url, self.client = self.link.url, self.link.client
        self._contest = self.link.contest
        self.cache = cache
        self.isolation = isolation
        self.name = name or os.uname().nodename
        self.away_max = away_max
        self.played = 0
        self.revoked = ""
        self.busy = False
        """True from asking for a lease until its game's result is sent or spooled."""
        self.stopping = False
        """True once told to stop after the game under way (SIGTERM)."""
        self.spool = cache / "results" / f"{_safe(self._contest)}-{_safe(self.name)}"

    # -- talking to the server -------------------------------------------------------

    def say(self, line: str) -> None:
        print(line, file=self.out, flush=True)

    @property
    def _verified(self) -> bool:
        return self.link.verified

    @_verified.setter
    def _verified(self, value: bool) -> None:
        self.link.verified = value

    def _retrying(self, attempt: Callable[[], T]) -> T:
        return self.link.retrying(attempt)

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        """One call of the worker API, made until the server answers it.

        :raises Revoked: for a refused token.
        """
        return self.link.call(method, path, body)

    # -- the loop ----------------------------------------------------------------------

    def run(self, games: int | None = None) -> int:
        """Plays until stopped (or ``games`` games); returns the games stored.

        :raises Revoked: when the server refuses the token.
        """
        try:
            self.deliver_spooled()
            idle = IDLE_MIN
            in_use = False
            while (games is None or self.played < games) and not self.stopping:
                self.busy = True
                response = self.call("POST", "/api/worker/lease", {"name": self.name})
                if response.status_code != 200:
                    self.busy = False
                    if self.stopping:
                        break
                if response.status_code == 409 and code_of(response) in WAIT_CODES:
                    if not in_use:
                        self.say(f"waiting: {error_of(response)}")
                    in_use = True
                    time.sleep(min(self.away_max, 5.0) * random.uniform(0.8, 1.2))
                    continue
                in_use = False
                if response.status_code == 204:
                    time.sleep(idle)
                    idle = min(idle * 1.5, IDLE_MAX)
                    continue
                if response.status_code != 200:
                    self.say(
                        f"the server refused a lease ({response.status_code}): {error_of(response)}"
                    )
                    time.sleep(IDLE_MAX)
                    continue
                idle = IDLE_MIN
                try:
                    job = Job.model_validate(response.json())
                except ValueError as e:  # a server of another arbiter version
                    self.busy = False
                    self.say(f"the server's job is not one this worker reads: {e}")
                    time.sleep(IDLE_MAX)
                    continue
                self.play(job)
                self.busy = False
                if self.stopping:
                    self.say(f"stopped after game {job.id}, as asked")
        except KeyboardInterrupt:
            if self.revoked:
                raise Revoked(self.revoked) from None
            self._goodbye()
            raise
        self._goodbye()
        return self.played

    def stop_after_game(self) -> None:
        """What SIGTERM does (a service manager's stop): a worker playing a game
        stops once its result is sent or spooled; an idle one, or one waiting for a
        server that is away, stops now.

        :raises KeyboardInterrupt: if no game is under way.
        """
        self.stopping = True
        if not self.busy:
            raise KeyboardInterrupt
        self.link.stopped.set()  # a call waiting for a server that is away gives up
        self.say("SIGTERM: stopping after the game under way (its result sent or kept)")

    def _goodbye(self) -> None:
        """Frees the token for the next process at once (one try: the server may be
        gone)."""
        if self._verified:
            with contextlib.suppress(httpx.HTTPError):
                self.client.post("/api/worker/goodbye", timeout=5)

    def play(self, job: Job) -> None:
        """Plays one leased game and delivers its result (or its failure)."""
        names = " vs ".join(p.name for p in job.players)
        self.say(f"game {job.id} (round {job.round}): {names}")
        stop = threading.Event()
        live = LiveMoves()
        heart = threading.Thread(target=self._heartbeat, args=(job, stop), daemon=True)
        heart.start()
        stream = threading.Thread(target=self._stream, args=(job, live, stop), daemon=True)
        stream.start()
        try:
            try:
                folders = [self.program(seat, p) for seat, p in enumerate(job.players)]
                with tempfile.TemporaryDirectory(prefix="arbiter-worker-") as logs:
                    record, stderr = self._play(job, folders, logs, live.add)
            except Revoked:
                raise
            except ArbiterError as e:
                culprit = e.culprit if isinstance(e, Unplayable) else None
                self._fail(job, culprit, str(e))
                return
            path = self._spool(job, record, stderr)
        except KeyboardInterrupt:
            if not self.revoked and self._verified:
                with contextlib.suppress(httpx.HTTPError):
                    self.client.post(
                        f"/api/worker/games/{job.id}/release",
                        json={"lease": job.lease},
                        timeout=5,
                    )
            raise
        finally:
            stop.set()
            heart.join()
            stream.join()
        self._deliver(path)

    def _fail(self, job: Job, culprit: int | None, why: str) -> None:
        body = FailureBody(lease=job.lease, reason=why[:2000], culprit=culprit)
        response = self.call("POST", f"/api/worker/games/{job.id}/failure", body.model_dump())
        state = response.json().get("state") if response.status_code == 200 else None
        self.say(f"game {job.id}: could not be played: {why} (the game is {state or 'not ours'})")

    def _play(
        self, job: Job, folders: list[Path], logs: str, events: EventSink
    ) -> tuple[GameRecord, list[str]]:
        spec = find_game(job.game)
        agents = []
        for player, folder in zip(job.players, folders, strict=True):
            command = fill(job.runs[player.language])
            program = Program.from_command(
                command,
                cwd=str(folder),
                name=player.name,
                shown=shown(job.runs[player.language]),
            )
            agents.append(AgentSpec(player.name, program=program))
        watch = contest_supervision(spec.name, job.memory_mb, self.isolation, job.disk_mb)
        record = play_job(
            GameJob(
                spec.name,
                (agents[0], agents[1]),
                job.time_control,
                job.seed,
                job.number,
                supervision=replace(watch, log_dir=logs),
                start=job.start,
            ),
            events,
        )
        folder = Path(game_dir(logs, job.number))
        stderr = []
        for seat in (1, 2):
            found = sorted(folder.glob(f"{seat}-*.log"))
            stderr.append(found[0].read_text(errors="replace")[-MAX_LOG:] if found else "")
        return record, stderr

    # -- results on disk until the server has them -------------------------------------

    def _spool(self, job: Job, record: GameRecord, stderr: list[str]) -> Path:
        """Writes a finished game's result to the spool (atomically, private)."""
        self.spool.mkdir(mode=0o700, parents=True, exist_ok=True)
        body = ResultBody(lease=job.lease, record=record.to_json(), logs=(stderr[0], stderr[1]))
        data = {"game": job.id, "summary": _summary(record), **body.model_dump()}
        path = self.spool / f"{job.id}-{job.lease[:16]}.json"
        fd, partial = tempfile.mkstemp(dir=self.spool, prefix=".")
        with os.fdopen(fd, "w") as f:
            json.dump(data, f)
        os.replace(partial, path)
        return path

    def _deliver(self, path: Path) -> None:
        """Sends a spooled result until the server answers for it, then forgets it."""
        data = json.loads(path.read_text())
        body = {k: data[k] for k in ("lease", "record", "logs")}
        response = self.call("POST", f"/api/worker/games/{data['game']}/result", body)
        if response.status_code == 200:
            self.played += 1
            self.say(f"game {data['game']}: {data['summary']}: stored")
        else:
            # the server's refusal names the game too: said once
            why = error_of(response).removeprefix(f"game {data['game']}: ")
            self.say(f"game {data['game']}: not stored: {why}")
        path.unlink(missing_ok=True)

    def deliver_spooled(self) -> int:
        """Delivers what an earlier run of this worker finished but did not deliver;
        returns how many results it found."""
        found = sorted(self.spool.glob("*.json")) if self.spool.is_dir() else []
        for path in found:
            try:
                self._deliver(path)
            except (ValueError, KeyError, OSError) as e:
                self.say(f"a spooled result {path.name} is unreadable ({e}): dropped")
                path.unlink(missing_ok=True)
        return len(found)

    # -- programs ----------------------------------------------------------------------

    def program(self, seat: int, player: Player) -> Path:
        """The unpacked program of a job's seat, fetched once and kept in the cache.

        :raises Unplayable: for a program with no archive, too large, whose download
            does not match its hash, or that does not unpack.
        """
        sha, size = player.program, player.size
        if sha is None or size is None:
            raise Unplayable(f"version {player.version} has no packed program")
        if size > MAX_PROGRAM:
            raise Unplayable(
                f"the program of {player.name} is {size >> 20} MB, over the worker's "
                f"{MAX_PROGRAM >> 20} MB",
                seat,
            )
        folder = self.cache / "programs" / sha
        if folder.is_dir():
            return folder
        folder.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._fetch(seat, player, sha, size, folder)
        except Unplayable as first:
            # a download cut short or a bad disk here says nothing of the program:
            # fetched again once; still failing, it is reported, and the server blames
            # the program only if every worker that failed the game says the same
            self.say(f"the program of {player.name}: {first}; fetching it again")
            try:
                self._fetch(seat, player, sha, size, folder)
            except Unplayable as second:
                raise Unplayable(str(second), second.culprit) from None
        return folder

    def _fetch(self, seat: int, player: Player, sha: str, size: int, folder: Path) -> None:
        """Downloads a seat's archive (``size`` bytes at most, of SHA-256 ``sha``),
        checks its hash and unpacks it into ``folder``.

        :raises Unplayable: for a download that does not match its hash (no culprit:
            the transfer, this machine or the store), or an archive that does not
            unpack (seat ``seat``'s program, as far as this worker can tell).
        """
        fd, partial_name = tempfile.mkstemp(prefix=f".{sha[:16]}-", dir=folder.parent)
        os.close(fd)
        partial = Path(partial_name)
        try:
            self._retrying(lambda: self._download(player.version, size, partial))
            if file_sha256(partial) != sha:
                raise Unplayable(f"the program of {player.name} does not match its hash")
            try:
                unpack_once(partial, folder)  # another worker of this machine may be first
            except ProgramError as e:
                raise Unplayable(f"the program of {player.name}: {e}", seat) from None
        finally:
            partial.unlink(missing_ok=True)

    def _download(self, version: int, size: int, target: Path) -> None:
        """Streams a program archive into ``target``, no more than ``size`` bytes.

        :raises Unplayable: if the server has none or sends more than ``size``.
        """
        path = f"/api/worker/programs/{version}"
        with (
            self.client.stream("GET", path) as response,
            target.open("wb") as f,
        ):
            if response.status_code == 401:
                raise Revoked(f"the server refused this worker's token: {response.status_code}")
            if response.status_code in (502, 503, 504):
                raise Away(f"{self.url} answered {response.status_code}")
            if response.status_code != 200:
                response.read()
                raise Unplayable(f"program of version {version}: {error_of(response)}")
            got = 0
            for chunk in response.iter_bytes():
                got += len(chunk)
                if got > size:
                    raise Unplayable(f"the program of version {version} is over its {size} bytes")
                f.write(chunk)

    # -- the lease ---------------------------------------------------------------------

    def _stream(self, job: Job, live: LiveMoves, stop: threading.Event) -> None:
        """Sends the moves played so far, at most every :data:`STREAM_EVERY` seconds,
        so the game's page shows them as they come. Each send is one try: a move
        that did not get through goes with the next (the record has them all)."""
        sent = 0
        while not stop.wait(STREAM_EVERY):
            moves = live.since(sent)
            if not moves or not self._verified:
                continue
            body = MovesBody(
                lease=job.lease,
                start=sent,
                moves=[LiveMove(text=t, seconds=s) for t, s in moves[:500]],
            )
            with contextlib.suppress(httpx.TransportError):
                response = self.client.post(
                    f"/api/worker/games/{job.id}/moves",
                    json=body.model_dump(),
                )
                if response.status_code == 200:
                    sent += len(body.moves)

    def _heartbeat(self, job: Job, stop: threading.Event) -> None:
        """Renews the lease every third of it; ends the worker if its token is
        refused. Each beat is one try: a server away misses a beat, not the game."""
        while not stop.wait(max(1.0, job.lease_seconds / 3)):
            try:
                if not self._verified:
                    self.link.verify()
                response = self.client.post(
                    f"/api/worker/games/{job.id}/heartbeat",
                    json={"lease": job.lease},
                )
            except (httpx.TransportError, Away):
                self._verified = False
                continue
            if response.status_code == 401:
                self.revoked = f"the server refused this worker's token: {error_of(response)}"
                os.kill(os.getpid(), signal.SIGINT)  # stops the game under way
                return


STREAM_EVERY = 0.5
"""Seconds between two sends of a game's new moves."""


class LiveMoves:
    """The moves of the game being played, as the referee accepts them (its event
    sink), read by the thread that streams them to the server."""

    def __init__(self) -> None:
        self._moves: list[tuple[str, float]] = []
        self._lock = threading.Lock()

    def add(self, event: Event) -> None:
        if isinstance(event, MovePlayed):
            with self._lock:
                self._moves.append((event.text, event.seconds))

    def since(self, start: int) -> list[tuple[str, float]]:
        with self._lock:
            return self._moves[start:]


def _summary(record: GameRecord) -> str:
    result = record.outcome.result()
    return f"{result} by {record.reason}, {len(record.moves)} plies"


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name)[:64]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="arbiter worker", description=__doc__.split("\n")[0])
    parser.add_argument("url", help="the contest server, e.g. http://host:8000")
    parser.add_argument(
        "--token",
        default=os.environ.get("ARBITER_WORKER_TOKEN"),
        help="the worker's token (or ARBITER_WORKER_TOKEN)",
    )
    parser.add_argument("--name", default="", help="the name the server shows")
    parser.add_argument("--cache", default=None, help="where programs and results are kept")
    parser.add_argument("--isolation", default="auto")
    parser.add_argument("--games", type=int, default=None, help="stop after this many")
    parser.add_argument(
        "--away-max", type=float, default=AWAY_MAX, help="longest wait between tries (s)"
    )
    args = parser.parse_args(argv)
    if not args.token:
        print(
            "arbiter worker: error: a worker needs its token: --token TOKEN or the "
            "ARBITER_WORKER_TOKEN variable (the organiser's page gives it)",
            file=sys.stderr,
        )
        return 2
    where = urllib.parse.urlsplit(args.url)
    if where.scheme not in ("http", "https") or not where.hostname:
        # a mistyped address is not a server that is away: said once, not retried
        print(
            f"arbiter worker: {args.url!r} is not a server's address (like http://host:8000)",
            file=sys.stderr,
        )
        return 1
    cache = Path(args.cache or Path(tempfile.gettempdir()) / f"arbiter-worker-{os.getuid()}")
    cache.mkdir(parents=True, exist_ok=True, mode=0o700)
    interrupt_on_termination()  # SIGHUP; SIGTERM, once the worker is made, below
    worker: Worker | None = None
    try:
        worker = Worker(
            args.url,
            args.token,
            cache,
            isolation=args.isolation,
            name=args.name,
            away_max=args.away_max,
        )
        made = worker
        signal.signal(signal.SIGTERM, lambda _sig, _frame: made.stop_after_game())
        worker.run(args.games)
    except KeyboardInterrupt:
        return 0 if worker is not None and worker.stopping else 130
    except ArbiterError as e:
        print(f"arbiter worker: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.default_int_handler)
    sys.exit(main())
