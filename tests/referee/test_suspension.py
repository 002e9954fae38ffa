"""A program cannot compute on its opponent's time: from its reply until it is told
the next move its whole process is suspended (the sheets' and RULES.md's ruling for
every game with a waiting program)."""

from __future__ import annotations

import sys

import pytest

from arbiter.cli import main

PLAYER = """\
import sys, threading, time
from arbiter.agents.random import RandomAgent
from arbiter.contract import AgentRun
from arbiter.games import find_game

log, mode, game_name, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]


def spin():  # thinks all the time, the opponent's time included, if it can
    while True:
        pass


class Player(RandomAgent):
    \"\"\"Random moves; logs the CPU and wall time of each wait for the opponent, from
    just before its reply goes out to the moment the opponent's move is read.\"\"\"

    mark = None

    def choose(self, s, limit):
        if mode == "slow":
            time.sleep(0.2)
        m = super().choose(s, limit)
        self.mark = (time.process_time(), time.perf_counter())
        return m

    def observe(self, s, m):
        if self.mark is not None:
            cpu, wall = self.mark
            with open(log, "a") as out:
                out.write(f"{time.process_time() - cpu} {time.perf_counter() - wall}\\n")


if mode == "spin":
    threading.Thread(target=spin, daemon=True).start()
spec = find_game(game_name)
run = AgentRun(spec.time_control, sys.stdin, sys.stdout, sys.stderr)
sys.exit(spec.referee.serve(Player(), spec.make(), args, run))
"""


def waits(tmp_path, game: str, *flags: str) -> list[tuple[float, float]]:
    """Plays the spinner (first) against a player that takes 0.2 s a move; returns the
    spinner's (CPU, wall) seconds of each wait."""
    script = tmp_path / "player.py"
    script.write_text(PLAYER)
    log = tmp_path / "waits"

    def player(mode: str) -> str:
        out = log if mode == "spin" else "/dev/null"
        return f"{sys.executable} {script} {out} {mode} {game}"

    argv = ["match", game, player("spin"), player("slow"), "--games", "1", "--max-plies", "14"]
    assert main([*argv, *flags]) == 0
    return [
        (float(c), float(w)) for c, w in (line.split() for line in log.read_text().splitlines())
    ]


@pytest.mark.parametrize("game", ["votey", "checkers", "alquerque", "chinese-checkers"])
def test_a_waiting_program_that_spins_gains_no_cpu(tmp_path, game: str) -> None:
    found = waits(tmp_path, game)
    cpu, wall = sum(c for c, _ in found), sum(w for _, w in found)
    assert len(found) >= 5 and wall > 5 * 0.2, found
    assert cpu < 0.1 * wall, found


def test_without_suspension_the_same_measure_sees_the_spinning(tmp_path) -> None:
    """The control: the measurement would catch a program left running."""
    found = waits(tmp_path, "chinese-checkers", "--no-suspend")
    cpu, wall = sum(c for c, _ in found), sum(w for _, w in found)
    assert cpu > 0.5 * wall, found
