"""Shared test settings: the test game is registered with the games."""

import os
import tempfile

from arbiter.games import register
from tests.fakegame import RACE, RACE_FILES

register(RACE)
register(RACE_FILES)

# the misbehaving agent scripts and the test game's program are programs, not test modules
collect_ignore_glob = ["referee/agents/*.py", "fakegame/program.py"]

# records written by the tests are sealed with a key of their own, never the user's
os.environ["ARBITER_RECORD_KEY"] = os.path.join(tempfile.mkdtemp(prefix="arbiter-key-"), "key")


def pytest_sessionfinish(session, exitstatus) -> None:  # type: ignore[no-untyped-def]
    """After the whole suite, nothing it started may still run: no descendant of this
    process (but the watchdog, which ends with it) and no faulty program anywhere."""
    import time

    import psutil

    from arbiter.referee.watchdog import WATCHDOG

    watchdog = WATCHDOG.pid
    deadline = time.monotonic() + 5
    while True:
        left = []
        for p in psutil.Process().children(recursive=True):
            try:
                if p.pid != watchdog and p.status() != psutil.STATUS_ZOMBIE:
                    left.append(f"{p.pid} {' '.join(p.cmdline())[:120]}")
            except psutil.Error:
                continue
        for p in psutil.process_iter(["cmdline", "status"]):
            try:
                words = p.info["cmdline"] or ()
                if "--fault-tag" in words and p.info["status"] != psutil.STATUS_ZOMBIE:
                    left.append(f"{p.pid} {' '.join(words)[:120]}")
            except psutil.Error:
                continue
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    if left:
        print("\nprocesses left running by the tests:\n  " + "\n  ".join(left))
        session.exitstatus = 1
