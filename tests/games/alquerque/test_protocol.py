"""The CodeCup jury dialogue, both sides, line by line."""

from __future__ import annotations

import asyncio
import io

from arbiter.agents.random import RandomAgent
from arbiter.clock import TimeControl
from arbiter.contract import AgentRun
from arbiter.errors import Reason
from arbiter.games import find_game
from arbiter.games.alquerque.notation import parse_position
from arbiter.games.alquerque.protocol import AlquerqueSeat, serve
from arbiter.games.alquerque.rules import Alquerque
from arbiter.referee.match import play_game
from arbiter.referee.scripted import ScriptedChannel
from arbiter.referee.seat import Program

SPEC = find_game("alquerque")


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


def agent_run(stdin: str, out: io.StringIO) -> AgentRun:
    return AgentRun(TimeControl.parse("30"), io.StringIO(stdin), out, io.StringIO())


def test_player_as_white_starts_and_exits_on_quit() -> None:
    out = io.StringIO()
    assert serve(RandomAgent(), Alquerque(), [], agent_run("Start\nQuit\n", out)) == 0
    assert out.getvalue() in ("c3-d4\n", "d3-d4\n", "e3-d4\n", "e4-d4\n")


def test_player_as_black_answers_whites_first_move_with_the_capture() -> None:
    out = io.StringIO()
    assert serve(RandomAgent(), Alquerque(), [], agent_run("c3-d4\nQuit\n", out)) == 0
    assert out.getvalue() == "e5*c3\n"


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

    stubborn = tmp_path / "stubborn.py"
    stubborn.write_text(
        "import os, signal, sys, time\n"
        "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        f"open({str(tmp_path / 'pids')!r}, 'a').write(str(os.getpid()) + chr(10))\n"
        "line = sys.stdin.readline().strip()\n"
        "if line == 'Start':\n"
        "    print('g7-g6', flush=True)\n"
        "time.sleep(600)  # never exits by itself, not even at the end of its input\n"
    )
    start = parse_position("......b/......./......./......./......./......./ww..... b 199 - -")
    seats = [AlquerqueSeat(Program((sys.executable, str(stubborn)), name=n)) for n in "wb"]
    record = asyncio.run(play_game(SPEC, SPEC.make(), seats, TimeControl.parse("30"), start=start))
    assert (record.winner, record.reason, record.score) == (None, Reason.MOVE_LIMIT, (6.0, 5.0))
    time.sleep(0.3)
    pids = [int(p) for p in (tmp_path / "pids").read_text().split()]
    assert len(pids) == 2
    alive = [
        p
        for p in pids
        if psutil.pid_exists(p) and psutil.Process(p).status() != psutil.STATUS_ZOMBIE
    ]
    assert alive == []
