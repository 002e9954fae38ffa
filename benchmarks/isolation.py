"""What the walls around a program cost: per program start, per move of a program
spoken to in lines, and per run of a program run once per move (Halma's shape, which
starts hundreds of times a game), at each isolation level this machine gives.

- start: a box made (its work directory, and its uid leased where it has one), a
  trivial program started behind the walls, run to its exit, killed, and the box
  closed: wall milliseconds, median of the runs.
- move: one line sent to an echo program and its reply read, with the suspension
  (freeze and thaw) a contest puts between moves, and the CPU reading that charges
  the reply: wall milliseconds per move, over a few hundred moves, and the
  referee's own CPU milliseconds per move (user+sys of this process) with the
  program's tree found from the kernel's lists of children (``lists``) and, side
  by side in the same run, by a scan of every process of the machine (``scan``,
  what the referee did before, and still does on a kernel without the lists).
  ``--busy N`` starts N idle processes first, as a machine running a contest has.
- run: a once-per-move program (``sh`` writing ``output.txt``) run through the file
  runner: the input file written, the program started behind the walls, waited for,
  charged and its output read: wall milliseconds per run.

    python benchmarks/isolation.py [--runs N] [--moves N]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator

import psutil

from arbiter.clock import Charging
from arbiter.contract import Supervision
from arbiter.referee import descendants
from arbiter.referee.box import Box
from arbiter.referee.filerun import FileRunner
from arbiter.referee.isolation import Level, choose
from arbiter.referee.pipe import LinePipe
from arbiter.referee.process import AgentProcess
from arbiter.referee.sandbox import detect
from arbiter.referee.supervision import confinement, program_environment, walls

ECHO = [sys.executable, "-u", "-c", "import sys\nfor line in sys.stdin: print(line, end='')"]
WRITER = ["/bin/sh", "-c", "echo 'E 4,1 5,2' > output.txt"]


def levels() -> list[Level]:
    """The levels this machine gives, weakest first."""
    found = []
    for level in (Level.RLIMITS, Level.CGROUP, Level.USER, Level.NAMESPACES):
        try:
            walls = choose(level)
        except Exception:
            continue
        if walls.level is level:
            found.append(level)
    return found


async def start_once(level: Level) -> float:
    supervision = Supervision(isolation=str(level))
    t0 = time.perf_counter()
    box = Box(walls(supervision), argv=["/bin/true"], name="true")
    try:
        process = AgentProcess(
            ["/bin/true"],
            cwd=box.path,
            stdin=False,
            env=program_environment(box.path),
            confinement=confinement(supervision),
            box=box,
        )
        await process.start()
        await process.wait(timeout=10)
        await process.kill()
    finally:
        box.close()
    return time.perf_counter() - t0


async def moves(level: Level, count: int) -> tuple[float, float]:
    """Wall and referee CPU seconds per move."""
    supervision = Supervision(isolation=str(level))
    box = Box(walls(supervision), argv=ECHO, name="echo")
    pipe = LinePipe(
        ECHO,
        cwd=box.path,
        env=program_environment(box.path),
        confinement=confinement(supervision),
        box=box,
    )
    try:
        await pipe.start()
        await pipe.send_line("warm-up")
        await pipe.read_line(wall_limit=30)
        pipe.suspend()
        t0 = time.perf_counter()
        c0 = time.process_time()
        for i in range(count):
            pipe.resume()
            await pipe.send_line(str(i))
            await pipe.read_line(cpu_limit=10.0, wall_limit=30)
            pipe.cpu_time()
            pipe.suspend()
        elapsed = time.perf_counter() - t0
        cpu = time.process_time() - c0
    finally:
        await pipe.close()
        box.close()
    return elapsed / count, cpu / count


@contextlib.contextmanager
def busy(count: int) -> Iterator[None]:
    """``count`` idle processes on the machine for the while."""
    idle = [subprocess.Popen(["sleep", "3600"]) for _ in range(count)]
    try:
        yield
    finally:
        for p in idle:
            p.kill()
            p.wait()


async def runs(level: Level, count: int) -> float:
    supervision = Supervision(isolation=str(level))
    box = Box(walls(supervision), argv=WRITER, name="writer")
    runner = FileRunner(
        WRITER,
        box.path,
        env=program_environment(box.path),
        confinement=confinement(supervision),
        box=box,
    )
    times = []
    try:
        runner.new_game()
        for _ in range(count):
            t0 = time.perf_counter()
            result = await runner.run(
                "GAME\n", charging=Charging.CPU, kill_at=10.0, wall_limit=30.0
            )
            times.append(time.perf_counter() - t0)
            assert result.output is not None, "the program wrote no output.txt"
    finally:
        box.close()
    return statistics.median(times)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=40, help="program starts per level")
    parser.add_argument("--moves", type=int, default=400, help="moves per level")
    parser.add_argument("--busy", type=int, default=0, help="idle processes started first")
    args = parser.parse_args()
    print(f"machine: {detect().kind}; {choose('auto').describe(detect())}")
    with busy(args.busy):
        print(f"processes on the machine: {len(psutil.pids())}")
        print(
            f"{'level':<12} {'start ms':>9} {'move ms':>8} {'file run ms':>12} "
            f"{'CPU/move ms: lists':>19} {'scan':>7}"
        )
        lists = descendants.HAS_CHILDREN_LISTS
        for level in levels():
            starts = [await start_once(level) for _ in range(args.runs)]
            descendants.HAS_CHILDREN_LISTS = False
            _, scanned = await moves(level, args.moves)
            descendants.HAS_CHILDREN_LISTS = lists
            per_move, cpu = await moves(level, args.moves)
            per_run = await runs(level, args.runs)
            print(
                f"{level:<12} {statistics.median(starts) * 1000:9.2f} {per_move * 1000:8.3f} "
                f"{per_run * 1000:12.2f} {cpu * 1000:19.3f} {scanned * 1000:7.3f}"
                + ("" if lists else "  (this kernel has no lists: both scan)"),
                flush=True,
            )


if __name__ == "__main__":
    asyncio.run(main())
