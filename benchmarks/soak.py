"""Soak test of the referee: as many games as fit in the time given, with a mix of good
programs and programs committing every fault, at each concurrency asked for.

For each run it prints the games played, the verdicts by reason, the wrong verdicts
(a fault not judged as the fault suite expects, or a good program blamed), the
processes left behind (anything carrying a game's tag after its series), the
referee errors (a game that raised instead of ending), and the slowest game.

    python benchmarks/soak.py --seconds 300 --concurrency 1 2
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterator

import psutil

from arbiter.agents.faulty import VERDICT, Fault
from arbiter.agents.spec import AgentSpec
from arbiter.errors import Reason
from arbiter.games import GAME_NAMES
from arbiter.referee.sandbox import detect
from arbiter.referee.series import GameJob, run_series

GOOD = ("random", "greedy", "program")  # built-in engines, and a good external program


def jobs(rng: random.Random, start: int, count: int, tags: list[str]) -> Iterator[GameJob]:
    """``count`` games from round ``start``: half with a faulty program in a random seat."""
    pids_limit = any(c in ("pids", "unified") for c, _ in detect().parents)
    faults = [f for f in Fault if f is not Fault.FORK_BOMB or pids_limit]
    for i in range(count):
        game = rng.choice(GAME_NAMES)
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
            time_control="st=0.5",
            seed=rng.randrange(1 << 30),
            round=start + i,
            options={"max_plies": 40},
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


def soak(seconds: float, concurrency: int, seed: int, batch: int) -> None:
    rng = random.Random(seed)
    verdicts: Counter[str] = Counter()
    wrong: list[str] = []
    errors = 0
    leftover = 0
    games = 0
    slowest = 0.0
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds:
        tags: list[str] = []
        batch_jobs = list(jobs(rng, games + 1, batch, tags))
        started = time.monotonic()
        try:
            for job, record in run_series(batch_jobs, concurrency):
                games += 1
                verdicts[str(record.reason)] += 1
                faulty = [i for i, a in enumerate(job.agents) if a.name.startswith("fault:")]
                if faulty:
                    seat = faulty[0]
                    fault = Fault(job.agents[seat].name.split(":", 1)[1])
                    expected = VERDICT[fault]
                    lost = record.winner == 1 - seat and record.reason.is_fault
                    ok = (
                        (record.winner, record.reason) == (1 - seat, expected)
                        if expected is not None
                        else not lost
                    )
                    # under a memory limit (Alquerque's 64 MB) a fork bomb may run out of it
                    ok = ok or (
                        fault is Fault.FORK_BOMB and lost and record.reason is Reason.MEMORY
                    )
                elif record.reason.is_fault:
                    ok = False  # a good program blamed
                else:
                    ok = True
                if not ok:
                    wrong.append(
                        f"round {job.round} {job.game} {[a.name for a in job.agents]}: "
                        f"{record.outcome.result()} by {record.reason} ({record.detail})"
                    )
        except Exception as e:  # the referee itself failed: count it and go on
            errors += 1
            print(f"referee error: {type(e).__name__}: {e}", flush=True)
        slowest = max(slowest, (time.monotonic() - started) / max(1, len(batch_jobs)))
        time.sleep(0.5)
        leftover += left(tags)
    elapsed = time.monotonic() - t0
    print(
        f"concurrency {concurrency}: {games} games in {elapsed:.0f}s "
        f"({games / elapsed:.1f} games/s), confinement {detect().kind}"
    )
    print("  verdicts: " + ", ".join(f"{r} {n}" for r, n in verdicts.most_common()))
    print(f"  wrong verdicts: {len(wrong)}")
    for line in wrong[:20]:
        print(f"    {line}")
    print(f"  processes left: {leftover}")
    print(f"  referee errors: {errors}")
    print(f"  mean seconds per game in the slowest batch: {slowest:.2f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=300, help="per concurrency")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=40, help="games per series")
    args = parser.parse_args()
    for k in args.concurrency:
        soak(args.seconds, k, args.seed, args.batch)


if __name__ == "__main__":
    main()
