"""How a tournament's pool worker takes the referee's SIGTERM: idle, it ends at once;
playing, it stops its game once, lets that clean-up run even when the pool signals it
again, and ends within its grace whatever the clean-up meets."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

WORKER = """
import os, signal, sys, time
from arbiter.play import series
series._worker_start()
series._STOP_GRACE = 1
series._playing = {playing}
print("ready", flush=True)
try:
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(5)
except KeyboardInterrupt:
    print("game stopping", flush=True)
os.kill(os.getpid(), signal.SIGTERM)  # the pool's second SIGTERM
time.sleep(0.2)
print("clean-up goes on", flush=True)
time.sleep(30)  # a clean-up that never ends
print("still here", flush=True)
"""


def run_worker(playing: bool) -> tuple[list[str], int, float]:
    t0 = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", WORKER.format(playing=playing)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done.stdout.splitlines(), done.returncode, time.monotonic() - t0


def test_an_idle_worker_ends_at_its_first_sigterm() -> None:
    lines, code, _ = run_worker(playing=False)
    assert lines == ["ready"] and code == 128 + signal.SIGTERM


def test_a_playing_worker_stops_its_game_once_and_ends_within_its_grace() -> None:
    lines, code, seconds = run_worker(playing=True)
    assert lines == ["ready", "game stopping", "clean-up goes on"]
    assert code == -signal.SIGALRM and seconds < 20
