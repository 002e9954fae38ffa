"""The Ray backend: a tournament's games played as tasks on a local Ray instance the
test starts, the results written by the driver to the same database."""

from __future__ import annotations

import sqlite3

import pytest

from arbiter.cli import main

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
