"""The Votey referee against real programs: what is particular to its protocol (``-1``
to the offender, win claims, the sheet's ``play(0)``), charging, the memory limit and
in-process engines. The faults every game shares are in ``test_faults.py``.

Every test also checks that no process the agents started is still alive afterwards.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import psutil
import pytest

from arbiter.agents.random import RandomAgent
from arbiter.clock import TimeControl
from arbiter.contract import Program, Supervision
from arbiter.errors import Reason
from arbiter.games import find_game
from arbiter.games.votey.notation import parse_position
from arbiter.games.votey.referee import VoteySeat
from arbiter.play.replay import replay
from arbiter.record import GameRecord
from arbiter.referee.match import play_game
from arbiter.referee.seat import LocalSeat

from ..games.votey.test_rules import FIGURE3

SCRIPT = Path(__file__).parent / "agents" / "votey_script.py"
SPEC = find_game("votey")


def script_seat(mode: str, tmp_path: Path, **supervision) -> VoteySeat:
    """The script's seat. It notes its pids in the test's folder, which a program with
    a uid of its own or namespaces can neither write nor name its pids for: these
    tests of charging and verdicts run it behind the cgroup wall only (the walls
    themselves are tested in ``test_isolation.py``)."""
    pidfile = tmp_path / f"{mode}.pids"
    program = Program((sys.executable, str(SCRIPT), mode, str(pidfile)), name=mode)
    supervision.setdefault("isolation", "cgroup")
    return VoteySeat(program, supervision=Supervision(**supervision))


def pids(tmp_path: Path) -> list[int]:
    found = []
    for f in tmp_path.glob("*.pids"):
        for line in f.read_text().split("\n"):
            if line:
                found.append(int(line.split()[1]))
    return found


def assert_none_alive(tmp_path: Path) -> None:
    deadline = time.monotonic() + 2.0
    alive = []
    while time.monotonic() < deadline:
        alive = []
        for pid in pids(tmp_path):
            try:
                if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                    alive.append(pid)
            except psutil.NoSuchProcess:
                pass
        if not alive:
            return
        time.sleep(0.05)
    raise AssertionError(f"processes still alive: {alive}")


def heard(tmp_path: Path, mode: str) -> list[str]:
    f = tmp_path / f"{mode}.pids.moves"
    return f.read_text().split() if f.exists() else []


def run(black, white, move_time: float = 1.0, start=None, max_plies: int = 1000) -> GameRecord:
    game = SPEC.make({"max_plies": max_plies})
    tc = TimeControl.per_move_seconds(move_time)
    return asyncio.run(play_game(SPEC, game, [black, white], tc, start=start))


def random_white() -> LocalSeat:
    return LocalSeat(RandomAgent(), SPEC.make(), SPEC.contest, seed=1)


@pytest.mark.parametrize(
    ("mode", "reason", "offending"),
    [
        ("illegal", Reason.ILLEGAL_MOVE, "1418"),
        ("malformed", Reason.MALFORMED, "move 14 to 34"),
        ("false-claim", Reason.FALSE_CLAIM, "-1434"),
    ],
)
def test_bad_first_move_loses_and_gets_minus_one(tmp_path, mode, reason, offending) -> None:
    listener = script_seat("listen", tmp_path)
    record = run(script_seat(mode, tmp_path), listener)
    assert (record.winner, record.reason, record.offending) == (1, reason, offending)
    assert record.moves == ()
    assert heard(tmp_path, mode) == ["-1"]  # the offender is told, as the sheet says
    assert heard(tmp_path, "listen") == ["<eof>"]  # the winner's input is closed
    assert replay(record) == record.outcome
    assert_none_alive(tmp_path)


@pytest.mark.timing
@pytest.mark.parametrize("suspend", [True, False])
def test_a_program_that_thinks_on_its_opponents_time_loses_on_time(tmp_path, suspend) -> None:
    # 1 s per move; the program replies at once and then burns 1.5 s of CPU: that is
    # charged to its next move, suspended or not
    seat = script_seat("ponder", tmp_path, suspend=suspend)
    record = run(seat, random_white(), move_time=1.0)
    assert (record.winner, record.reason) == (1, Reason.TIME)
    assert len(record.moves) == 2  # its first move, white's reply, then the flag
    assert "CPU" in record.detail
    assert_none_alive(tmp_path)


def test_each_reply_is_charged_only_its_own_cpu(tmp_path) -> None:
    # 0.3 s of CPU per move under a 0.6 s limit: charged from the start of the program
    # or of the game, it would lose by its third move
    record = run(script_seat("steady", tmp_path), random_white(), move_time=0.6, max_plies=16)
    assert record.reason is Reason.MOVE_LIMIT
    charged = record.times[0::2]
    assert len(charged) == 8
    assert all(0.25 <= t <= 0.6 for t in charged[1:]), charged
    assert_none_alive(tmp_path)


def test_unclaimed_win_loses(tmp_path) -> None:
    start = parse_position(FIGURE3 + " b")
    record = run(script_seat("unclaimed", tmp_path), script_seat("listen", tmp_path), start=start)
    assert (record.winner, record.reason, record.offending) == (1, Reason.UNCLAIMED_WIN, "2454")
    assert heard(tmp_path, "unclaimed") == ["-1"]
    assert replay(record) == record.outcome
    assert_none_alive(tmp_path)


def test_claimed_win_wins_and_reaches_the_loser(tmp_path) -> None:
    start = parse_position(FIGURE3 + " b")
    record = run(script_seat("win", tmp_path), script_seat("listen", tmp_path), start=start)
    assert (record.winner, record.reason, record.moves) == (0, Reason.CONNECTED, ("-2454",))
    assert heard(tmp_path, "listen") == ["-2454", "<eof>"]
    assert heard(tmp_path, "win") == ["<eof>"]
    assert replay(record) == record.outcome
    assert_none_alive(tmp_path)


def test_memory_limit(tmp_path) -> None:
    hog = tmp_path / "hog.py"
    hog.write_text("import time\nx = bytearray(300 * 2**20)\nx[::4096] = b'1' * 76800\n")
    hog.write_text(hog.read_text() + "time.sleep(60)\n")
    program = Program((sys.executable, str(hog)), name="hog")
    seat = VoteySeat(program, supervision=Supervision(memory_limit_mb=100))
    record = run(seat, random_white(), move_time=5)
    assert (record.winner, record.reason) == (1, Reason.MEMORY)
    assert "100 MB" in record.detail  # measured, or killed by the cgroup's limit


def test_missing_program_loses_by_crash(tmp_path) -> None:
    seat = VoteySeat(Program((str(tmp_path / "no-such-agent"),), name="ghost"))
    record = run(random_white(), seat)
    assert (record.winner, record.reason) == (0, Reason.CRASH)
    assert "cannot start" in record.detail


class _Stuck:
    """An in-process agent that ignores its budget."""

    name = "stuck"

    def reset(self, game, seat, seed) -> None:
        pass

    def choose(self, s, limit):
        time.sleep(3)
        return SPEC.make().legal_moves(s)[0]

    def observe(self, s, m) -> None:
        pass

    def note(self) -> str:
        return ""

    def halt(self) -> None:
        pass


class _Broken(_Stuck):
    name = "broken"

    def choose(self, s, limit):
        raise RuntimeError("bug in the agent")


@pytest.mark.timing
def test_in_process_agent_past_its_time_loses() -> None:
    stuck = LocalSeat(_Stuck(), SPEC.make(), SPEC.contest)
    record = run(stuck, random_white(), move_time=0.3)
    assert (record.winner, record.reason) == (1, Reason.TIME)


def test_in_process_agent_that_raises_loses_by_crash() -> None:
    record = run(random_white(), LocalSeat(_Broken(), SPEC.make(), SPEC.contest))
    assert (record.winner, record.reason) == (0, Reason.CRASH)
    assert "bug in the agent" in record.detail


def test_white_first_line_zero_from_the_sheets_play_function_is_ignored(tmp_path) -> None:
    black = LocalSeat(RandomAgent(), SPEC.make(), SPEC.contest, seed=2)
    white = script_seat("play0", tmp_path, backstop_factor=1.0, backstop_extra=0.5)
    record = run(black, white, move_time=0.5)
    assert record.moves[1] == "2123"
    assert (record.winner, record.reason) == (0, Reason.TIME)  # it then sleeps
    assert_none_alive(tmp_path)


def test_a_first_line_zero_from_black_is_its_move_and_malformed(tmp_path) -> None:
    # only white may write the development 0: black moves first, so its 0 is its move
    black = script_seat("play0", tmp_path, backstop_factor=1.0, backstop_extra=0.5)
    record = run(black, random_white(), move_time=0.5)
    assert (record.winner, record.reason, record.offending) == (1, Reason.MALFORMED, "0")
    assert_none_alive(tmp_path)


def test_the_flag_falls_at_the_allowance_though_the_kill_comes_later(tmp_path) -> None:
    # 0.3 s of CPU before each move against 0.2 s a move: killed at 0.2 s without a
    # kill grace, but with kill=1 it is let finish its move, and loses by the flag
    killed = run(script_seat("steady", tmp_path), random_white(), move_time=0.2)
    assert (killed.winner, killed.reason) == (1, Reason.TIME)
    assert "CPU >" in killed.detail and killed.offending is None
    game = SPEC.make()
    late = asyncio.run(
        play_game(
            SPEC,
            game,
            [script_seat("steady", tmp_path), random_white()],
            TimeControl.parse("st=0.2 kill=1"),
        )
    )
    assert (late.winner, late.reason) == (1, Reason.TIME)
    assert late.offending is not None and late.detail.endswith("s > 0.20s")
    assert_none_alive(tmp_path)


def test_memory_a_half_over_its_limit_loses(tmp_path) -> None:
    # 150 MB held under a 100 MB limit: the limit is the limit, not a multiple of it
    hog = tmp_path / "hog.py"
    hog.write_text(
        "import time\nx = bytearray(150 * 2**20)\nx[::4096] = b'1' * (150 * 256)\ntime.sleep(60)\n"
    )
    program = Program((sys.executable, str(hog)), name="hog")
    seat = VoteySeat(program, supervision=Supervision(memory_limit_mb=100))
    record = run(seat, random_white(), move_time=5)
    assert (record.winner, record.reason) == (1, Reason.MEMORY)


def test_a_cgroup_holds_exactly_the_memory_limit() -> None:
    from arbiter.referee.cgroups import new_cgroup
    from arbiter.referee.sandbox import detect

    found = detect()
    cgroup = new_cgroup(found.cgroup_version, found.parents)
    if cgroup is None:
        pytest.skip("no cgroups on this machine: the referee's own look holds the limit")
    try:
        cgroup.limit(100 * 2**20, 64)
        if found.cgroup_version == 2:
            held = cgroup._read("unified", "memory.max")
        else:
            held = cgroup._read("memory", "memory.limit_in_bytes")
        assert held is not None and int(held) == 100 * 2**20
    finally:
        cgroup.remove()
