"""The platform's per-seat paths, proven on the test game with real child processes:
mirrored numbering, a game clock with overtime and suspension, the clock ruling
through the adjudication hook, the contest score, and the once-per-move file runner."""

from __future__ import annotations

import asyncio
import re
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from arbiter.agents.random import RandomAgent
from arbiter.clock import TimeControl
from arbiter.contract import Program
from arbiter.errors import Reason, RecordError
from arbiter.play.replay import replay
from arbiter.record import GameRecord
from arbiter.referee.match import play_game
from arbiter.referee.seat import LocalSeat
from tests.fakegame import RACE, RACE_FILES
from tests.fakegame.notation import format_move, parse_move, resolve_move
from tests.fakegame.protocol_files import parse_input
from tests.fakegame.rules import Move

from .test_human import session

PROGRAM = Path(__file__).parent / "fakegame" / "program.py"


def program(shape: str, mode: str, seed: int = 0, cwd: Path | None = None) -> Program:
    argv = (sys.executable, str(PROGRAM), shape, mode, str(seed))
    return Program(argv, None if cwd is None else str(cwd), f"{mode}{seed}")


def play(spec, seats, tc: str) -> GameRecord:
    return asyncio.run(play_game(spec, spec.make(), seats, TimeControl.parse(tc)))


def test_second_seat_numbers_the_board_from_its_own_side() -> None:
    game = RACE.make()
    s = game.initial()
    # the first seat's 2-3 is the second seat's 9-8
    assert parse_move("2-3", seat=0) == Move(1, 2) == parse_move("9-8", seat=1)
    m = resolve_move("2-4", s, seat=0)
    assert format_move(m, seat=1) == "9-7"
    s = game.apply(s, m)
    assert RACE.contest.judge(game, s, "2-3", seat=1) == Move(8, 7)


def test_programs_in_their_own_numbering_play_a_whole_game_and_it_replays() -> None:
    seats = [
        RACE.program_seat(program("lines", "random", i), supervision=RACE.supervision)
        for i in (1, 2)
    ]
    record = play(RACE, seats, "20 ot=1")
    # a program that was sent the other seat's numbering plays an illegal move or
    # exits on an opponent move it cannot read: the game ends by the rules instead
    assert not record.reason.is_fault, record
    assert record.reason in (Reason.ALL_HOME, Reason.NO_MOVES)
    assert record.score == ((3.0, 0.0) if record.winner == 0 else (0.0, 3.0))
    assert replay(record) == record.outcome
    # the record is in the first seat's numbering: the second seat's first move leaves
    # its start, the cells the first seat calls 9 and 10
    assert parse_move(record.moves[1], seat=0).origin in (8, 9)


@pytest.mark.timing
def test_thinking_on_the_opponents_time_is_charged_under_a_game_clock() -> None:
    # the ponderer burns 0.25 s after every reply; with a 1 s game clock the burns
    # are charged to its next moves and its flag falls
    ponder = RACE.program_seat(program("lines", "ponder"), supervision=RACE.supervision)
    record = play(RACE, [ponder, LocalSeat(RandomAgent(), RACE.make(), RACE.contest)], "1")
    assert (record.winner, record.reason) == (1, Reason.TIME)
    charged = record.times[0::2]
    assert len(charged) >= 2 and all(t >= 0.2 for t in charged[1:]), charged
    # the flag fell on the move that went past what the earlier ones left of the 1 s
    found = re.fullmatch(r"([\d.]+)s CPU > ([\d.]+)s", record.detail)
    assert found is not None, record.detail
    used, allowed = float(found[1]), float(found[2])
    assert allowed == pytest.approx(1.0 - sum(charged), abs=0.011) and used >= allowed


def test_clock_ruling_goes_through_the_adjudication_hook_and_replays() -> None:
    # the lazy program moves only its lead token and uses 0.12 s a move: its 0.3 s base
    # runs out with a token still at home, and the overtime ruling takes the game
    lazy = RACE.program_seat(program("lines", "lazy"), supervision=RACE.supervision)
    record = play(RACE, [lazy, LocalSeat(RandomAgent(), RACE.make(), RACE.contest)], "0.3 ot=1")
    assert (record.winner, record.reason) == (1, Reason.ADJUDICATED)
    assert record.score == (0.0, 3.0)
    assert replay(record) == record.outcome
    # the same moves charged no time do not give the ruling: replay runs the clock
    untimed = replace(record, times=(0.0,) * len(record.times))
    with pytest.raises(RecordError, match="going on"):
        replay(untimed)


def test_programs_run_once_per_move_keep_their_files_within_a_game(tmp_path) -> None:
    dirs = [tmp_path / "up", tmp_path / "down"]
    for d in dirs:
        d.mkdir()
        (d / "playdata.txt").write_text("41")  # left in its own directory
    logs = tmp_path / "logs"
    supervision = replace(RACE_FILES.supervision, log_dir=str(logs))
    seats = [
        RACE_FILES.program_seat(program("files", "random", i, d), supervision=supervision)
        for i, d in enumerate(dirs)
    ]
    record = play(RACE_FILES, seats, "10 kill=2")
    assert not record.reason.is_fault, record
    assert replay(record) == record.outcome
    moves_by_seat = (len(record.moves[0::2]), len(record.moves[1::2]))
    transcripts = [(logs / f"{i + 1}-random{i}.log").read_text() for i in range(2)]
    # playdata.txt was cleared before the game and counted each seat's runs
    for text, moves in zip(transcripts, moves_by_seat, strict=True):
        runs = re.findall(r" e run (\d+) of this game", text)
        assert runs == [str(n) for n in range(1, moves + 1)]
    # each game runs in a copy of the program's directory: the original is never written
    assert [(d / "playdata.txt").read_text() for d in dirs] == ["41", "41"]
    assert not any((d / "input.txt").exists() for d in dirs)
    assert all(0 < t < 2 for t in record.times)
    # the last input file was written from the mover's own side
    last = transcripts[1].rsplit("> input.txt:", 1)[1]
    given = "\n".join(line.split(" > ", 1)[1] for line in last.splitlines()[1:] if " > " in line)
    _, seat, remaining = parse_input(given + "\n")
    assert seat == 1 and 0 < remaining <= 10


def test_a_silent_once_per_move_program_loses_as_malformed(tmp_path) -> None:
    silent = tmp_path / "silent.py"
    silent.write_text("pass\n")
    seat = RACE_FILES.program_seat(
        Program((sys.executable, str(silent)), str(tmp_path), "silent"),
        supervision=RACE_FILES.supervision,
    )
    record = play(RACE_FILES, [seat, LocalSeat(RandomAgent(), RACE.make(), RACE.contest)], "10")
    assert (record.winner, record.reason) == (1, Reason.MALFORMED)
    assert "output.txt" in record.detail


def test_a_person_at_the_second_seat_types_moves_in_their_own_numbering() -> None:
    out, shown = session("race", ["1-3", "moves", "2-4", "quit"], human=1)
    text = "\n".join(shown)
    # seat two's tokens are its own cells 1 and 2, whatever the first seat calls them
    assert "not played" not in text
    assert "up plays " in text
    # after its 1-3 (cells 9 to 7) the person's moves are listed from its own side
    listed = next(line.split() for line in shown if "2-4" in line.split())
    assert "2-4" in listed and "3-5" in listed
    assert out.reason is Reason.RESIGNED
