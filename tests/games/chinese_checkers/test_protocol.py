"""The mediator's dialogue both sides: the greeting, per-player numbering, the CPU
clock with its overtime home rule, and real player processes."""

from __future__ import annotations

import asyncio
import io
import sys

import pytest

from arbiter.agents.greedy import GreedyAgent
from arbiter.clock import TimeControl
from arbiter.contract import AgentRun, Program
from arbiter.errors import Reason
from arbiter.games import find_game
from arbiter.games.chinese_checkers.contest import comply
from arbiter.games.chinese_checkers.player import serve
from arbiter.games.chinese_checkers.referee import MediatorSeat
from arbiter.games.chinese_checkers.rules import ChineseCheckers, State
from arbiter.referee.match import play_game
from arbiter.referee.scripted import ScriptedChannel

SPEC = find_game("chinese-checkers")
GAME = ChineseCheckers()


def seat(name: str, channel: ScriptedChannel) -> MediatorSeat:
    return MediatorSeat(Program(("unused",), name=name), transport_factory=lambda a, c: channel)


def play(first: ScriptedChannel, second: ScriptedChannel, tc: str = "300 ot=1"):
    seats = [seat("first", first), seat("second", second)]
    return asyncio.run(play_game(SPEC, SPEC.make(), seats, TimeControl.parse(tc)))


def test_each_player_is_greeted_and_told_moves_in_its_own_numbering() -> None:
    first, second = ScriptedChannel(), ScriptedChannel()
    first.expect("1", ["7 16"])  # the first player's 7 and 16 ...
    second.expect("2")
    second.expect("115 106", ["7 16"])  # ... are the second's 115 and 106, and back
    first.expect("115 106", ["125 16"])  # no hole 125: an illegal move
    record = play(first, second)
    assert record.moves[:2] == ("7 16", "115 106")  # the first player's numbering
    assert (record.winner, record.reason, record.offending) == (1, Reason.ILLEGAL_MOVE, "125 16")
    assert "no hole 125" in record.detail
    first.assert_done()
    second.assert_done()


def test_a_player_whose_time_ran_out_with_a_marble_at_home_loses() -> None:
    # 0.6 s of CPU a move on a 1-second clock: the second move ends in overtime
    first, second = ScriptedChannel(seconds=0.6), ScriptedChannel()
    first.expect("1", ["7 16"])
    second.expect("2")
    second.expect("115 106", ["7 16"])
    first.expect("115 106", ["8 17"])
    second.expect("114 105")
    record = play(first, second, "1 ot=1")
    assert (record.winner, record.reason) == (1, Reason.ADJUDICATED)
    assert "8 marbles still at home after its time ran out" in record.detail


def test_the_waiting_player_is_suspended_from_its_reply_until_it_is_told_a_move() -> None:
    first, second = ScriptedChannel(), ScriptedChannel()
    first.expect("1", ["7 16"])
    second.expect("2")
    second.expect("115 106", ["1 1"])
    record = play(first, second)
    assert record.reason is Reason.ILLEGAL_MOVE
    # suspended from the start, resumed just before it is sent the first player's move
    assert second.log[:4] == ["suspend", "send 2", "resume", "send 115 106"]
    assert first.log[first.log.index("read 7 16") + 1] == "suspend"


# -- the player side ---------------------------------------------------------------


class Mediator(io.StringIO):
    """A player's standard input that answers as the mediator does: it judges each
    line the player wrote (in the player's numbering) and relays the reply of an
    opponent that always plays its first legal move."""

    def __init__(self, player: int, out: io.StringIO, plies: int) -> None:
        super().__init__()
        self.player, self.out, self.plies = player, out, plies
        self.s = GAME.initial()
        self.read = 0
        self.greeted = False

    def catch_up(self) -> None:
        from arbiter.games.chinese_checkers.notation import resolve_move

        for line in self.out.getvalue().splitlines()[self.read :]:
            self.s = GAME.apply(self.s, resolve_move(line, self.s, seat=self.player))
            self.read += 1

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        from arbiter.games.chinese_checkers.notation import format_move

        if not self.greeted:
            self.greeted = True
            return f"{self.player + 1}\n"
        self.catch_up()
        if self.s.ply >= self.plies:
            return ""  # the mediator closes the pipe
        m = GAME.legal_moves(self.s)[0]
        self.s = GAME.apply(self.s, m)
        return format_move(m, seat=self.player) + "\n"


@pytest.mark.parametrize("player", [0, 1])
def test_the_player_keeps_its_own_numbering_for_a_whole_game(player: int) -> None:
    out = io.StringIO()
    mediator = Mediator(player, out, plies=60)
    run = AgentRun(TimeControl.parse("300 ot=1"), mediator, out, io.StringIO())
    assert serve(GreedyAgent(SPEC.evaluation), GAME, [], run) == 0
    mediator.catch_up()  # every line it wrote was legal in its numbering
    assert mediator.s.ply >= 59
    # and it crossed: its marbles went forward
    assert not mediator.s.pieces[player] & GAME.initial().pieces[player]


def test_the_player_rejects_a_greeting_other_than_1_or_2() -> None:
    err = io.StringIO()
    run = AgentRun(TimeControl.parse("300 ot=1"), io.StringIO("3\n"), io.StringIO(), err)
    assert serve(GreedyAgent(SPEC.evaluation), GAME, [], run) == 1
    assert "expected 1 or 2 first" in err.getvalue()


def test_out_of_time_a_player_moves_its_last_marble_out_of_home() -> None:
    # one marble left at home on hole 7, nine out in the middle
    home_one = State((1 << 6 | 0b111111111 << 60, GAME.initial().pieces[1]), 0, 80)
    stay = next(m for m in GAME.legal_moves(home_one) if m.origin != 6)
    assert comply(GAME, home_one, stay, out_of_time=False) == stay  # time left: as chosen
    chosen = comply(GAME, home_one, stay, out_of_time=True)
    assert chosen.origin == 6 and chosen.target >= 10  # the marble on hole 7 leaves
    assert comply(GAME, home_one, chosen, out_of_time=True) == chosen


# -- real processes ------------------------------------------------------------------

OWN_NUMBERING = """\
import random, sys
from arbiter.games.chinese_checkers.rules import HOMES, ChineseCheckers, Move, State
# this player always sees itself as the first player: its home 1-10, hole = cell + 1
game, rng = ChineseCheckers(max_plies=10**9), random.Random(int(sys.argv[1]))
if sys.argv[2:] == ["fork"]:  # a helper process, asleep: the sheet forbids any
    import subprocess
    helper = subprocess.Popen(["sleep", "30"])
order = sys.stdin.readline().strip()
s = State(HOMES, 0 if order == "1" else 1)
while True:
    if s.to_move == 1:
        line = sys.stdin.readline()
        if not line:
            break
        a, b = map(int, line.split())
        m = Move(a - 1, b - 1)
        assert m in game.legal_moves(s), f"relayed move {line!r} is not legal here"
    else:
        if sys.argv[2:] == ["burn"]:  # 0.3 s of CPU a move
            import time
            start = time.process_time()
            while time.process_time() - start < 0.3:
                pass
        m = rng.choice(game.legal_moves(s))
        print(m.origin + 1, m.target + 1, flush=True)
    s = game.apply(s, m)
"""


@pytest.mark.parametrize("own_seat", [0, 1])
def test_a_player_in_its_own_numbering_plays_a_whole_legal_game(tmp_path, own_seat) -> None:
    from arbiter.cli import main

    (tmp_path / "own.py").write_text(OWN_NUMBERING)
    own = f"{sys.executable} {tmp_path / 'own.py'} {own_seat}"
    builtin = f"{sys.executable} -m arbiter.cli agent chinese-checkers --engine random"
    players = [own, builtin] if own_seat == 0 else [builtin, own]
    argv = ["match", "chinese-checkers", *players, "--games", "1", "--max-plies", "300"]
    record_file = tmp_path / "games.jsonl"
    assert main([*argv, "--record", str(record_file)]) == 0
    from arbiter.record import GameRecord

    (record,) = [GameRecord.from_json(line) for line in record_file.read_text().splitlines()]
    assert record.reason is Reason.MOVE_LIMIT, record.detail  # no fault either way
    assert len(record.moves) == 300


def test_a_person_plays_the_second_seat_in_their_own_numbering() -> None:
    from ...test_human import session

    out, shown = session("chinese-checkers", ["numbers", "7 16", "moves", "quit"], human=1)
    text = "\n".join(shown)
    numbers = next(block for block in shown if "121" in block and "\n" in block)
    assert numbers.splitlines()[0].strip() == "1"  # their own home, drawn at the top
    assert "not played" not in text  # 7 16 was legal, in their numbering
    assert out.reason is Reason.RESIGNED


@pytest.mark.parametrize("allowed", [False, True])
def test_a_player_that_starts_another_process_loses(tmp_path, allowed: bool) -> None:
    from arbiter.cli import main
    from arbiter.record import GameRecord

    (tmp_path / "own.py").write_text(OWN_NUMBERING)
    forks = f"{sys.executable} {tmp_path / 'own.py'} 0 fork"
    builtin = f"{sys.executable} -m arbiter.cli agent chinese-checkers --engine random"
    record_file = tmp_path / "games.jsonl"
    argv = ["match", "chinese-checkers", forks, builtin, "--games", "1", "--max-plies", "20"]
    argv += ["--record", str(record_file)] + (["--allow-children"] if allowed else [])
    assert main(argv) == 0
    (record,) = [GameRecord.from_json(line) for line in record_file.read_text().splitlines()]
    if allowed:  # the organiser's choice: the same program plays on
        assert record.reason is Reason.MOVE_LIMIT, record.detail
    else:
        assert (record.winner, record.reason) == (1, Reason.FORKED)
        assert "started another process (2 running)" in record.detail


def test_a_built_in_engine_out_of_time_also_moves_its_last_marble_out_of_home() -> None:
    from arbiter.agents.random import RandomAgent
    from arbiter.clock import Clock
    from arbiter.games.chinese_checkers.notation import resolve_move
    from arbiter.referee.seat import LocalSeat

    home_one = State((1 << 6 | 0b111111111 << 60, GAME.initial().pieces[1]), 0, 80)
    clock = Clock.start(TimeControl.parse("1 ot=1")).spend(0, 1.5)
    assert clock.in_overtime(0)
    for seed in range(5):
        seat = LocalSeat(RandomAgent(), GAME, SPEC.contest, supervision=SPEC.supervision, seed=seed)
        asyncio.run(seat.start(0, clock))
        reply = asyncio.run(seat.ask(home_one, clock))
        assert resolve_move(reply.text, home_one, seat=0).origin == 6


@pytest.mark.timing  # the engines plan on a 4 s clock: a busy machine cuts their searches
def test_built_in_players_as_programs_play_whole_games_under_the_mediator(tmp_path) -> None:
    """Both seats run ``arbiter agent chinese-checkers`` as child processes on a scaled
    clock (4 s of CPU, then 1 s a move): the games end by the rules (the ply cap
    included), with no fault, no time loss and no loss by the home rule."""
    from arbiter.cli import main
    from arbiter.record import GameRecord

    player = f"{sys.executable} -m arbiter.cli agent chinese-checkers --tc '4 ot=1'"
    record_file = tmp_path / "games.jsonl"
    # one game: the same engine in both seats, each a program in its own numbering
    argv = ["match", "chinese-checkers", player, player, "--games", "1", "--tc", "4 ot=1"]
    assert main([*argv, "--record", str(record_file)]) == 0
    records = [GameRecord.from_json(line) for line in record_file.read_text().splitlines()]
    assert len(records) == 1
    for record in records:
        # two engines on a 4 s clock can shuffle their last marbles to the ply cap (a
        # draw by the rules, seen once in CI): an end by the rules all the same
        ends = (Reason.ALL_HOME, Reason.BOTH_HOME, Reason.MOVE_LIMIT)
        assert record.reason in ends, (record.reason, record.detail)
        if record.reason is Reason.MOVE_LIMIT:
            continue  # 1000 plies spend the base time whatever the engine does
        for seat in (0, 1):
            assert sum(record.times[seat::2]) < 4.0 + 0.5  # never deep in overtime


@pytest.mark.timing
def test_a_player_past_its_base_time_with_marbles_at_home_loses(tmp_path) -> None:
    """A real program that spends 0.3 s of CPU a move on a 1-second clock: its time
    runs out within a few moves, with marbles still at home, and it loses by the rule
    (not by time: each move is well inside the 1 s overtime)."""
    from arbiter.cli import main
    from arbiter.record import GameRecord

    (tmp_path / "own.py").write_text(OWN_NUMBERING)
    slow = f"{sys.executable} {tmp_path / 'own.py'} 0 burn"
    builtin = f"{sys.executable} -m arbiter.cli agent chinese-checkers --engine random"
    record_file = tmp_path / "games.jsonl"
    argv = ["match", "chinese-checkers", slow, builtin, "--games", "1", "--tc", "1 ot=1"]
    assert main([*argv, "--record", str(record_file)]) == 0
    (record,) = [GameRecord.from_json(line) for line in record_file.read_text().splitlines()]
    assert (record.winner, record.reason) == (1, Reason.ADJUDICATED), record.detail
    assert "still at home after its time ran out" in record.detail
    assert len(record.moves) <= 12
