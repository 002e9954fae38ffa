"""``arbiter worker URL --token TOKEN``: a machine that plays a contest's games.

It asks the server for a game, fetches the two programs it has not cached yet,
plays the game through the contest's referee (the same walls, clocks and rulings as
every arbiter game), renews its lease while it plays and sends the record and each
program's stderr back. The server stores the result only under the worker's current
lease (:mod:`arbiter.host.queue`), so a worker may die at any moment: its game is
played again elsewhere and never stored twice. With nothing to play it waits, a
little longer each time, up to :data:`IDLE_MAX` seconds.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import signal
import sys
import tarfile
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx2 as httpx

from arbiter.agents.spec import AgentSpec
from arbiter.contract import Program
from arbiter.errors import ArbiterError
from arbiter.games import find_game
from arbiter.host.config import contest_supervision
from arbiter.host.languages import fill
from arbiter.referee.series import GameJob, interrupt_on_termination, play_job
from arbiter.referee.transcript import game_dir

IDLE_MIN = 0.5
IDLE_MAX = 5.0
MAX_PROGRAM = 256 << 20
"""The largest program archive a worker unpacks."""


class Worker:
    """One worker's loop against one server."""

    def __init__(
        self, url: str, token: str, cache: Path, *, isolation: str = "auto", name: str = ""
    ) -> None:
        self.url = url.rstrip("/")
        self.client = httpx.Client(
            base_url=self.url, headers={"Authorization": f"Bearer {token}"}, timeout=60.0
        )
        self.cache = cache
        self.isolation = isolation
        self.name = name or os.uname().nodename
        self.played = 0

    def run(self, games: int | None = None) -> int:
        """Plays until stopped (or ``games`` games); returns the games stored."""
        idle = IDLE_MIN
        while games is None or self.played < games:
            try:
                response = self.client.post("/api/worker/lease", json={"name": self.name})
            except httpx.HTTPError as e:
                print(f"arbiter worker: cannot reach {self.url}: {e}", file=sys.stderr)
                time.sleep(idle)
                idle = min(idle * 2, IDLE_MAX)
                continue
            if response.status_code == 204:
                time.sleep(idle)
                idle = min(idle * 1.5, IDLE_MAX)
                continue
            _raise_for(response)
            idle = IDLE_MIN
            self.play(response.json())
        return self.played

    def play(self, job: dict[str, Any]) -> None:
        """Plays one leased game and sends its result."""
        lease = job["lease"]
        game_id = job["id"]
        beating = threading.Event()
        heart = threading.Thread(
            target=self._heartbeat, args=(game_id, lease, job["lease_seconds"], beating)
        )
        heart.start()
        try:
            with tempfile.TemporaryDirectory(prefix="arbiter-worker-") as logs:
                record, stderr = self._play(job, logs)
            payload = {"lease": lease, "record": record, "logs": stderr}
            response = self.client.post(f"/api/worker/games/{game_id}/result", json=payload)
            if response.status_code == 409:
                print(
                    f"arbiter worker: game {game_id}: {response.json()['error']}", file=sys.stderr
                )
            else:
                _raise_for(response)
                self.played += 1
        except BaseException:
            with contextlib.suppress(httpx.HTTPError):
                self.client.post(f"/api/worker/games/{game_id}/release", json={"lease": lease})
            raise
        finally:
            beating.set()
            heart.join()

    def _play(self, job: dict[str, Any], logs: str) -> tuple[str, list[str]]:
        spec = find_game(job["game"])
        agents = []
        for player in job["players"]:
            folder = self.program(player["version"], player["sha256"])
            command = fill(job["runs"][player["language"]])
            program = Program.from_command(command, cwd=str(folder), name=player["name"])
            agents.append(AgentSpec(player["name"], program=program))
        watch = contest_supervision(spec.name, job["memory_mb"], self.isolation, job["disk_mb"])
        supervision = replace(watch, log_dir=logs)
        record = play_job(
            GameJob(
                spec.name,
                (agents[0], agents[1]),
                job["time_control"],
                job["seed"],
                job["number"],
                supervision=supervision,
                start=job["start"],
            )
        )
        folder = Path(game_dir(logs, job["number"]))
        stderr = []
        for seat in (1, 2):
            found = sorted(folder.glob(f"{seat}-*.log"))
            stderr.append(found[0].read_text(errors="replace")[-(256 << 10) :] if found else "")
        return record.to_json(), stderr

    def program(self, version: int, sha256: str) -> Path:
        """The built program of ``version``, fetched once and kept in the cache."""
        folder = self.cache / f"{version}-{sha256[:16]}"
        if folder.is_dir():
            return folder
        response = self.client.get(f"/api/worker/programs/{version}")
        _raise_for(response)
        if len(response.content) > MAX_PROGRAM:
            raise ArbiterError(f"program {version} is over {MAX_PROGRAM >> 20} MB")
        partial = Path(tempfile.mkdtemp(prefix=f".{version}-", dir=self.cache))
        with tarfile.open(fileobj=io.BytesIO(response.content), mode="r:gz") as archive:
            archive.extractall(partial, filter="data")
        partial.chmod(0o755)
        with contextlib.suppress(OSError):  # another worker of this machine was first
            partial.rename(folder)
        return folder

    def _heartbeat(self, game_id: int, lease: str, seconds: float, stop: threading.Event) -> None:
        while not stop.wait(max(1.0, seconds / 3)):
            with contextlib.suppress(httpx.HTTPError):
                self.client.post(f"/api/worker/games/{game_id}/heartbeat", json={"lease": lease})


def _raise_for(response: httpx.Response) -> None:
    if response.status_code >= 400:
        try:
            why = response.json().get("error", response.text)
        except ValueError:
            why = response.text[:200]
        raise ArbiterError(f"the server refused ({response.status_code}): {why}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="arbiter worker", description=__doc__.split("\n")[0])
    parser.add_argument("url", help="the contest server, e.g. http://host:8000")
    parser.add_argument(
        "--token",
        default=os.environ.get("ARBITER_WORKER_TOKEN"),
        help="the worker's token (or ARBITER_WORKER_TOKEN)",
    )
    parser.add_argument("--name", default="", help="the name the server shows")
    parser.add_argument("--cache", default=None, help="where programs are kept")
    parser.add_argument("--isolation", default="auto")
    parser.add_argument("--games", type=int, default=None, help="stop after this many")
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("a worker needs its token: --token or ARBITER_WORKER_TOKEN")
    cache = Path(args.cache or Path(tempfile.gettempdir()) / f"arbiter-worker-{os.getuid()}")
    cache.mkdir(parents=True, exist_ok=True, mode=0o700)
    interrupt_on_termination()
    worker = Worker(args.url, args.token, cache, isolation=args.isolation, name=args.name)
    try:
        worker.run(args.games)
    except KeyboardInterrupt:
        return 130
    except ArbiterError as e:
        print(f"arbiter worker: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.default_int_handler)
    sys.exit(main())
