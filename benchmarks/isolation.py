"""What the walls around a program cost: per program start, per move of a program
spoken to in lines, and per run of a program run once per move (Halma's shape, which
starts hundreds of times a game), at each isolation level this machine gives.

- start: a box made (its work directory, and its uid leased where it has one), a
  trivial program started behind the walls, run to its exit, killed, and the box
  closed: wall milliseconds, median of the runs.
- move: one line sent to an echo program and its reply read, with the suspension
  (freeze and thaw) a contest puts between moves, and the CPU reading that charges
  the reply: wall milliseconds per move, over a few hundred moves.
- run: a once-per-move program (``sh`` writing ``output.txt``) run through the file
  runner: the input file written, the program started behind the walls, waited for,
  charged and its output read: wall milliseconds per run.

    python benchmarks/isolation.py [--runs N] [--moves N]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time

from arbiter.clock import Charging
from arbiter.contract import Supervision
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


async def moves(level: Level, count: int) -> float:
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
        for i in range(count):
            pipe.resume()
            await pipe.send_line(str(i))
            await pipe.read_line(cpu_limit=10.0, wall_limit=30)
            pipe.cpu_time()
            pipe.suspend()
        elapsed = time.perf_counter() - t0
    finally:
        await pipe.close()
        box.close()
    return elapsed / count


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
    args = parser.parse_args()
    print(f"machine: {detect().kind}; {choose('auto').describe(detect())}")
    print(f"{'level':<12} {'start ms':>9} {'move ms':>8} {'file run ms':>12}")
    for level in levels():
        starts = [await start_once(level) for _ in range(args.runs)]
        per_move = await moves(level, args.moves)
        per_run = await runs(level, args.runs)
        print(
            f"{level:<12} {statistics.median(starts) * 1000:9.2f} {per_move * 1000:8.3f} "
            f"{per_run * 1000:12.2f}",
            flush=True,
        )


if __name__ == "__main__":
    asyncio.run(main())
