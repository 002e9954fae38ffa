"""The clock a built-in engine keeps for itself as a contest program."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from arbiter.agents.program import SPENT_MARGIN, UNSEEN, ProgramClock
from arbiter.clock import Charging, TimeControl

pytestmark = pytest.mark.timing  # what these tests assert depends on measured time


def started(tc: str, seat: int = 0) -> tuple[ProgramClock, float]:
    """A wall-charged clock past its first move (that move charged nothing: the program
    began just now), and the moment before its second move began."""
    clock = ProgramClock(TimeControl.parse(tc), seat, Charging.WALL, began=time.perf_counter())
    clock.message_received()
    clock.replied()
    t0 = time.perf_counter()
    clock.message_received()
    return clock, t0


def test_per_move_budget_is_the_move_time_less_what_the_move_has_cost() -> None:
    clock, t0 = started("st=2")
    limit = clock.limit()
    assert limit.time is not None and limit.wall
    # the referee's wall time also counts what the program cannot see: UNSEEN a move
    assert 2.0 - (time.perf_counter() - t0) - UNSEEN <= limit.time <= 2.0 - UNSEEN
    time.sleep(0.2)
    left = clock.limit().time
    assert 2.0 - (time.perf_counter() - t0) - UNSEEN <= left <= 2.0 - 0.2 - UNSEEN


def test_game_clock_is_given_as_it_stands_and_counts_down() -> None:
    clock, t0 = started("30", seat=1)
    before = clock.clock.remaining[1]
    assert before == pytest.approx(30.0, abs=0.05)  # the first move cost (almost) nothing
    time.sleep(0.3)
    limit = clock.limit()
    spent = time.perf_counter() - t0
    assert limit.time is None and limit.wall
    assert before - spent - UNSEEN <= limit.my_clock <= before - 0.3 - UNSEEN
    assert limit.budget(moves_to_go=25) == pytest.approx(limit.my_clock / 25)
    clock.replied()
    left = clock.clock.remaining[1]
    assert before - (time.perf_counter() - t0) - UNSEEN <= left <= before - 0.3 - UNSEEN
    assert clock.clock.remaining[0] == 30.0


def test_overtime_gives_each_move_the_overtime_allowance() -> None:
    clock, _ = started("0.1 ot=1")
    time.sleep(0.15)
    clock.replied()
    assert clock.clock.in_overtime(0)
    t0 = time.perf_counter()
    clock.message_received()
    left = clock.limit().time
    assert 1.0 - (time.perf_counter() - t0) - UNSEEN <= left <= 1.0 - UNSEEN


def test_the_first_move_is_charged_from_the_program_s_start() -> None:
    clock = ProgramClock(
        TimeControl.parse("st=2"), 0, Charging.WALL, began=time.perf_counter() - 0.5
    )
    assert clock.limit().time <= 1.5


def test_cpu_charging_counts_start_up_against_the_first_move() -> None:
    clock = ProgramClock(TimeControl.per_move_seconds(1000.0), 0, Charging.CPU)
    # this process has used CPU since it started: the first move is that much shorter
    assert clock.limit().time == pytest.approx(1000.0 - time.process_time(), abs=0.05)
    assert clock.limit().time < 1000.0 - 0.01


def test_wall_charging_counts_the_time_since_the_program_started_against_the_first_move() -> None:
    """A program that took 0.5 s to start (and its interpreter's start-up) has that much
    less for its first move: no less than what passed since it was started."""
    code = (
        "import time; time.sleep(0.5)\n"
        "from arbiter.agents.program import SPENT_MARGIN, UNSEEN, ProgramClock\n"
        "from arbiter.clock import Charging, TimeControl\n"
        "clock = ProgramClock(TimeControl.per_move_seconds(1000.0), 0, Charging.WALL)\n"
        "clock.message_received()\n"
        "print(clock.limit().time, flush=True)\n"
        "clock.replied()\n"
        "print(clock.clock.remaining[0])\n"
    )
    t0 = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    limit = float(child.stdout.readline())
    age = time.perf_counter() - t0  # at least the child's age when it measured
    remaining = float(child.stdout.readline())
    assert child.wait(timeout=30) == 0
    assert 1000.0 - age - 0.05 <= limit <= 1000.0 - 0.5
    assert remaining == pytest.approx(1000.0)  # per move: refilled


def test_the_base_time_counts_as_spent_a_margin_before_it_runs_out() -> None:
    """A program that took its last hundredth of a second as time in hand would make
    its next move, judged by the referee, in overtime: Chinese checkers' home rule
    then costs it the game (seen in a CI run)."""
    clock, _ = started("1 ot=1")
    assert not clock.out_of_time()
    clock.clock = clock.clock.spend(0, 1.0 - SPENT_MARGIN / 2)
    assert not clock.clock.in_overtime(0)
    assert clock.out_of_time()


def test_a_wall_charged_clock_counts_what_the_program_cannot_see_on_every_move() -> None:
    """On a loaded machine the referee's message and the reply wait for the scheduler,
    time the referee charges and the program never sees: counted at UNSEEN a move, a
    hundred instant moves of a 4 s game clock leave the program 2 s, not 4 (a built-in
    engine had lost on time with 0.01 s left when it thought it had half a second)."""
    wall = ProgramClock(TimeControl.parse("4"), 0, Charging.WALL, began=time.perf_counter())
    cpu = ProgramClock(TimeControl.parse("4"), 0, Charging.CPU)
    before = []
    for clock in (wall, cpu):
        clock.replied()  # the first move, charged from the program's start
        before.append(clock.clock.remaining[0])
        for _ in range(100):
            clock.message_received()
            clock.replied()
    assert wall.clock.remaining[0] == pytest.approx(before[0] - 100 * UNSEEN, abs=0.05)
    assert cpu.clock.remaining[0] > before[1] - 0.05  # CPU time: only what it uses
