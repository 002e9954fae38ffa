"""A program cannot compute on its opponent's time: from its reply until it is told
the next move its whole process is suspended (the sheets' and RULES.md's ruling for
every game with a waiting program)."""

from __future__ import annotations

import re
import sys

import pytest

from arbiter.cli import main

pytestmark = pytest.mark.timing  # what these tests assert depends on measured time

PLAYER = """\
import sys, threading, time
from arbiter.agents.random import RandomAgent
from arbiter.contract import AgentRun
from arbiter.games import find_game

mode, game_name, args = sys.argv[1], sys.argv[2], sys.argv[3:]


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
        if self.mark is not None and mode == "spin":
            cpu, wall = self.mark
            print("wait", time.process_time() - cpu, time.perf_counter() - wall, file=sys.stderr)


if mode == "spin":
    threading.Thread(target=spin, daemon=True).start()
spec = find_game(game_name)
run = AgentRun(spec.time_control, sys.stdin, sys.stdout, sys.stderr)
sys.exit(spec.serve(Player(), spec.make(), args, run))
"""


def waits(tmp_path, game: str, *flags: str) -> list[tuple[float, float]]:
    """Plays the spinner (first) against a player that takes 0.2 s a move; returns the
    spinner's (CPU, wall) seconds of each wait, as it wrote them to its standard error
    (kept in its transcript)."""
    script = tmp_path / "player.py"
    script.write_text(PLAYER)
    logs = tmp_path / "logs"

    def player(mode: str) -> str:
        return f"{sys.executable} {script} {mode} {game}"

    argv = ["match", game, player("spin"), player("slow"), "--games", "1", "--max-plies", "14"]
    assert main([*argv, *flags, "--names", "spin", "slow", "--log-dir", str(logs)]) == 0
    text = (logs / "game-0001" / "1-spin.log").read_text()
    return [(float(c), float(w)) for c, w in re.findall(r" e wait (\S+) (\S+)$", text, re.M)]


@pytest.mark.parametrize("game", ["votey", "checkers", "alquerque", "chinese-checkers"])
def test_a_waiting_program_that_spins_gains_no_cpu(tmp_path, game: str) -> None:
    found = waits(tmp_path, game)
    cpu, wall = sum(c for c, _ in found), sum(w for _, w in found)
    assert len(found) >= 5 and wall > 5 * 0.2, found
    assert cpu < 0.1 * wall, found


def test_without_suspension_the_same_measure_sees_the_spinning(tmp_path) -> None:
    """The control: the measurement would catch a program left running.

    Left running, the spinner takes a whole core on an idle machine (about 1.0 of the
    wall time) and still 0.44 of it on a CI machine whose two cores ran two test
    workers besides; suspended, it takes 0.03. The bound sits well between both, and
    2.5 times above the suspended test's 0.1."""
    found = waits(tmp_path, "chinese-checkers", "--no-suspend")
    cpu, wall = sum(c for c, _ in found), sum(w for _, w in found)
    assert cpu > 0.25 * wall, found
