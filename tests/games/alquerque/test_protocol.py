"""The CodeCup jury dialogue, both sides, line by line."""

from __future__ import annotations

import asyncio
import io

import pytest

from arbiter.agents.alphabeta import AlphaBetaAgent
from arbiter.agents.random import RandomAgent
from arbiter.clock import Limit, TimeControl
from arbiter.contract import Agent, AgentRun, Program
from arbiter.errors import Reason
from arbiter.game import Outcome
from arbiter.games import find_game
from arbiter.games.alquerque.notation import format_move, parse_position, resolve_move
from arbiter.games.alquerque.player import serve
from arbiter.games.alquerque.referee import AlquerqueSeat
from arbiter.games.alquerque.rules import Alquerque, Move, State
from arbiter.referee.match import play_game
from arbiter.referee.scripted import ScriptedChannel

SPEC = find_game("alquerque")
TIE_SEED = 14
"""A seed with which two greedy players reach the 100-move tie."""


def seat(name: str, channel: ScriptedChannel) -> AlquerqueSeat:
    return AlquerqueSeat(Program(("unused",), name=name), transport_factory=lambda a, c: channel)


def play(white: ScriptedChannel, black: ScriptedChannel, start=None):
    return asyncio.run(
        play_game(
            SPEC,
            SPEC.make(),
            [seat("w", white), seat("b", black)],
            TimeControl.parse("30"),
            start=start,
        )
    )


def test_white_reads_start_and_the_offender_gets_quit_with_12_0() -> None:
    white, black = ScriptedChannel(), ScriptedChannel()
    white.expect("Start", ["c3-d4"])
    black.expect("c3-d4", ["d5-d4"])  # a capture was compulsory
    black.expect("Quit")
    record = play(white, black)
    assert (record.winner, record.reason, record.offending) == (0, Reason.ILLEGAL_MOVE, "d5-d4")
    assert "a capture is compulsory: e5*c3 is available" in record.detail
    assert record.score == (12.0, 0.0)
    white.assert_done()
    black.assert_done()


def test_the_winner_gets_no_quit_and_the_loser_does() -> None:
    start = parse_position("......./......./......./......./......./......./wb..... w 20 - -")
    white, black = ScriptedChannel(), ScriptedChannel()
    white.expect("Start", ["a1*c1"])
    black.expect("a1*c1")
    black.expect("Quit")
    record = play(white, black, start)
    assert (record.winner, record.reason, record.score) == (0, Reason.NO_PIECES, (12.0, 0.0))
    white.assert_done()
    black.assert_done()
    assert "send Quit" not in white.log


def test_after_a_tie_nobody_gets_quit() -> None:
    start = parse_position("......b/......./......./......./......./......./ww..... b 199 - -")
    white, black = ScriptedChannel(), ScriptedChannel()
    black.expect("Start", ["g7-g6"])  # black moves first here: it too is sent Start
    white.expect("g7-g6")
    record = play(white, black, start)
    assert (record.winner, record.reason) == (None, Reason.MOVE_LIMIT)
    assert record.score == (6.0, 5.0)
    assert "send Quit" not in white.log + black.log


TIME = TimeControl.parse("30")


def agent_run(stdin: str, out: io.StringIO) -> AgentRun:
    return AgentRun(TIME, io.StringIO(stdin), out, io.StringIO())


def test_player_as_white_starts_and_exits_on_quit() -> None:
    out = io.StringIO()
    assert serve(RandomAgent(), Alquerque(), [], agent_run("Start\nQuit\n", out)) == 0
    assert out.getvalue() in ("c3-d4\n", "d3-d4\n", "e3-d4\n", "e4-d4\n")


def test_player_as_black_answers_whites_first_move_with_the_capture() -> None:
    out = io.StringIO()
    assert serve(RandomAgent(), Alquerque(), [], agent_run("c3-d4\nQuit\n", out)) == 0
    assert out.getvalue() == "e5*c3\n"


class Jury(io.StringIO):
    """A player's standard input that answers as the jury does: it judges each line the
    player wrote and relays the opponent's reply, sends ``Quit`` to a player that
    lost, and fails the test if a player reads again after it won or after the tie
    (a real jury sends nothing then: the player would wait for ever)."""

    def __init__(self, opponent: Agent[State, Move], player: int, out: io.StringIO) -> None:
        super().__init__()
        self.game = Alquerque()
        self.s = self.game.initial()
        self.opponent, self.player, self.out = opponent, player, out
        self.read = 0
        opponent.reset(self.game, 1 - player, 7)

    def outcome(self) -> Outcome | None:
        """Judges what the player wrote since last asked; returns the game's result."""
        for line in self.out.getvalue().splitlines()[self.read :]:
            self.s = self.game.apply(self.s, resolve_move(line, self.s, seat=0))
            self.read += 1
        return self.game.outcome(self.s)

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        game = self.game
        out = self.outcome()
        if out is not None:
            assert out.winner not in (None, self.player), f"read again after {out}"
            return "Quit\n"
        if self.s.ply == 0 and self.player == 0:
            return "Start\n"
        m = self.opponent.choose(self.s, Limit())
        self.s = game.apply(self.s, m)
        return format_move(m, seat=0) + "\n"


@pytest.mark.parametrize("player", [0, 1])
def test_player_exits_by_itself_after_its_winning_move(player: int) -> None:
    out = io.StringIO()
    jury = Jury(RandomAgent(), player, out)
    engine = AlphaBetaAgent(SPEC.evaluation, depth=2)
    # no clock: the game's 30 s would cut the search short on a busy machine, and an
    # engine that weaker was once held to the 100-move tie
    run = AgentRun(TimeControl.parse("inf"), jury, out, io.StringIO())
    assert serve(engine, Alquerque(), [], run) == 0
    outcome = jury.outcome()
    assert outcome is not None and outcome.winner == player  # and it read nothing after


def test_player_exits_by_itself_after_the_100_move_tie() -> None:
    # random players, whatever the machine's load: the seed's game ends in the tie
    # (the evaluation's side ahead converts every greedy game it could tie)
    out = io.StringIO()
    jury = Jury(RandomAgent(), 1, out)
    run = AgentRun(TimeControl.parse("inf"), jury, out, io.StringIO(), seed=TIE_SEED)
    assert serve(RandomAgent(), Alquerque(), [], run) == 0
    outcome = jury.outcome()  # black made the last move, and read nothing after
    assert outcome is not None and outcome.reason is Reason.MOVE_LIMIT and jury.s.ply == 200


def test_player_exits_on_quit_after_losing() -> None:
    out = io.StringIO()
    jury = Jury(AlphaBetaAgent(SPEC.evaluation, depth=2), 0, out)
    assert serve(RandomAgent(), Alquerque(), [], AgentRun(TIME, jury, out, io.StringIO())) == 0
    outcome = jury.outcome()
    assert outcome is not None and outcome.winner == 1


def test_player_stops_at_the_end_of_its_input() -> None:
    out = io.StringIO()
    assert serve(RandomAgent(), Alquerque(), [], agent_run("c3-d4\n", out)) == 0
    assert out.getvalue() == "e5*c3\n"


def test_a_person_plays_alquerque_at_the_terminal_with_the_lines_drawn() -> None:
    from ...test_human import session

    out, shown = session("alquerque", ["d5-d4", "moves", "quit"], human=1)
    text = "\n".join(shown)
    assert "not played: illegal alquerque move 'd5-d4': a capture is compulsory" in text
    assert "| \\ | / |" in text  # the diagonals are drawn where they run
    assert out.reason is Reason.RESIGNED


def test_match_charges_cpu_when_asked_and_prints_contest_points(capsys) -> None:
    from arbiter.cli import main

    assert main(["match", "alquerque", "greedy", "random", "--games", "2", "--charge", "cpu"]) == 0
    out = capsys.readouterr().out
    assert "charged as cpu time" in out
    assert "Contest points: greedy 24 - 0 random" in out


def test_players_that_do_not_exit_after_a_tie_are_killed_and_the_tie_stands(tmp_path) -> None:
    import sys
    import time

    import psutil

    from tests.runs import fault_tag

    stubborn = tmp_path / "stubborn.py"
    stubborn.write_text(
        "import signal, sys, time\n"
        "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "line = sys.stdin.readline().strip()\n"
        "if line == 'Start':\n"
        "    print('g7-g6', flush=True)\n"
        "time.sleep(600)  # never exits by itself, not even at the end of its input\n"
    )
    tag = fault_tag("stubborn")  # found in the programs' command lines
    start = parse_position("......b/......./......./......./......./......./ww..... b 199 - -")
    seats = [AlquerqueSeat(Program((sys.executable, str(stubborn), tag), name=n)) for n in "wb"]
    record = asyncio.run(play_game(SPEC, SPEC.make(), seats, TimeControl.parse("30"), start=start))
    assert (record.winner, record.reason, record.score) == (None, Reason.MOVE_LIMIT, (6.0, 5.0))
    time.sleep(0.3)
    alive = []
    for p in psutil.process_iter(["cmdline", "status"]):
        if tag in (p.info["cmdline"] or ()) and p.info["status"] != psutil.STATUS_ZOMBIE:
            alive.append(p.pid)
    assert alive == []


@pytest.mark.timing
def test_built_in_players_never_lose_on_time_on_a_busy_machine() -> None:
    """Two built-in players as programs on a 4-second game clock, wall time, while
    every core is kept busy: start-up, suspension and a starved search all count, and
    still neither runs out (each budgets from its own start)."""
    import os
    import subprocess
    import sys

    from arbiter.contract import split_command

    player = f"{sys.executable} -m arbiter.cli agent alquerque --engine alphabeta --tc 4"
    hogs = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"])
        for _ in range(os.cpu_count() or 2)
    ]
    try:
        seats = [
            AlquerqueSeat(Program(split_command(player), name=n), supervision=SPEC.supervision)
            for n in "wb"
        ]
        record = asyncio.run(play_game(SPEC, SPEC.make(), seats, TimeControl.parse("4")))
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert not record.reason.is_fault, record.detail
    for seat in (0, 1):
        used = sum(record.times[seat::2])
        assert used < 4.0
