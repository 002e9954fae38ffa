"""A process's children and descendants, read from the kernel's own list of each
thread's children (``/proc/PID/task/TID/children``), so finding a program's tree
costs what the tree holds, never a scan of every process of the machine.

psutil's ``children()`` reads the parent of every process on the machine to find
one process's children: on a busy machine that was most of the referee's CPU at
each move (a program's CPU time and its suspension list its tree). The kernel keeps
each thread's children itself and Linux shows them (``CONFIG_PROC_CHILDREN``, on
in the distributions' kernels); where it does not, these fall back to psutil.
"""

from __future__ import annotations

import contextlib
import os

import psutil

HAS_CHILDREN_LISTS = os.path.exists(f"/proc/{os.getpid()}/task/{os.getpid()}/children")
"""Whether this kernel lists each thread's children (else psutil scans the machine)."""


def children(pid: int) -> list[int]:
    """The pids of ``pid``'s children (of all its threads); none if it is gone."""
    if not HAS_CHILDREN_LISTS:
        with contextlib.suppress(psutil.Error):
            return [p.pid for p in psutil.Process(pid).children()]
        return []
    found: list[int] = []
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    for thread in threads:
        try:
            with open(f"/proc/{pid}/task/{thread}/children", "rb") as f:
                found += [int(c) for c in f.read().split()]
        except (OSError, ValueError):
            continue  # a thread that ended meanwhile
    return found


def descendants(pid: int) -> list[int]:
    """The pids of every process below ``pid`` (children first, then theirs); a
    process that ends meanwhile is left out, its children with it (they are
    re-parented, to a subreaper that lists them or to init)."""
    if not HAS_CHILDREN_LISTS:
        with contextlib.suppress(psutil.Error):
            return [p.pid for p in psutil.Process(pid).children(recursive=True)]
        return []
    found: list[int] = []
    seen = {pid}
    frontier = [pid]
    while frontier:
        below = [c for p in frontier for c in children(p) if c not in seen]
        seen.update(below)
        found += below
        frontier = below
    return found
