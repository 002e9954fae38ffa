"""One fault suite for every contest game: a built-in engine that misbehaves on purpose,
in a real process, in each of the five games (between them every seat shape: lines,
a program run once per move, the mediator's). Each case checks the loser, the reason,
and that nothing the program started outlives its game."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import psutil
import pytest

from arbiter.agents.faults import Fault
from arbiter.agents.faulty import (
    NOT_ONCE_PER_MOVE,
    STARTS_PROCESSES,
    VERDICT,
    FaultyAgent,
    acceptable,
)
from arbiter.agents.random import RandomAgent
from arbiter.clock import Charging, TimeControl
from arbiter.contract import Program, Supervision
from arbiter.errors import Reason
from arbiter.games import GAME_NAMES, find_game, outside_games
from arbiter.play.replay import replay
from arbiter.referee.box import BOX_PREFIX
from arbiter.referee.file_seat import FileSeat, runs_once_per_move
from arbiter.referee.match import play_game
from arbiter.referee.sandbox import detect
from arbiter.referee.seat import LocalSeat
from tests.runs import fault_tag

PIDS_LIMIT = any(c in ("pids", "unified") for c, _ in detect().parents)
WALLED = detect().own_uids or detect().namespaces


class SlowRandom(RandomAgent):  # type: ignore[type-arg]
    """A random engine that, before each move, waits until the processes carrying
    ``tag`` (the program and what it started) have used 1.5 s more CPU, or 30 s have
    passed: a program awake on its opponent's time then uses more than its 1 s a
    move however loaded the machine is (the wait is measured in the program's CPU,
    not the machine's wall time)."""

    def __init__(self, tag: str) -> None:
        super().__init__()
        self.tag = tag

    def cpu(self) -> float:
        total = 0.0
        for p in psutil.process_iter(["cmdline"]):
            try:
                if self.tag in " ".join(p.info["cmdline"] or ()):
                    t = p.cpu_times()
                    total += t.user + t.system
            except psutil.Error:
                continue
        return total

    def choose(self, s, limit):
        start, deadline = self.cpu(), time.monotonic() + 30
        while self.cpu() - start < 1.5 and time.monotonic() < deadline:
            time.sleep(0.05)
        return super().choose(s, limit)


PLAYABLE = [*GAME_NAMES, *outside_games()]
"""Every game a program can play (arbiter's, and those ``ARBITER_GAMES`` names, which
reaches the programs; not one registered in this process alone): each seat shape."""


OUT_OF_TIME = frozenset(f for f, r in VERDICT.items() if r is Reason.TIME) - STARTS_PROCESSES
"""Faults that lose on time at the fault move however long the move's time (sleep,
burn, burn in a thread): played on a short clock, they cost the suite little waiting
and burning. Those that start a process are not among them: where a program must run
alone, it loses for the child, which the referee must see before the time is up."""


def play(spec, seat, tc: str = "st=1", opponent_agent=None):
    """A game of at most 12 plies between ``seat`` (first) and a random engine (which
    may wait, at no CPU cost, as long as it likes: its wall backstop is wide)."""
    options = {"max_plies": 12}
    game = spec.make(options)
    patient = Supervision(backstop_factor=60.0)
    opponent = LocalSeat(
        opponent_agent or RandomAgent(), game, spec.contest, seed=1, supervision=patient
    )
    return asyncio.run(
        play_game(spec, game, [seat, opponent], TimeControl.parse(tc), options=options)
    )


def faulty(game: str, fault: Fault, tag: str, workdir: Path) -> Program:
    argv = (
        sys.executable,
        "-m",
        "arbiter.cli",
        "agent",
        game,
        "--engine",
        "random",
        "--fault",
        str(fault),
        "--fault-tag",
        tag,
    )
    return Program(argv, str(workdir), f"faulty {fault}")


def _illegal_at_start(spec: Any) -> bool:
    """Whether a well-formed move text is illegal at the game's start."""
    agent = FaultyAgent(RandomAgent(), spec, Fault.ILLEGAL)
    game = spec.make()
    agent.reset(game, 0, 0)
    return agent.illegal_text(game.initial()) is not None


def boxes() -> set[str]:
    """The folders of the boxes this process has open (the test's referee's)."""
    return {p.name for p in Path(tempfile.gettempdir()).glob(f"{BOX_PREFIX}{os.getpid()}-*")}


def left_behind(tag: str) -> list[int]:
    """Live processes carrying ``tag`` in their command line, after a short grace;
    killed once listed, so a test that fails on them leaves no burner to slow the tests
    after it."""
    deadline = time.monotonic() + 3.0
    while True:
        found = []
        for p in psutil.process_iter(["cmdline", "status"]):
            try:
                if p.info["status"] != psutil.STATUS_ZOMBIE and tag in " ".join(
                    p.info["cmdline"] or ()
                ):
                    found.append(p.pid)
            except psutil.Error:
                continue
        if not found or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    for pid in found:
        with contextlib.suppress(psutil.Error):
            psutil.Process(pid).kill()
    return found


@pytest.mark.parametrize("fault", list(Fault))
@pytest.mark.parametrize("game", PLAYABLE)
def test_every_fault_in_every_game(game: str, fault: Fault, tmp_path: Path) -> None:
    spec = find_game(game)
    tag = fault_tag()
    program = faulty(game, fault, tag, tmp_path)
    supervision = spec.supervision
    if fault not in OUT_OF_TIME and supervision.charging is Charging.CPU:
        # charged its CPU as the contest charges it, with a wall backstop wide enough for
        # a start on a loaded machine (3 s at 1 s a move is not): none of these faults
        # is ruled by the wall clock
        supervision = replace(supervision, backstop_extra=30.0)
    seat = spec.program_seat(program, supervision=supervision)
    files = isinstance(seat, FileSeat)
    if files and fault in NOT_ONCE_PER_MOVE:
        pytest.skip(f"{fault} needs a program that runs between its moves")
    if fault is Fault.FORK_BOMB and not PIDS_LIMIT:
        pytest.skip("a fork bomb is only safe under a cgroup's process-count limit")
    if fault is Fault.KILL_PARENT and not WALLED:
        pytest.skip("a program may kill this referee unless it has a uid of its own or namespaces")
    # a wall-charged contest (Alquerque) counts a program's start and whatever it
    # floods before its move (100 MB of stderr): a fault that is not ruled by the clock
    # gets 30 s, which it never waits out, so no load of the machine is its fault; one
    # ruled by the clock gets 2 s
    wall = spec.supervision.charging is Charging.WALL
    clock = "st=1"
    if wall:
        clock = "st=2" if VERDICT[fault] is Reason.TIME else "st=30"
    if fault in OUT_OF_TIME:
        clock = "st=0.3"  # it loses on time at its first move whatever the clock
    record = play(spec, seat, clock)
    assert boxes() == set()  # its work directory (and uid) went with its game
    rulings = acceptable(
        fault,
        once_per_move=files,
        single_process=spec.supervision.single_process,
        memory_limit=spec.supervision.memory_limit is not None,
    )
    if fault is Fault.ILLEGAL and not _illegal_at_start(spec):
        # every well-formed move is legal at the start (a game of drops): the program
        # commits it only once a column is full, which a short game may never see
        rulings = rulings | {None}
    ruled = record.reason if record.reason.is_fault and record.winner == 1 else None
    assert ruled in rulings, (rulings, record)
    if ruled is not None:
        assert record.winner == 1, record
        assert "\x1b" not in record.detail  # the garbage's escape sequence is shown escaped
        if fault is Fault.CRASH and not files:
            assert "crashing on purpose" in record.detail  # its last stderr line
    replay(record)
    assert left_behind(tag) == []


@pytest.mark.timing
@pytest.mark.parametrize("fault", [Fault.PONDER, Fault.DETACH])
@pytest.mark.parametrize(
    "game",
    [
        g
        for g in GAME_NAMES
        if not runs_once_per_move(find_game(g)) and find_game(g).supervision.charging == "cpu"
    ],
)
def test_without_suspension_thinking_on_the_opponents_time_is_charged(
    game: str, fault: Fault, tmp_path: Path
) -> None:
    spec = find_game(game)
    tag = fault_tag()
    awake = replace(spec.supervision, suspend=False)
    seat = spec.program_seat(faulty(game, fault, tag, tmp_path), supervision=awake)
    # the opponent waits while the program burns 1.5 s of CPU: more than its move's
    # 1 s, charged to its next move (a detached child is charged while it is the
    # program's descendant, cgroup or not)
    record = play(spec, seat, opponent_agent=SlowRandom(tag))
    seen = {Reason.TIME, Reason.FORKED} if spec.supervision.single_process else {Reason.TIME}
    assert record.winner == 1 and record.reason in seen, record
    assert left_behind(tag) == []


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_run_script_that_starts_its_engine_as_a_child_loses_only_where_the_sheet_says(
    game: str, tmp_path: Path
) -> None:
    # contestants' run scripts start their engine as a child (the shell waits for it):
    # only the Chinese checkers sheet makes a program run alone, so only there is the
    # child a loss
    spec = find_game(game)
    tag = fault_tag()
    engine = (sys.executable, "-m", "arbiter.cli", "agent", game, "--fault-tag", tag)
    script = Program(("/bin/sh", "-c", '"$@"; exit $?', "run", *engine), str(tmp_path), "run")
    # a wall-charged contest counts the program's start: a clock no load runs out
    clock = "st=30" if spec.supervision.charging is Charging.WALL else "st=1"
    record = play(spec, spec.program_seat(script, supervision=spec.supervision), clock)
    assert boxes() == set()
    if game == "chinese-checkers":
        assert record.winner == 1 and record.reason is Reason.FORKED, record
    else:
        assert not record.reason.is_fault, record
    assert left_behind(tag) == []


@pytest.mark.parametrize("fault", [Fault.DETACH, Fault.DETACH_EXIT])
def test_without_a_cgroup_what_a_program_left_behind_is_killed_with_its_game(
    fault: Fault, tmp_path: Path
) -> None:
    # no cgroup holds the program's processes: a burner it detached and left behind
    # when it exited is re-parented to the referee (their subreaper), which kills it
    spec = find_game("checkers")
    tag = fault_tag()
    bare = replace(spec.supervision, isolation="rlimits")
    record = play(
        spec, spec.program_seat(faulty("checkers", fault, tag, tmp_path), supervision=bare)
    )
    assert record.winner == 1 or fault is Fault.DETACH, record
    assert left_behind(tag) == []
