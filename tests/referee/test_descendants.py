"""A program's tree is found from the kernel's lists of each process's children: every
descendant (a grandchild started by a thread, one whose parent went on living), and
the same tree as a scan of the whole machine finds."""

from __future__ import annotations

import subprocess
import sys
import time

import psutil
import pytest

from arbiter.referee import descendants
from arbiter.referee.descendants import children

TREE = """
import os, subprocess, sys, threading, time
kids = [subprocess.Popen(["sleep", "30"])]
def spawn():  # a child started by another thread of the process
    kids.append(subprocess.Popen([sys.executable, "-c",
        "import subprocess, time; subprocess.Popen(['sleep', '30']); time.sleep(30)"]))
t = threading.Thread(target=spawn); t.start(); t.join()
print("ready", flush=True)
time.sleep(30)
"""


@pytest.fixture
def tree() -> psutil.Process:
    process = subprocess.Popen([sys.executable, "-c", TREE], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None and process.stdout.readline() == "ready\n"
    root = psutil.Process(process.pid)
    deadline = time.monotonic() + 10
    while len(root.children(recursive=True)) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)  # the grandchild's own child is started
    yield root
    for p in [root, *root.children(recursive=True)]:
        p.kill()
    process.wait()


def test_the_tree_is_what_a_scan_of_the_machine_finds(tree: psutil.Process) -> None:
    scanned = sorted(p.pid for p in tree.children(recursive=True))
    assert len(scanned) == 3
    assert sorted(descendants.descendants(tree.pid)) == scanned
    assert sorted(children(tree.pid)) == sorted(p.pid for p in tree.children())


def test_a_kernel_without_the_lists_falls_back_to_the_scan(
    tree: psutil.Process, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = sorted(descendants.descendants(tree.pid))
    monkeypatch.setattr(descendants, "HAS_CHILDREN_LISTS", False)
    assert sorted(descendants.descendants(tree.pid)) == found
    assert children(999_999_999) == [] and descendants.descendants(999_999_999) == []
