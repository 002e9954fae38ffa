"""The Halma contest's files both sides: input.txt and output.txt, the referee with
real agent processes run once per move, and the built-in agent in a directory."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from arbiter.agents.random import RandomAgent
from arbiter.clock import TimeControl
from arbiter.contract import Program
from arbiter.errors import NotationError, Reason
from arbiter.games import find_game
from arbiter.games.halma.contest import input_text, parse_input, remaining_text
from arbiter.games.halma.rules import Halma, State
from arbiter.play.replay import replay
from arbiter.record import GameRecord
from arbiter.referee.match import play_game
from arbiter.referee.seat import LocalSeat

SPEC = find_game("halma")
GAME = Halma()

AGENT = """\
import os, pathlib, random, sys, time, threading
from arbiter.games.halma.contest import parse_input
from arbiter.games.halma.rules import Halma, State
from arbiter.games.halma.notation import format_move

how = sys.argv[1]
given = parse_input(pathlib.Path("input.txt").read_text())
game = Halma()
s = State(given.state.pieces, given.seat)
moves = game.legal_moves(s)
data = pathlib.Path("playdata.txt")
count = int(data.read_text()) if data.exists() else 0
data.write_text(str(count + 1))
print("run", count + 1, file=sys.stderr)
if how == "burn":
    while True:
        pass
if how == "slow":
    end = time.process_time() + 0.3
    while time.process_time() < end:
        pass
if how == "silent" and count == 1:
    sys.exit(0)
if how == "fifo" and count == 1:
    os.mkfifo("output.txt")
    sys.exit(0)
if how.startswith("link:") and count == 1:
    os.symlink(how[5:], "output.txt")
    sys.exit(0)
if how == "huge" and count == 1:
    with open("output.txt", "w") as f:
        block = "E 4,1 5,2\\n" * 100_000
        for _ in range(200 * 2**20 // len(block)):
            f.write(block)
    sys.exit(0)
if how == "hog" and count == 1:
    hoard = bytearray(300 * 2**20)
    for i in range(0, len(hoard), 4096):
        hoard[i] = 1
if how == "burn-thread" and count == 2:
    def burn():
        end = time.process_time() + 3
        while time.process_time() < end:
            pass
    t = threading.Thread(target=burn)
    t.start()
    t.join()
text = format_move(random.Random(count).choice(moves), seat=given.seat)
if how == "hop-over-nothing" and count == 1:
    text = "J 3,2 5,4\\nJ 5,4 7,6"
if how == "bad-line" and count == 1:
    text = "E 4,1 5,2\\nmove please"
pathlib.Path("output.txt").write_text(text + "\\n")
"""


def agent(tmp_path: Path, how: str, name: str = "agent") -> Program:
    script = tmp_path / "agent.py"
    script.write_text(AGENT)
    workdir = tmp_path / name
    workdir.mkdir(exist_ok=True)
    return Program((sys.executable, str(script), how), str(workdir), f"{how} agent")


def play(
    first, second, tc: str = "20 kill=10", max_plies: int = 1000, log_dir: Path | None = None
) -> GameRecord:
    options = {"max_plies": max_plies}
    game = SPEC.make(options)
    supervision = replace(SPEC.supervision, log_dir=None if log_dir is None else str(log_dir))
    seats = [
        SPEC.program_seat(p, supervision=supervision)
        if isinstance(p, Program)
        else LocalSeat(p, game, SPEC.contest, seed=3)
        for p in (first, second)
    ]
    return asyncio.run(play_game(SPEC, game, seats, TimeControl.parse(tc), options=options))


# -- input.txt -----------------------------------------------------------------------


def test_input_txt_is_the_sheets_layout_and_reads_back() -> None:
    s = State(GAME.initial().pieces, 1)
    text = input_text(s, 1, 123.4567)
    lines = text.splitlines()
    assert lines[:3] == ["GAME", "WHITE", "123.456"]
    assert lines[3] == "BBBBB..........." and lines[18] == "...........WWWWW"
    back = parse_input(text)
    assert (back.single, back.seat, back.remaining) == (False, 1, 123.456)
    assert back.state == s
    assert remaining_text(0.0001) == "0.001"  # strictly positive, as the sheet says


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda ls: ["BOTH", *ls[1:]], "input.txt line 1: expected SINGLE or GAME, found 'BOTH'"),
        (lambda ls: [ls[0], "RED", *ls[2:]], "line 2: expected BLACK or WHITE"),
        (lambda ls: [*ls[:2], "soon", *ls[3:]], "line 3: expected the remaining seconds"),
        (
            lambda ls: [*ls[:2], "0", *ls[3:]],
            "line 3: expected the remaining seconds, a number above 0",
        ),
        (lambda ls: [*ls[:5], "BBBB.X..........", *ls[6:]], "line 6: board row 2"),
        (lambda ls: ls[:10], "line 11: expected 19 lines"),
    ],
)
def test_a_broken_input_txt_is_named_by_line(change, message: str) -> None:
    lines = input_text(GAME.initial(), 0, 10.0).splitlines()
    with pytest.raises(NotationError, match=message.replace("(", r"\(")):
        parse_input("\n".join(change(lines)) + "\n")


# -- the referee with real agents ---------------------------------------------------------


def test_playdata_is_kept_through_a_game_and_removed_before_the_next(tmp_path) -> None:
    first, second = agent(tmp_path, "count", "a"), agent(tmp_path, "count", "b")
    (tmp_path / "a" / "playdata.txt").write_text("40")  # left in its own directory
    logs = tmp_path / "logs"
    record = play(first, second, max_plies=12, log_dir=logs)
    assert record.reason is Reason.MOVE_LIMIT or not record.reason.is_fault, record
    for seat in (1, 2):
        text = (logs / f"{seat}-count_agent.log").read_text()
        assert re.findall(r" e run (\d+)", text) == ["1", "2", "3", "4", "5", "6"]
        # every input.txt an agent read was written for its own colour
        colours = re.findall(r" > (BLACK|WHITE)$", text, re.MULTILINE)
        assert colours == ["BLACK" if seat == 1 else "WHITE"] * 6
    # a game runs in a copy of the agent's directory: the original is never written
    assert (tmp_path / "a" / "playdata.txt").read_text() == "40"
    assert not (tmp_path / "b" / "playdata.txt").exists()


def test_at_the_ply_cap_the_agent_with_more_time_left_wins(tmp_path) -> None:
    quick, slow = agent(tmp_path, "count", "a"), agent(tmp_path, "slow", "b")
    for first, second, winner in ((quick, slow, 0), (slow, quick, 1)):
        record = play(first, second, max_plies=6)
        assert (record.winner, record.reason) == (winner, Reason.TIME_LEFT), record
        assert record.detail.startswith("6 plies")
        assert replay(record) == record.outcome  # the replayed clock gives the same


def test_an_agent_that_writes_no_output_txt_loses_as_malformed(tmp_path) -> None:
    record = play(agent(tmp_path, "silent"), RandomAgent())
    assert (record.winner, record.reason) == (1, Reason.MALFORMED), record
    assert record.detail == "wrote no output.txt" and len(record.moves) == 2


@pytest.mark.parametrize(
    ("how", "detail"),
    [
        ("fifo", "output.txt is a FIFO, not a file"),
        ("link:/dev/zero", "output.txt is a link"),
        ("link:/etc/passwd", "output.txt is a link"),
        ("huge", "output.txt is longer than 64 KB"),
    ],
)
def test_an_output_txt_that_is_no_plain_file_of_its_own_is_malformed_within_the_clock(
    tmp_path, how: str, detail: str
) -> None:
    import resource

    logs = tmp_path / "logs"
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # no hang on a FIFO, no endless read: judged malformed, not out of time
    record = play(agent(tmp_path, how), RandomAgent(), tc="20 kill=10", log_dir=logs)
    assert (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - grown) < 32 * 1024  # KB
    assert (record.winner, record.reason, record.detail) == (1, Reason.MALFORMED, detail)
    # nothing of a file it linked to is read, recorded or shown
    shown = record.to_json() + next(logs.glob("1-*.log")).read_text()
    assert "root:" not in shown and "E 4,1 5,2" not in shown


def test_an_agent_killed_for_its_memory_limit_loses_by_memory(tmp_path) -> None:
    from arbiter.referee.sandbox import detect

    if not detect().cgroups:
        pytest.skip("the kernel kills for memory only in a cgroup")
    supervision = replace(SPEC.supervision, memory_limit_mb=128)
    game = SPEC.make({"max_plies": 1000})
    seats = [
        SPEC.program_seat(agent(tmp_path, "hog"), supervision=supervision),
        LocalSeat(RandomAgent(), game, SPEC.contest, seed=3),
    ]
    record = asyncio.run(play_game(SPEC, game, seats, TimeControl.parse("20 kill=10")))
    assert (record.winner, record.reason) == (1, Reason.MEMORY), record
    assert "128 MB" in record.detail


def test_the_contest_clock_is_300_seconds_killed_10_seconds_past() -> None:
    tc = SPEC.time_control
    assert (tc.base, tc.kill_after, tc.per_move) == (300.0, 10.0, None)


def test_a_chain_that_hops_over_nothing_is_an_illegal_move(tmp_path) -> None:
    record = play(agent(tmp_path, "hop-over-nothing"), RandomAgent())
    assert (record.winner, record.reason) == (1, Reason.ILLEGAL_MOVE), record
    assert "no piece on 4,3 to hop over from 3,2 to 5,4" in record.detail
    assert replay(record) == record.outcome


def test_a_malformed_output_line_loses_naming_the_file_and_line(tmp_path) -> None:
    record = play(agent(tmp_path, "bad-line"), RandomAgent())
    assert (record.winner, record.reason) == (1, Reason.MALFORMED), record
    assert "output.txt" in record.detail and "line 2 'move please'" in record.detail


@pytest.mark.timing
def test_cpu_burned_in_a_thread_counts_and_a_move_past_the_time_loses(tmp_path) -> None:
    record = play(agent(tmp_path, "burn-thread"), RandomAgent(), tc="2 kill=10")
    assert (record.winner, record.reason) == (1, Reason.TIME), record
    assert len(record.moves) == 4  # its third move, after three seconds in a thread


@pytest.mark.timing
def test_an_agent_that_runs_on_is_killed_at_its_remaining_time_plus_the_kill_margin(
    tmp_path,
) -> None:
    started = time.monotonic()
    record = play(agent(tmp_path, "burn"), RandomAgent(), tc="0.5 kill=1")
    took = time.monotonic() - started
    assert (record.winner, record.reason) == (1, Reason.TIME), record
    # charged until the kill, the 0.5 s it had and the 1 s margin: "1.51s CPU > 1.50s"
    used, killed_at = map(float, re.findall(r"([\d.]+)s", record.detail))
    assert killed_at == 1.5 and 1.5 <= used < 1.8
    assert took < 5


# -- the built-in agent -------------------------------------------------------------------


def run_agent(workdir: Path, text: str, *engine: str) -> subprocess.CompletedProcess[str]:
    (workdir / "input.txt").write_text(text)
    command = [sys.executable, "-m", "arbiter.cli", "agent", "halma", *engine]
    return subprocess.run(command, cwd=workdir, capture_output=True, text=True, timeout=60)


def test_the_agent_answers_a_single_position_with_a_legal_move(tmp_path) -> None:
    s = State(GAME.initial().pieces, 1)
    text = input_text(s, 1, 1.0, single=True)
    done = run_agent(tmp_path, text)
    assert done.returncode == 0, done.stderr
    move = (tmp_path / "output.txt").read_text()
    assert SPEC.contest.judge(GAME, s, move, seat=1) in GAME.legal_moves(s)
    assert not (tmp_path / "playdata.txt").exists()  # SINGLE: nothing kept


@pytest.mark.timing
def test_with_almost_no_time_left_the_agent_moves_at_once(tmp_path) -> None:
    s = State(GAME.initial().pieces, 0)
    done = run_agent(tmp_path, input_text(s, 0, 0.01), "-v")
    assert done.returncode == 0, done.stderr
    assert SPEC.contest.judge(GAME, s, (tmp_path / "output.txt").read_text(), seat=0)
    assert "no search" in done.stderr


def test_the_agent_counts_its_moves_in_playdata_over_a_game(tmp_path) -> None:
    s = GAME.initial()
    for n in (1, 2):
        done = run_agent(tmp_path, input_text(s, 0, 0.01))
        assert done.returncode == 0, done.stderr
        assert (tmp_path / "playdata.txt").read_text() == f"moves {n}\n"


@pytest.mark.parametrize("seat", [0, 1])
def test_over_a_game_the_agent_knows_the_plies_played_before_each_move(
    seat: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``input.txt`` gives no ply count, and the rules' ply cap needs one: before its
    n-th move of a GAME an agent has seen two plies for each earlier move of its own,
    and the first seat's one more before the second seat's first."""
    from arbiter.games.halma.player import _plies

    monkeypatch.chdir(tmp_path)
    assert [_plies(seat, single=False) for _ in range(3)] == [seat, 2 + seat, 4 + seat]
    assert _plies(seat, single=True) == seat  # SINGLE: one move, nothing kept


def test_a_missing_or_binary_input_txt_is_one_line(tmp_path) -> None:
    command = [sys.executable, "-m", "arbiter.cli", "agent", "halma"]
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "cannot read input.txt" in done.stderr
    (tmp_path / "input.txt").write_bytes(b"GAME\n\xff\xfe\n")
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "input.txt is not text" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_broken_input_txt_makes_the_agent_say_which_line(tmp_path) -> None:
    done = run_agent(tmp_path, "GAME\nPURPLE\n10\n")
    assert done.returncode == 1
    assert "input.txt line 2: expected BLACK or WHITE" in done.stderr
    assert not (tmp_path / "output.txt").exists()


@pytest.mark.parametrize("seat", [0, 1])
def test_input_txt_gives_an_agent_its_own_time_not_its_opponents(seat: int) -> None:
    from arbiter.clock import Clock

    clock = Clock.start(TimeControl.parse("300 kill=10")).spend(0, 100.0).spend(1, 7.5)
    halma = SPEC.program_seat(Program(("true",)), supervision=SPEC.supervision)
    halma.seat = seat
    given = parse_input(halma.input_text(GAME.initial(), clock))
    assert given.seat == seat
    assert given.remaining == pytest.approx(clock.remaining[seat], abs=0.001)
    assert clock.remaining[0] != clock.remaining[1]


def test_a_fixed_time_per_move_is_written_as_a_single_move() -> None:
    """On ``--move-time`` the agent is told SINGLE with the move's seconds: told GAME,
    it would spread one second over the whole game."""
    from arbiter.clock import Clock

    halma = SPEC.program_seat(Program(("true",)), supervision=SPEC.supervision)
    halma.seat = 1
    clock = Clock.start(TimeControl.per_move_seconds(1.5)).spend(1, 1.2)
    text = halma.input_text(GAME.initial(), clock)
    given = parse_input(text)
    assert text.splitlines()[0] == "SINGLE"
    assert given.single and given.remaining == pytest.approx(1.5)
    game_clock = Clock.start(TimeControl.parse("300 kill=10"))
    assert not parse_input(halma.input_text(GAME.initial(), game_clock)).single
