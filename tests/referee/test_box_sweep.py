"""Sweeping boxes left behind: a referee killed outright leaves its boxes' folders;
the next one removes those of referees that are gone, never a running one's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from arbiter.referee.box import BOX_PREFIX, sweep_boxes


def test_only_the_boxes_of_referees_that_are_gone_are_swept(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    gone = int(done.stdout)  # a process that has ended (its pid not reused this soon)
    live = tmp_path / f"{BOX_PREFIX}{os.getpid()}-1"
    dead = tmp_path / f"{BOX_PREFIX}{gone}-1"
    other = tmp_path / "someone-else"
    for folder in (live, dead, other):
        (folder / "work").mkdir(parents=True)
    sweep_boxes(str(tmp_path))
    assert live.is_dir() and other.is_dir()
    assert not dead.exists()
