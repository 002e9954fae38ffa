"""Reading a program's scheduling: a thread that waits for a core is runnable, one
that sleeps is not (the referee forgives a move's time spent waiting for a core only
while the program was runnable)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import psutil
import pytest

from arbiter.referee.schedstat import scheduling


def seen(pid: int, runnable: bool, within: float = 10.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if scheduling([pid]).runnable == runnable:
            return True
        time.sleep(0.01)
    return False


def test_a_busy_program_is_runnable_and_a_sleeping_one_is_not() -> None:
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    idle = subprocess.Popen(
        [sys.executable, "-c", "import time; print('asleep', flush=True); time.sleep(60)"],
        stdout=subprocess.PIPE,
    )
    try:
        assert seen(busy.pid, True)
        assert idle.stdout is not None and idle.stdout.readline() == b"asleep\n"
        assert seen(idle.pid, False)  # in its sleep now, and it stays there
        assert not any(scheduling([idle.pid]).runnable for _ in range(50))
        found = scheduling([busy.pid])
        assert found.waited is None or found.waited >= 0
        assert scheduling([999_999_999]).runnable is False  # gone: passed over
    finally:
        for p in (busy, idle):
            p.kill()
            p.wait()
        if idle.stdout is not None:
            idle.stdout.close()


@pytest.mark.timing  # asserts on measured run and wait times
def test_a_program_sharing_its_core_with_two_others_waits_longer_than_it_runs() -> None:
    # three burners on one core: each runs a third of the time and waits for the core
    # the other two thirds, however busy the rest of the machine is (the kernel's run
    # delay, not its time on the core)
    core = min(os.sched_getaffinity(0))
    burn = f"import os\nos.sched_setaffinity(0, {{{core}}})\nwhile True: pass"
    burners = [subprocess.Popen([sys.executable, "-c", burn]) for _ in range(3)]
    try:
        while min(sum(psutil.Process(p.pid).cpu_times()[:2]) for p in burners) < 0.3:
            time.sleep(0.05)
        for p in burners:
            ran = sum(psutil.Process(p.pid).cpu_times()[:2])
            waited = scheduling([p.pid]).waited
            if waited is None:
                pytest.skip("this kernel keeps no run delay")
            assert waited > 1.5 * ran, (waited, ran)  # two thirds against one
    finally:
        for p in burners:
            p.kill()
            p.wait()
