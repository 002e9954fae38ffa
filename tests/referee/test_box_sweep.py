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


def test_a_programs_own_folder_is_copied_with_its_links_kept_as_links(tmp_path: Path) -> None:
    """A link in a program's folder stays a link in its box: the box never holds a
    copy of what the link points at (a file the program could not read itself)."""
    from arbiter.referee.box import Box
    from arbiter.referee.isolation import Walls

    own = tmp_path / "own"
    own.mkdir()
    (own / "main.py").write_text("print(1)\n")
    secret = tmp_path / "secret.txt"
    secret.write_text("the referee's")
    (own / "peek").symlink_to(secret)
    box = Box(Walls(cgroup=False, own_uid=False, namespaces=False), own_dir=str(own))
    try:
        copied = Path(box.path)
        assert (copied / "main.py").read_text() == "print(1)\n"
        assert (copied / "peek").is_symlink()
        assert os.readlink(copied / "peek") == str(secret)
    finally:
        box.close()
