"""The Ray backend: a tournament's games played as tasks on a local Ray instance the
test starts, the results written by the driver to the same database."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from arbiter.cli import main
from arbiter.play.pool import REPLAYS

ray = pytest.importorskip("ray", reason="Ray is not installed here (pip install 'arbiter[ray]')")


def test_a_tournament_on_ray_stores_every_game_once_and_resumes_locally(tmp_path, capsys) -> None:
    db = tmp_path / "cup.db"
    argv = ["tournament", "votey", "--agent", "random", "--agent", "greedy", "--agent", "random"]
    argv += ["--move-time", "0.1", "--db", str(db)]
    assert main([*argv, "--backend", "ray", "--concurrency", "2"]) == 0
    assert not ray.is_initialized()  # the instance started for the series is gone
    with sqlite3.connect(db) as c:
        numbers = [r[0] for r in c.execute("SELECT number FROM games ORDER BY number")]
    assert numbers == [1, 2, 3, 4, 5, 6]
    capsys.readouterr()
    # the same tournament, run again on local workers: nothing is left to play
    assert main(argv) == 0
    assert "6 games (6 already played)" in capsys.readouterr().out


ASSASSIN = """\
import os, signal, sys, time
if sys.argv[-1] == "2":
    sys.stdin.readline()
os.kill(os.getppid(), signal.SIGKILL)
time.sleep(30)
"""


def test_a_game_whose_ray_worker_keeps_dying_stops_the_tournament_with_one_line(
    tmp_path: Path,
) -> None:
    """A program run as the referee's own user can kill the Ray worker refereeing it.
    Its game is played again on a new worker, as on local workers; past the replays
    the tournament stops with a one-line error, keeping every game already played,
    and the games the killer was not in are all played by then or on resuming."""
    script = tmp_path / "assassin.py"
    script.write_text(ASSASSIN)
    (tmp_path / "agents.toml").write_text(
        f'[[agent]]\nname = "assassin"\ncommand = "{sys.executable} {script}"\n'
    )
    db = tmp_path / "cup.db"
    argv = [sys.executable, "-m", "arbiter.cli", "tournament", "votey", "--db", str(db)]
    argv += ["--agent", "random", "--agent", "greedy", "--no-openings", "--isolation", "cgroup"]
    argv += ["--agents", str(tmp_path / "agents.toml"), "--move-time", "0.2"]
    argv += ["--backend", "ray", "--concurrency", "1"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert done.returncode != 0
    assert "Traceback" not in done.stdout + done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert f"its Ray worker died {REPLAYS + 1} times" in last, done.stderr
    with sqlite3.connect(db) as c:
        stored = list(c.execute("SELECT number, reason FROM games ORDER BY number"))
    # the first game to meet the assassin stopped the run; those before it are kept
    assert stored == [(n, r) for n, r in stored if "referee died" not in r]
    assert [n for n, _ in stored] == list(range(1, len(stored) + 1))


def test_a_machine_without_ray_is_told_how_to_get_it(monkeypatch) -> None:
    from arbiter.errors import ConfigError
    from arbiter.tournament.ray_backend import _join_ray

    monkeypatch.setitem(sys.modules, "ray", None)  # as if not installed
    with pytest.raises(
        ConfigError, match=r"the Ray backend needs Ray: pip install 'arbiter\[ray\]'"
    ):
        _join_ray(None)
