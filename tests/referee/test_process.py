"""The process layer: an agent's process tree, the line pipe and the file runner."""

from __future__ import annotations

import asyncio
import os
import re
import sys
import time
from pathlib import Path

import pytest

from arbiter.clock import Charging
from arbiter.errors import Crash, Timeout
from arbiter.referee.filerun import FileRunner
from arbiter.referee.pipe import LinePipe, next_look
from arbiter.referee.process import _readable
from arbiter.referee.sandbox import Confinement

ECHO = [
    sys.executable,
    "-c",
    "import sys\nfor line in sys.stdin: print(line.strip()[::-1], flush=True)",
]
BURN = [sys.executable, "-c", "print('ready', flush=True)\nwhile True: pass"]


def test_lines_go_both_ways_and_close_ends_the_program() -> None:
    async def main() -> tuple[str, str, int | None]:
        pipe = LinePipe(ECHO, name="echo")
        await pipe.start()
        await pipe.send_line("1434")
        first = await pipe.read_line(wall_limit=10)
        await pipe.send_line("abc")
        second = await pipe.read_line(wall_limit=10)
        return first, second, await pipe.close()

    assert asyncio.run(main()) == ("4341", "cba", 0)


SUSPENDED_BY = pytest.mark.parametrize(
    "cgroup", [True, False], ids=["cgroup freeze (where there is one)", "SIGSTOP"]
)


@SUSPENDED_BY
def test_a_suspended_program_answers_nothing_until_resumed(cgroup: bool) -> None:
    """What suspension means to the referee, without measuring time: a line sent to a
    suspended program is never answered while it is suspended (on a busy machine a
    running one might answer late, never a stopped one), and is once it resumes."""

    async def main() -> tuple[str, list[str], str]:
        pipe = LinePipe(ECHO, name="echo", confinement=Confinement(cgroup=cgroup))
        await pipe.start()
        await pipe.send_line("ab")
        first = await pipe.read_line(wall_limit=30)
        pipe.suspend()
        await pipe.send_line("cd")
        await asyncio.sleep(0.5)
        held = pipe.pending()
        pipe.resume()
        second = await pipe.read_line(wall_limit=30)
        await pipe.close()
        return first, held, second

    assert asyncio.run(main()) == ("ba", [], "dc")


@pytest.mark.timing
def test_suspended_program_uses_no_cpu_until_resumed() -> None:
    async def main() -> tuple[float, float]:
        pipe = LinePipe(BURN, name="burn")
        await pipe.start()
        await pipe.read_line(wall_limit=10)
        pipe.suspend()
        await asyncio.sleep(0.1)
        before = pipe.cpu_time()
        await asyncio.sleep(0.4)
        still = pipe.cpu_time() - before
        pipe.resume()
        await asyncio.sleep(0.6)
        grown = pipe.cpu_time() - before - still
        await pipe.close()
        return still, grown

    still, grown = asyncio.run(main())
    assert still < 0.05
    assert grown > 0.1  # most of 0.6 s on an idle core; generous for a busy machine


@SUSPENDED_BY
def test_suspension_reaches_a_child_that_left_the_process_group(cgroup: bool) -> None:
    # the child starts a session of its own, so only the list of descendants reaches it
    code = (
        "import subprocess, sys\n"
        "subprocess.Popen([sys.executable, '-c', 'while True: pass'], start_new_session=True)\n"
        "print('ready', flush=True)\n"
        "import time\n"
        "time.sleep(600)\n"
    )

    async def main() -> float:
        pipe = LinePipe(
            [sys.executable, "-c", code], name="detached", confinement=Confinement(cgroup=cgroup)
        )
        await pipe.start()
        await pipe.read_line(wall_limit=10)
        await asyncio.sleep(0.3)
        pipe.suspend()
        await asyncio.sleep(0.1)
        before = pipe.cpu_time()
        await asyncio.sleep(0.5)
        still = pipe.cpu_time() - before
        await pipe.close()
        return still

    assert asyncio.run(main()) < 0.05


def test_reading_from_an_exited_program_is_a_crash_with_its_code() -> None:
    async def main() -> None:
        pipe = LinePipe([sys.executable, "-c", "import sys; sys.exit(7)"], name="quitter")
        await pipe.start()
        try:
            await pipe.read_line(wall_limit=10)
        finally:
            await pipe.close()

    with pytest.raises(Crash, match="exited with code 7"):
        asyncio.run(main())


@pytest.mark.timing  # the referee gives a program's last stderr lines 0.2 s to arrive
def test_a_crash_is_told_with_the_last_line_its_program_said_on_stderr() -> None:
    """Of 30 lines on standard error and blank ones after them, the crash names the
    last that says something: what a program says just before it dies is its reason."""
    said = (
        "import sys\n"
        "for i in range(30): print(f'step {i}', file=sys.stderr)\n"
        "print('\\n\\n', file=sys.stderr); sys.stderr.flush(); sys.exit(3)"
    )

    async def main() -> None:
        pipe = LinePipe([sys.executable, "-c", said], name="talker")
        await pipe.start()
        try:
            await pipe.read_line(wall_limit=10)
        finally:
            await pipe.close()

    with pytest.raises(Crash, match=r"exited with code 3; last stderr: step 29$"):
        asyncio.run(main())


def test_cpu_limit_is_measured_from_the_base_it_is_given() -> None:
    async def main() -> None:
        pipe = LinePipe(BURN, name="burn")
        await pipe.start()
        await pipe.read_line(wall_limit=10)
        try:
            await pipe.read_line(cpu_limit=0.3, cpu_base=pipe.cpu_time(), wall_limit=20)
        finally:
            await pipe.close()

    with pytest.raises(Timeout, match="CPU"):
        asyncio.run(main())


def test_a_program_that_replies_within_its_time_is_not_looked_at_while_it_thinks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # every look reads the program's CPU, memory and processes: on a long clock a
    # move of a fifth of a second needs none, its reply wakes the wait
    import arbiter.referee.pipe as pipe_module

    looks: list[float] = []
    real = pipe_module.check_limits

    def counted(*args: object, **kwargs: object) -> float:
        looks.append(1.0)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pipe_module, "check_limits", counted)
    slow_echo = [
        sys.executable,
        "-c",
        "import sys, time\nfor line in sys.stdin: time.sleep(0.2); print(line.strip(), flush=True)",
    ]

    async def main() -> str:
        pipe = LinePipe(slow_echo, name="slow")
        await pipe.start()
        try:
            await pipe.send_line("ready")
            await pipe.read_line(wall_limit=10)  # started; now a move
            looks.clear()
            await pipe.send_line("move")
            return await pipe.read_line(cpu_limit=60, cpu_base=pipe.cpu_time(), wall_limit=120)
        finally:
            await pipe.close()

    assert asyncio.run(main()) == "move"
    assert looks == []


# -- the file runner ----------------------------------------------------------------

MOVER = """
import os, sys, time
data = open("input.txt").read()
kept = open("playdata.txt").read() if os.path.exists("playdata.txt") else ""
open("playdata.txt", "w").write(kept + "x")
mode = data.split()[0]
if mode == "burn":
    import subprocess
    subprocess.run([sys.executable, "-c", "sum(range(4_000_000))"])
    sum(range(4_000_000))
if mode == "sleep":
    time.sleep(600)
if mode != "silent":
    open("output.txt", "w").write(data.upper() + " " + str(len(kept) + 1))
"""


def runner(tmp_path: Path) -> FileRunner:
    script = tmp_path / "mover.py"
    script.write_text(MOVER)
    # a work directory whose parent is not there yet: a new game makes both
    work = tmp_path / "games" / "work"
    return FileRunner([sys.executable, str(script)], work, name="mover")


def run(r: FileRunner, text: str, **limits):
    options = {"charging": Charging.CPU, "kill_at": 10.0, "wall_limit": 30.0} | limits
    return asyncio.run(r.run(text, **options))


def test_file_runner_keeps_playdata_within_a_game_and_clears_it_between(tmp_path) -> None:
    r = runner(tmp_path)
    r.new_game()
    assert run(r, "go").output == "GO 1"
    assert run(r, "go").output == "GO 2"  # playdata.txt kept between moves
    r.new_game()
    assert run(r, "go").output == "GO 1"


def test_file_runner_charges_cpu_of_the_program_and_its_children(tmp_path) -> None:
    r = runner(tmp_path)
    r.new_game()
    idle = run(r, "go").seconds
    busy = run(r, "burn")
    assert busy.output == "BURN 2"
    # two runs of the same loop, one in a child: both are charged
    one_loop = run(r, "go").seconds
    assert busy.seconds > idle + 0.05 and busy.seconds > one_loop
    wall = run(r, "go", charging=Charging.WALL)
    assert wall.output == "GO 4" and wall.seconds > 0


def test_file_runner_missing_output_is_none_and_an_old_one_is_never_reread(tmp_path) -> None:
    r = runner(tmp_path)
    r.new_game()
    assert run(r, "go").output == "GO 1"
    assert run(r, "silent").output is None


def test_file_runner_kills_a_program_at_its_deadline(tmp_path) -> None:
    r = runner(tmp_path)
    r.new_game()
    with pytest.raises(Timeout, match="wall"):
        run(r, "sleep", wall_limit=0.5)
    with pytest.raises(Timeout, match="CPU"):
        run(r, "burn", kill_at=0.01)


def test_relative_program_paths_are_made_absolute_keeping_symbolic_links(tmp_path) -> None:
    """A virtual environment's python is a link: resolved, it would lose its packages."""
    import os

    from arbiter.referee.supervision import absolute_arguments

    (tmp_path / "env" / "bin").mkdir(parents=True)
    (tmp_path / "env" / "bin" / "python").symlink_to(os.path.realpath("/bin/sh"))
    (tmp_path / "agent.py").write_text("")
    argv = absolute_arguments(["env/bin/python", "agent.py", "--depth", "3"], str(tmp_path))
    assert argv == [str(tmp_path / "env/bin/python"), str(tmp_path / "agent.py"), "--depth", "3"]


def test_a_program_is_started_under_the_open_files_limit() -> None:
    from arbiter.referee.sandbox import OPEN_FILES_LIMIT

    said = "import resource; print(*resource.getrlimit(resource.RLIMIT_NOFILE), flush=True)"

    async def main() -> str:
        pipe = LinePipe([sys.executable, "-c", said], name="limits")
        await pipe.start()
        try:
            return await pipe.read_line(wall_limit=30)
        finally:
            await pipe.close()

    assert asyncio.run(main()) == f"{OPEN_FILES_LIMIT} {OPEN_FILES_LIMIT}"


def _late_reply(wall: float) -> tuple[Timeout, float]:
    """The time-out of a program that answers 0.6 s after it is asked, on a wall
    limit of ``wall`` seconds, and the seconds the referee's read took in all."""
    import time

    program = "import sys, time\nsys.stdin.readline()\ntime.sleep(0.6)\nprint('late', flush=True)"

    async def main() -> tuple[Timeout, float]:
        pipe = LinePipe([sys.executable, "-c", program], name="late")
        await pipe.start()
        try:
            await pipe.send_line("go")
            began = time.monotonic()
            try:
                await pipe.read_line(wall_limit=wall)
            except Timeout as e:
                return e, time.monotonic() - began
            raise AssertionError("no time-out")
        finally:
            await pipe.close()

    return asyncio.run(main())


def test_a_late_reply_is_late_by_the_time_past_the_limit(monkeypatch) -> None:
    # the referee looks at a program past its limit before stopping it: a reply in that
    # look is kept, and said late by how long after the limit it came, no more
    monkeypatch.setattr("arbiter.referee.pipe.IDLE_LOOK", 30.0)
    fault, took = _late_reply(0.3)
    assert fault.late == "late"
    late = float(fault.detail.split("replied ")[1].split("s late")[0])
    assert late > 0 and late + 0.3 <= took + 0.01, (late, took)


@pytest.mark.parametrize("left", [0.02, 0.1, 0.3])
def test_a_program_on_every_core_is_looked_at_before_it_can_pass_its_cpu_limit(
    left: float,
) -> None:
    # a program's CPU time left runs out soonest with every core of the machine busy:
    # the referee's next look comes by then, or a many-threaded program is seen past
    # its limit by a multiple of what it was allowed
    wait = next_look(0.001, 5.0 - left, 5.0, 0.0, None)
    assert wait * (os.cpu_count() or 1) <= left + 1e-9


@pytest.mark.timing
def test_a_program_s_exit_wakes_the_wait_for_it_at_once() -> None:
    # the wait for a program's exit reads its pidfd: ready, it must return at once,
    # not at its timeout (every program's end would cost its game that timeout)
    r, w = os.pipe()
    try:
        os.write(w, b"x")
        start = time.monotonic()
        asyncio.run(_readable(r, 5.0))
        assert time.monotonic() - start < 1.0
    finally:
        os.close(r)
        os.close(w)


@pytest.mark.timing  # asserts on a measured share of a core
def test_a_program_out_of_wall_time_is_said_to_use_at_most_the_core_it_has() -> None:
    # its share of a core is its CPU over the look's own length: a one-thread burner
    # computes at most all of one core, whatever the machine's load
    async def main() -> None:
        pipe = LinePipe(BURN, name="burner")
        await pipe.start()
        try:
            await pipe.read_line(wall_limit=10)
            await pipe.read_line(wall_limit=0.3)
        finally:
            await pipe.close()

    with pytest.raises(Timeout) as stopped:
        asyncio.run(main())
    share = re.search(r"(\d+)% of a core", str(stopped.value))
    assert share is not None and int(share.group(1)) <= 120, stopped.value
