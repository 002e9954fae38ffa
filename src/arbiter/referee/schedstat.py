"""How the kernel is scheduling a program's threads, read from ``/proc``: the seconds
they waited, runnable, for a core (``schedstat``'s run delay, counted when a thread
next runs) and whether one is runnable now. What tells a program starved by a busy
machine from an idle one, when the referee looks at a program out of wall time."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Scheduling:
    """:func:`scheduling`: ``waited`` seconds runnable but not running
    (None where the kernel does not count it), and whether a thread is ``runnable``."""

    waited: float | None
    runnable: bool


def scheduling(pids: Iterable[int]) -> Scheduling:
    """The scheduling of every thread of the processes ``pids`` (one that is gone is
    passed over)."""
    total: int | None = 0
    runnable = False
    for pid in pids:
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue  # gone since it was listed
        for task in tasks:
            folder = f"/proc/{pid}/task/{task}"
            try:
                with open(f"{folder}/stat", "rb") as f:
                    runnable |= f.read().rsplit(b")", 1)[1].split()[0] == b"R"
                with open(f"{folder}/schedstat") as f:
                    if total is not None:
                        total += int(f.read().split()[1])
            except (FileNotFoundError, ProcessLookupError, IndexError):
                continue  # a thread that ended
            except (OSError, ValueError):
                total = None  # a kernel that keeps no run delay
    return Scheduling(None if total is None else total / 1e9, runnable)
