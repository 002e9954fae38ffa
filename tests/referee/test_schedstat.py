"""Reading a program's scheduling: a thread that waits for a core is runnable, one
that sleeps is not (the referee forgives a move's time spent waiting for a core only
while the program was runnable)."""

from __future__ import annotations

import subprocess
import sys
import time

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
