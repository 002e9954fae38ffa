"""A program that kills or stops the process refereeing it (possible only behind the
lower walls, where it runs as the referee's own user) costs that game a replay, then
the game; the tournament goes on, stores every game once and resumes."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from arbiter.errors import Reason
from arbiter.play.pool import REPLAYS

ARBITER = [sys.executable, "-m", "arbiter.cli"]

ASSASSIN = """\
import os, signal, sys, time
colour = sys.argv[-1]
if colour == "2":
    sys.stdin.readline()
os.kill(os.getppid(), getattr(signal, sys.argv[1]))
time.sleep(30)
"""


def games(db: Path) -> list[tuple[int, str, str, str]]:
    with sqlite3.connect(db) as c:
        query = """SELECT g.number, a.name, b.name, g.reason || ': ' || g.detail
                   FROM games g
                   JOIN agents a ON a.tournament = g.tournament AND a.number = g.first
                   JOIN agents b ON b.tournament = g.tournament AND b.number = g.second
                   ORDER BY g.number"""
        return list(c.execute(query))


@pytest.mark.parametrize("sig", ["SIGKILL", "SIGSTOP"])
def test_a_program_that_kills_or_stops_its_worker_loses_and_the_tournament_goes_on(
    tmp_path: Path, sig: str
) -> None:
    script = tmp_path / "assassin.py"
    script.write_text(ASSASSIN)
    db = tmp_path / "cup.db"
    argv = [*ARBITER, "tournament", "votey", "--db", str(db), "--isolation", "cgroup"]
    argv += ["--agent", "random", "--agent", "greedy", "--no-openings"]
    argv += ["--agents", str(tmp_path / "agents.toml"), "--move-time", "0.2"]
    (tmp_path / "agents.toml").write_text(
        f'[[agent]]\nname = "assassin"\ncommand = "{sys.executable} {script} {sig}"\n'
    )
    for _ in range(2):  # the second run resumes: nothing is left to play
        done = subprocess.run(argv, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "Traceback" not in done.stdout + done.stderr
    found = games(db)
    assert [g[0] for g in found] == list(range(1, 7))  # 3 pairings x 2 games, once each
    for _, first, second, reason in found:
        if "assassin" in (first, second):
            assert reason.startswith(f"{Reason.CRASH}: its referee died during its move")
            assert f"({REPLAYS + 1} times" in reason
        else:
            assert "referee died" not in reason
    with sqlite3.connect(db) as c:
        winners = c.execute(
            "SELECT count(*) FROM games g JOIN agents a ON a.tournament = g.tournament "
            "AND a.name = 'assassin' WHERE (g.first = a.number AND g.winner = 0) "
            "OR (g.second = a.number AND g.winner = 1)"
        ).fetchone()[0]
    assert winners == 0  # the assassin won nothing
