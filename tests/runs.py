"""What ties a process to this run of the suite, so that two runs on one machine never
judge each other's processes: every fault tag holds :data:`RUN`, and the check at
the session's end looks for that run's tags only."""

from __future__ import annotations

import os
import signal
import subprocess
import uuid
from collections.abc import Callable

RUN = os.environ.setdefault("ARBITER_TEST_RUN", uuid.uuid4().hex[:12])
"""This run's mark: made by the first process of the run (pytest's controller) and
inherited by its workers through the environment."""


def fault_tag(word: str = "") -> str:
    """A tag for the processes of one test: this run's mark and a word of its own."""
    return f"{RUN}-{word or uuid.uuid4().hex[:12]}"


def interruptible() -> None:
    """Gives a child back the default SIGINT (a ``preexec_fn``): a suite started where
    SIGINT is ignored (in the background of a shell) would pass that on, and the
    child would then never see the Ctrl-C a test sends it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


DRAINING = "finishing the games under way, starting no more"
"""What a referee says on the first Ctrl-C (the drain stop)."""


def stop_now(proc: subprocess.Popen[str], send: Callable[[int], None]) -> list[str]:
    """Stops a referee at once, as a person does: Ctrl-C (``send(SIGINT)``), which asks
    it to drain, then, once it has said so, Ctrl-C again. Returns the lines it wrote
    before the second (the caller reads the rest)."""
    assert proc.stdout is not None
    send(signal.SIGINT)
    seen = []
    for line in proc.stdout:
        seen.append(line)
        if DRAINING in line:
            break
    send(signal.SIGINT)
    return seen
