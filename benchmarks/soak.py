"""Soak test of the referee: as many games as fit in the time given, with a mix of good
programs and programs committing every fault, at each concurrency asked for.

For each run it prints the games played, the verdicts by reason, the wrong verdicts
(a fault not judged as the fault suite expects, :func:`arbiter.agents.faulty.acceptable`,
for that game's protocol, or a good program blamed), the processes left behind
(anything carrying a game's tag after its series), the programs' work directories
left behind, the referee errors (a series that raised instead of ending), and the
slowest game. Programs run behind every wall the machine has (``--isolation``).
Built-in engines (alphabeta among them) play on the contests' charging beside the
programs, and a game a built-in engine lost on time is counted apart: it must be none,
also with ``--burners N`` processes burning CPU beside the soak (a busy machine).

    python benchmarks/soak.py --seconds 300 --concurrency 1 2
    python benchmarks/soak.py --games 2000 --concurrency 2 --burners 4
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

import psutil

from arbiter.agents.faults import Fault
from arbiter.agents.faulty import NOT_ONCE_PER_MOVE, acceptable
from arbiter.agents.spec import AgentSpec
from arbiter.errors import Reason
from arbiter.games import GAME_NAMES, find_game
from arbiter.play.checkagent import busy_machine
from arbiter.play.series import GameJob, run_series
from arbiter.referee.file_seat import runs_once_per_move
from arbiter.referee.isolation import choose
from arbiter.referee.sandbox import detect

GOOD = ("random", "greedy", "alphabeta", "program")  # built-in engines, a good program


def jobs(
    rng: random.Random, start: int, count: int, tags: list[str], isolation: str
) -> Iterator[GameJob]:
    """``count`` games from round ``start``: half with a faulty program in a random seat."""
    pids_limit = any(c in ("pids", "unified") for c, _ in detect().parents)
    walls = choose(isolation)
    for i in range(count):
        game = rng.choice(GAME_NAMES)
        spec = find_game(game)
        faults = [
            f
            for f in Fault
            if (f is not Fault.FORK_BOMB or pids_limit)
            and (f is not Fault.KILL_PARENT or walls.own_uid or walls.namespaces)
            and not (runs_once_per_move(spec) and f in NOT_ONCE_PER_MOVE)
        ]
        base = [sys.executable, "-m", "arbiter.cli", "agent", game, "--engine", "random"]
        seats = []
        for _ in range(2):
            kind = rng.choice(GOOD)
            if kind == "program":
                seats.append(AgentSpec.parse(" ".join(base), name="program"))
            else:
                seats.append(AgentSpec.parse(kind))
        fault: Fault | None = None
        if rng.random() < 0.5:
            fault = rng.choice(faults)
            tag = uuid.uuid4().hex
            tags.append(tag)
            command = " ".join([*base, "--fault", str(fault), "--fault-tag", tag])
            seats[rng.randrange(2)] = AgentSpec.parse(command, name=f"fault:{fault}")
        yield GameJob(
            game=game,
            agents=(seats[0], seats[1]),
            # a clock on wall time (Alquerque's) counts a program's start-up and a
            # loaded machine: it gets more of it
            time_control="st=2" if spec.supervision.charging == "wall" else "st=0.5",
            seed=rng.randrange(1 << 30),
            number=start + i,
            options={"max_plies": 40},
            supervision=replace(spec.supervision, isolation=isolation),
        )


def left(tags: list[str]) -> int:
    """Live processes carrying any of ``tags``."""
    wanted = set(tags)
    count = 0
    for p in psutil.process_iter(["cmdline", "status"]):
        try:
            words = set(p.info["cmdline"] or ())
            if p.info["status"] != psutil.STATUS_ZOMBIE and words & wanted:
                count += 1
        except psutil.Error:
            continue
    return count


def own_temporary_folder() -> str:
    """A temporary folder for this soak's games alone (their work directories and
    capped disks are made in it), so that what is counted as left behind is what its
    own games left, never another referee's games running on the same machine."""
    folder = tempfile.mkdtemp(prefix="arbiter-soak-")
    os.chmod(folder, 0o755)  # programs behind the walls run as other users
    os.environ["TMPDIR"] = folder  # for the processes the games start
    tempfile.tempdir = folder
    return folder


def mounts(folder: str) -> int:
    """The capped disks of this soak's programs still mounted."""
    with open("/proc/self/mounts") as f:
        return sum(f"{folder}/arbiter-game-" in line for line in f)


def boxes(folder: str) -> set[str]:
    """The work directories of this soak's programs still there."""
    return {b for b in os.listdir(folder) if b.startswith("arbiter-game-")}


def soak(
    seconds: float, games_wanted: int, concurrency: int, seed: int, batch: int, isolation: str
) -> None:
    rng = random.Random(seed)
    walls = choose(isolation)
    folder = own_temporary_folder()
    verdicts: Counter[str] = Counter()
    wrong: list[str] = []
    engine_time_losses: list[str] = []
    errors = 0
    leftover = 0
    games = 0
    slowest = 0.0
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds and games < games_wanted:
        tags: list[str] = []
        size = min(batch, games_wanted - games)
        batch_jobs = list(jobs(rng, games + 1, size, tags, isolation))
        started = time.monotonic()
        try:
            for job, record in run_series(batch_jobs, concurrency):
                games += 1
                verdicts[str(record.reason)] += 1
                faulty = [i for i, a in enumerate(job.agents) if a.name.startswith("fault:")]
                if faulty:
                    seat = faulty[0]
                    fault = Fault(job.agents[seat].name.split(":", 1)[1])
                    spec = find_game(job.game)
                    rulings = acceptable(
                        fault,
                        once_per_move=runs_once_per_move(spec),
                        single_process=spec.supervision.single_process,
                        memory_limit=spec.supervision.memory_limit is not None,
                        walled=walls.own_uid or walls.namespaces,
                    )
                    lost = record.winner == 1 - seat and record.reason.is_fault
                    ok = (record.reason if lost else None) in rulings
                elif record.reason.is_fault:
                    ok = False  # a good program blamed
                else:
                    ok = True
                if record.reason is Reason.TIME and record.winner is not None:
                    loser = job.agents[1 - record.winner]
                    if loser.program is None:
                        engine_time_losses.append(f"round {job.number} {job.game} {loser.name}")
                if not ok:
                    wrong.append(
                        f"round {job.number} {job.game} {[a.name for a in job.agents]}: "
                        f"{record.outcome.result()} by {record.reason} ({record.detail})"
                    )
        except Exception as e:  # the referee itself failed: count it and go on
            errors += 1
            print(f"referee error: {type(e).__name__}: {e}", flush=True)
        slowest = max(slowest, (time.monotonic() - started) / max(1, len(batch_jobs)))
        time.sleep(0.5)
        leftover += left(tags)
    elapsed = time.monotonic() - t0
    time.sleep(1)
    folders = len(boxes(folder))
    print(
        f"concurrency {concurrency}: {games} games in {elapsed:.0f}s "
        f"({games / elapsed:.1f} games/s), {walls.describe(detect())}"
    )
    print("  verdicts: " + ", ".join(f"{r} {n}" for r, n in verdicts.most_common()))
    print(f"  wrong verdicts: {len(wrong)}")
    for line in wrong[:20]:
        print(f"    {line}")
    print(f"  time losses by a built-in engine: {len(engine_time_losses)}")
    for line in engine_time_losses[:20]:
        print(f"    {line}")
    print(f"  processes left: {leftover}")
    print(f"  work directories left: {folders}")
    print(f"  disks left mounted: {mounts(folder)}")
    print(f"  referee errors: {errors}")
    print(f"  mean seconds per game in the slowest batch: {slowest:.2f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=300, help="per concurrency")
    parser.add_argument("--games", type=int, default=10**9, help="at most, per concurrency")
    parser.add_argument("--isolation", default="auto", help="the walls (default: all there are)")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=40, help="games per series")
    parser.add_argument(
        "--burners", type=int, default=0, help="processes burning CPU beside the soak"
    )
    args = parser.parse_args()
    if args.burners:
        print(f"{args.burners} CPU burners beside the soak", flush=True)
    with busy_machine(args.burners):
        for k in args.concurrency:
            soak(args.seconds, args.games, k, args.seed, args.batch, args.isolation)


if __name__ == "__main__":
    main()
