"""The clock a built-in engine keeps for itself as a contest program."""

from __future__ import annotations

import time

import pytest

from arbiter.agents.program import ProgramClock
from arbiter.clock import TimeControl
from arbiter.referee.supervision import Charging


def test_per_move_budget_is_the_move_time_less_what_the_move_has_cost() -> None:
    clock = ProgramClock(TimeControl.per_move_seconds(2.0), 0, Charging.WALL)
    clock.message_received()
    assert clock.limit().time == pytest.approx(2.0, abs=0.01)
    time.sleep(0.2)
    assert clock.limit().time == pytest.approx(1.8, abs=0.05)


def test_game_clock_is_shared_out_and_counts_down() -> None:
    clock = ProgramClock(TimeControl.parse("30"), 1, Charging.WALL)
    clock.message_received()
    first = clock.limit().time
    assert first == pytest.approx(1.0, abs=0.02)  # 30 s over some 30 moves
    time.sleep(0.3)
    clock.replied()
    assert clock.clock.remaining[1] == pytest.approx(29.7, abs=0.05)
    assert clock.clock.remaining[0] == 30.0


def test_overtime_gives_each_move_the_overtime_allowance() -> None:
    clock = ProgramClock(TimeControl.parse("0.1 ot=1"), 0, Charging.WALL)
    clock.message_received()
    time.sleep(0.15)
    clock.replied()
    assert clock.clock.in_overtime(0)
    clock.message_received()
    assert clock.limit().time == pytest.approx(1.0, abs=0.02)


def test_cpu_charging_counts_start_up_against_the_first_move() -> None:
    clock = ProgramClock(TimeControl.per_move_seconds(1000.0), 0, Charging.CPU)
    # this process has used CPU since it started: the first move is that much shorter
    assert clock.limit().time == pytest.approx(1000.0 - time.process_time(), abs=0.05)
    assert clock.limit().time < 1000.0 - 0.01
