"""arbiter check-agent: the built-in players pass, a broken program fails on the check
that exercises what it gets wrong, with what it was sent and wrote."""

from __future__ import annotations

import sys
import tempfile

import pytest

from arbiter.cli import main
from arbiter.games import find_game
from arbiter.play.checkagent import check_agent, checks, run
from tests.recorded import instances

AGENT = f"{sys.executable} -m arbiter.cli agent"


def test_the_built_in_checkers_player_passes_every_check(capsys) -> None:
    argv = ["check-agent", "checkers", f"{AGENT} checkers --engine random", "--move-time", "1"]
    argv.append("--no-burners")  # the busy machine is tested alone
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "all checks passed" in out and "pass  multi-jump" in out and "FAIL" not in out


def test_a_program_that_plays_illegally_fails_with_its_transcript(capsys) -> None:
    broken = f"{AGENT} votey --engine random --fault illegal --fault-ply 2"
    assert main(["check-agent", "votey", broken, "--move-time", "1", "--no-burners"]) == 1
    out = capsys.readouterr().out
    assert "FAIL  first seat" in out and "by illegal move" in out
    assert " < " in out and " > " in out  # what it read and wrote
    assert "4 of the checks failed" in out


@pytest.mark.parametrize(
    ("name", "prepared"),
    [
        ("checkers", {"forced capture", "multi-jump"}),
        (
            "halma",
            {
                "camp first",
                "camp first (2)",
                "camp first (3)",
                "camp first (4)",
                "hop chain",
                "very little time",
            },
        ),
    ],
)
def test_prepared_positions_exercise_the_rules_and_the_built_in_passes(
    name: str, prepared: set[str]
) -> None:
    spec = find_game(name)
    probes = [c for c in checks(spec, None) if c.start is not None]
    assert {c.name for c in probes} == prepared
    command = f"{AGENT} {name} --engine random"
    with tempfile.TemporaryDirectory() as workdir:
        for probe in probes:
            result = run(spec, command, probe, workdir)
            assert result.passed, (probe, result.verdict)


@pytest.mark.parametrize(
    ("name", "met"),
    [
        ("votey", {"winning moves"}),
        ("alquerque", {"captures", "capture chains", "positions with the move back ruled out"}),
        ("chinese-checkers", {"positions with long hops or neutral chains"}),
    ],
)
def test_steered_games_meet_the_rules_and_the_built_in_passes(name: str, met: set[str]) -> None:
    spec = find_game(name)
    steered = [c for c in checks(spec, "st=1") if c.steer is not None]
    assert steered
    seen: set[str] = set()
    with tempfile.TemporaryDirectory() as workdir:
        for check in steered:
            result = run(spec, f"{AGENT} {name} --engine random", check, workdir)
            assert result.passed, (check, result.verdict)
            seen |= {what for what, n in result.met if n > 0}
    assert seen == met


def test_the_steering_opponent_leaves_more_wins_open_than_random() -> None:
    """The winning-claim check meets wins far sooner than a random opponent would."""
    from arbiter.agents.random import RandomAgent
    from arbiter.agents.steering import SteeringAgent
    from arbiter.clock import Limit

    spec = find_game("votey")
    steer = next(c for c in checks(spec, None) if c.name == "winning claim").steer
    assert steer is not None
    game = spec.make()

    def plies_to_first_open_win(opponent, seed: int) -> int:
        mover = RandomAgent()
        mover.reset(game, 0, seed)
        opponent.reset(game, 1, seed)
        s = game.initial()
        while game.outcome(s) is None:
            if s.to_move == 0 and any(game.apply(s, m).winner == 0 for m in game.legal_moves(s)):
                return s.ply
            s = game.apply(s, (mover if s.to_move == 0 else opponent).choose(s, Limit()))
        return 1000

    steered = [plies_to_first_open_win(SteeringAgent(steer.prefer), seed) for seed in range(4)]
    random_ = [plies_to_first_open_win(RandomAgent(), seed) for seed in range(4)]
    assert sum(steered) * 2 < sum(random_), (steered, random_)


STRAY = """\
from pathlib import Path
from arbiter.games.halma.contest import parse_input
from arbiter.games.halma.rules import CAMPS, NEIGHBOURS, xy

given = parse_input(Path("input.txt").read_text())
s, p = given.state, given.seat
mine, taken = s.pieces[p], s.pieces[0] | s.pieces[1]
for c in range(256):
    if (mine >> c) & 1 and not (CAMPS[p] >> c) & 1:
        for n in NEIGHBOURS[c]:
            if not (taken >> n) & 1 and not (CAMPS[p] >> n) & 1:
                (a, b), (x, y) = xy(c), xy(n)
                Path("output.txt").write_text(f"E {a},{b} {x},{y}\\n")
                raise SystemExit
"""
"""A Halma program that steps a piece outside its camp although rule 1(b) wants one
of the pieces in the camp moved out first."""


def test_a_halma_program_that_ignores_the_camp_rule_fails_that_check() -> None:
    spec = find_game("halma")
    probe = next(c for c in checks(spec, None) if c.name == "camp first")
    # a program that moves its outside piece anyway: the first such step it finds
    script = STRAY
    with tempfile.TemporaryDirectory() as workdir:
        path = f"{workdir}/stray.py"
        with open(path, "w") as f:
            f.write(script)
        result = run(spec, f"{sys.executable} {path}", probe, workdir)
    assert not result.passed and "by illegal move" in result.verdict
    assert "must move one out" in result.verdict


CAMP_BLIND = """\
import random, sys
from pathlib import Path
from arbiter.bitboard import bits
from arbiter.games.halma.contest import parse_input
from arbiter.games.halma.notation import format_move
from arbiter.games.halma.rules import Move, hop_paths, reach, xy

# the moves the board and rule 1(a) allow, as if camp rule 1(b) were not there: at
# random, or (greedy) the one that gains most towards the opposing corner, random
# among the best
given = parse_input(Path("input.txt").read_text())
s, p = given.state, given.seat
occupied = s.pieces[0] | s.pieces[1]
moves = [(a, b) for a in bits(s.pieces[p]) for b in bits(reach(p, a, occupied))]
if sys.argv[2] == "greedy":
    def gain(move):
        (x, y), (u, v) = xy(move[0]), xy(move[1])
        return (u + v - x - y) * (1 if p == 0 else -1)
    best = max(map(gain, moves))
    moves = [m for m in moves if gain(m) == best]
(a, b) = random.Random(int(sys.argv[1])).choice(moves)
m = Move(a, b)
if not m.is_step:
    m = Move(a, b, hop_paths(a, occupied)[b])
Path("output.txt").write_text(format_move(m, seat=p) + "\\n")
"""
"""A Halma program that ignores camp rule 1(b): it plays any move the board and rule
1(a) allow, at random or the greediest, each written as the contest writes it."""


def test_the_camp_positions_forbid_the_tempting_moves() -> None:
    """In each camp check's position the side to move has pieces at home, its legal
    moves gain two squares or four, a forbidden one twelve, and nine in ten of the
    moves the board and rule 1(a) allow are forbidden."""
    from arbiter.bitboard import bits
    from arbiter.games.halma import rules as halma
    from arbiter.games.halma.probes import camp_positions

    game = find_game("halma").rules()
    for _, text, seat in camp_positions():
        s = find_game("halma").notation.parse_position(text)
        assert s.to_move == seat and s.pieces[seat] & halma.CAMPS[seat]
        occupied = s.pieces[0] | s.pieces[1]

        def gain(a: int, b: int, seat: int = seat) -> int:
            (x, y), (u, v) = halma.xy(a), halma.xy(b)
            return (u + v - x - y) * (1 if seat == 0 else -1)

        legal = {(m.origin, m.target) for m in game.legal_moves(s)}
        board = {(a, b) for a in bits(s.pieces[seat]) for b in bits(halma.reach(seat, a, occupied))}
        assert legal < board and 10 * len(legal) <= len(board)
        assert max(gain(*m) for m in legal) <= 4 < 12 == max(gain(*m) for m in board - legal)


@pytest.mark.parametrize("how", ["greedy", "random"])
def test_a_halma_program_that_ignores_rule_1b_fails_a_camp_check_whatever_its_seed(
    how: str,
) -> None:
    """Ten seeds, each failing a camp check (as the gate stops at the first failure)."""
    spec = find_game("halma")
    camp = [c for c in checks(spec, None) if c.name.startswith("camp first")]
    assert len(camp) == 4
    with tempfile.TemporaryDirectory() as workdir:
        path = f"{workdir}/blind.py"
        with open(path, "w") as f:
            f.write(CAMP_BLIND)
        for seed in range(10):
            for check in camp:
                result = run(spec, f"{sys.executable} {path} {seed} {how}", check, workdir)
                if not result.passed:
                    assert "by illegal move" in result.verdict
                    break
            else:
                raise AssertionError(f"seed {seed}: a {how} 1(b)-ignoring program passed")


ONE_NUMBERING = """\
import random, sys
from arbiter.games.chinese_checkers.notation import format_move, resolve_move
from arbiter.games.chinese_checkers.rules import ChineseCheckers

# a Chinese checkers player with the classic bug: it always numbers the board as the
# first player does, even when it is told it is the second
game, rng = ChineseCheckers(), random.Random(1)
seat = int(sys.stdin.readline()) - 1
s = game.initial()
while game.outcome(s) is None:
    if s.to_move == seat:
        m = rng.choice(game.legal_moves(s))
        print(format_move(m, seat=0), flush=True)
    else:
        line = sys.stdin.readline()
        if not line.strip():
            break
        m = resolve_move(line, s, seat=0)
    s = game.apply(s, m)
"""


def test_a_chinese_checkers_player_in_the_wrong_numbering_fails_the_second_seat(
    tmp_path,
) -> None:
    script = tmp_path / "one_numbering.py"
    script.write_text(ONE_NUMBERING)
    spec = find_game("chinese-checkers")
    command = f"{sys.executable} {script}"
    results = {r.check.name: r for r in check_agent(spec, command, "20 ot=1", burn=False)}
    assert results["first seat"].passed and results["busy machine"].passed
    second = results["second seat"]
    assert not second.passed and second.transcript
    assert any(line.split()[1] == ">" for line in second.transcript)


CAPTURE_DODGER = """\
import sys
from arbiter.games.alquerque.notation import format_move, resolve_move
from arbiter.games.alquerque.rules import Alquerque, steps_of

# an Alquerque player that steps whenever it can, although a capture is compulsory
game = Alquerque()
first = sys.stdin.readline().strip()
seat = 0 if first == "Start" else 1
s = game.initial()
if seat == 1:
    s = game.apply(s, resolve_move(first, s, seat=1))
while game.outcome(s) is None:
    moves = steps_of(s) or game.legal_moves(s)
    m = moves[0]
    print(format_move(m, seat=seat), flush=True)
    s = game.apply(s, m)
    if game.outcome(s) is not None:
        break
    line = sys.stdin.readline().strip()
    if line in ("", "Quit"):
        break
    s = game.apply(s, resolve_move(line, s, seat=seat))
"""


def test_an_alquerque_player_that_dodges_captures_fails_its_games(tmp_path) -> None:
    script = tmp_path / "dodger.py"
    script.write_text(CAPTURE_DODGER)
    spec = find_game("alquerque")
    results = check_agent(spec, f"{sys.executable} {script}")
    failed = [r for r in results if not r.passed]
    assert failed and all("a capture is compulsory" in r.verdict for r in failed)
    assert "capture chains" in {r.check.name for r in failed}


NO_CLAIM = """\
import sys
from arbiter.clock import Limit
from arbiter.agents.greedy import GreedyAgent
from arbiter.games.votey import evaluate
from arbiter.games.votey.notation import format_move, resolve_move
from arbiter.games.votey.rules import Votey

# a Votey player that forgets to negate its winning move
game = Votey()
seat = int(sys.argv[1]) - 1
agent = GreedyAgent(evaluate)
agent.reset(game, seat, 0)
s = game.initial()
while game.outcome(s) is None:
    if s.to_move == seat:
        m = agent.choose(s, Limit(depth=1))
        print(format_move(m, seat=seat), flush=True)
    else:
        text = sys.stdin.readline().strip()
        if text in ("", "-1"):
            break
        m = resolve_move(text.lstrip("-"), s, seat=seat)
    s = game.apply(s, m)
"""


def test_a_votey_player_that_never_claims_its_win_fails_where_it_wins(tmp_path) -> None:
    script = tmp_path / "no_claim.py"
    script.write_text(NO_CLAIM)
    spec = find_game("votey")
    results = check_agent(spec, f"{sys.executable} {script}", "st=1")
    failed = [r for r in results if not r.passed]
    assert failed and all("unclaimed win" in r.verdict for r in failed)
    assert "winning claim" in {r.check.name for r in failed}
    # its failure is the situation itself, so the report never says it did not come up
    assert all(r.situations() != "the situation never came up" for r in failed)


HALF_JUMP = """\
import sys
from arbiter.games.checkers.notation import parse_board
from arbiter.games.checkers.rules import Checkers

# a checkers engine that stops a multi-jump after its first jump
game = Checkers()
seat = int(sys.argv[1]) - 1
while True:
    rows = [sys.stdin.readline().strip() for _ in range(8)]
    if not rows[0]:
        break
    s = parse_board(rows, seat)
    m = max(game.legal_moves(s), key=lambda m: len(m.captures))
    text = str(m)
    if len(m.captures) >= 2:
        text = "x".join(text.split("x")[:2])  # the first landing only
    print(text, flush=True)
"""


def test_a_checkers_engine_that_stops_a_multi_jump_fails_the_multi_jump_check(tmp_path) -> None:
    script = tmp_path / "half_jump.py"
    script.write_text(HALF_JUMP)
    spec = find_game("checkers")
    results = {r.check.name: r for r in check_agent(spec, f"{sys.executable} {script}", "st=1")}
    multi = results["multi-jump"]
    assert not multi.passed and "illegal move" in multi.verdict
    assert any(" < " in line for line in multi.transcript)


GOES_BACK = """\
import random, sys
from dataclasses import replace
from arbiter.games.alquerque.notation import format_move, resolve_move
from arbiter.games.alquerque.rules import Alquerque

# an Alquerque player that forgets the no-going-back rule
game, rng = Alquerque(), random.Random(int(sys.argv[1]))
first = sys.stdin.readline().strip()
seat = 0 if first == "Start" else 1
s = game.initial()
if seat == 1:
    s = game.apply(s, resolve_move(first, s, seat=1))
while game.outcome(s) is None:
    m = rng.choice(game.legal_moves(replace(s, back=(None, None))))
    print(format_move(m, seat=seat), flush=True)
    s = game.apply(s, m)
    line = sys.stdin.readline().strip()
    if game.outcome(s) is not None or line in ("", "Quit"):
        break
    s = game.apply(s, resolve_move(line, s, seat=seat))
"""


def test_an_alquerque_player_that_goes_back_fails_the_no_going_back_check(tmp_path) -> None:
    script = tmp_path / "goes_back.py"
    script.write_text(GOES_BACK)
    spec = find_game("alquerque")
    check = next(c for c in checks(spec, None) if c.name == "no going back")
    # over a few of the program's seeds: it chooses at random, the reverse is one of many
    results = [
        run(spec, f"{sys.executable} {script} {seed}", check, str(tmp_path)) for seed in (1, 2, 3)
    ]
    failed = [r for r in results if not r.passed]
    assert failed and all("goes back to where" in r.verdict for r in failed)
    assert all(dict(r.met)["positions with the move back ruled out"] > 0 for r in results)


NEUTRAL_END = """\
import random, sys
from arbiter.bitboard import bits
from arbiter.games.chinese_checkers.notation import format_move, resolve_move
from arbiter.games.chinese_checkers.rules import HOPS, NEUTRAL, ChineseCheckers, Move, targets_from

# a Chinese checkers player whose single long hops may end in a neutral triangle
def long_landings(a, occupied):
    occupied &= ~(1 << a)
    out = 0
    for line in HOPS[a]:
        for over, clear, land in line[1:]:
            if occupied & over:
                out |= 0 if occupied & clear else 1 << land
                break
    return out

game, rng = ChineseCheckers(), random.Random(3)
seat = int(sys.stdin.readline()) - 1
s = game.initial()
while game.outcome(s) is None:
    if s.to_move == seat:
        occ = s.pieces[0] | s.pieces[1]
        ends = lambda a: targets_from(a, occ) | long_landings(a, occ) & NEUTRAL
        m = rng.choice([Move(a, b) for a in bits(s.pieces[seat]) for b in bits(ends(a))])
        print(format_move(m, seat=seat), flush=True)
    else:
        line = sys.stdin.readline()
        if not line.strip():
            break
        m = resolve_move(line, s, seat=seat)
    s = game.apply(s, m)
"""


def test_a_chinese_checkers_player_ending_in_a_neutral_triangle_fails_the_long_hops_check(
    tmp_path,
) -> None:
    script = tmp_path / "neutral_end.py"
    script.write_text(NEUTRAL_END)
    spec = find_game("chinese-checkers")
    check = next(c for c in checks(spec, None) if c.name == "long hops")
    result = run(spec, f"{sys.executable} {script}", check, str(tmp_path))
    assert not result.passed and "in a neutral triangle, where no move may end" in result.verdict


SLOW = """\
import time
from pathlib import Path
from arbiter.games.halma.notation import format_move
from arbiter.games.halma.contest import parse_input
from arbiter.games.halma.rules import Halma

# a Halma program that thinks 0.5 s of CPU whatever time input.txt gives it
given = parse_input(Path("input.txt").read_text())
end = time.process_time() + 0.5
while time.process_time() < end:
    pass
Path("output.txt").write_text(format_move(Halma().legal_moves(given.state)[0], seat=0) + "\\n")
"""


@pytest.mark.timing
def test_a_halma_program_that_ignores_the_time_it_is_given_fails_with_little_left(
    tmp_path,
) -> None:
    """It loses the move made with 0.3 s left, and only that one (2 s is enough)."""
    script = tmp_path / "slow.py"
    script.write_text(SLOW)
    spec = find_game("halma")
    timing = [c for c in checks(spec, None) if "little time" in c.name]
    results = {c.name: run(spec, f"{sys.executable} {script}", c, str(tmp_path)) for c in timing}
    assert results["little time"].passed, results["little time"].verdict
    late = results["very little time"]
    assert not late.passed and "by time" in late.verdict, late.verdict


@pytest.mark.parametrize(
    ("name", "timing", "clock", "stop_at", "busy"),
    [
        ("votey", "busy machine", "st=60", None, True),
        ("checkers", "busy machine", "st=60", None, True),
        ("alquerque", "busy machine", "st=60", None, True),
        ("chinese-checkers", "busy machine", "st=60", None, True),
        ("halma", "little time", "2 kill=10", 1, False),
    ],
)
def test_each_game_checks_a_program_s_timing_on_a_clock_it_can_know(
    name, timing, clock, stop_at, busy
) -> None:
    """A program that cannot be told its clock is checked on the whole games' clock
    (the contest's, or the one given) with the machine busy; Halma's, told its time
    in every input, on moves with little time left. Never a steered game's length."""
    found = [c for c in checks(find_game(name), "st=60") if c.name == timing]
    assert len(found) == 1
    assert (found[0].clock, found[0].stop_at, found[0].start) == (clock, stop_at, None)
    assert found[0].busy is busy


def test_the_busy_machine_keeps_every_core_busy_and_leaves_nothing() -> None:
    import contextlib
    import os

    import psutil

    from arbiter.play.checkagent import BURNER, busy_machine

    def burners() -> list[int]:
        found = []
        for p in psutil.Process().children():
            with contextlib.suppress(psutil.Error):  # gone, or a zombie of another test
                if BURNER in " ".join(p.cmdline()) and p.status() != psutil.STATUS_ZOMBIE:
                    found.append(p.pid)
        return found

    with busy_machine():
        assert len(burners()) == os.cpu_count()
    assert burners() == []
    with busy_machine(0):
        assert burners() == []


@pytest.mark.parametrize(("game", "together"), [("halma", True), ("alquerque", False)])
def test_the_whole_games_are_played_at_once_only_where_the_contest_charges_cpu(
    monkeypatch: pytest.MonkeyPatch, game: str, together: bool
) -> None:
    """Two games at once take nothing from a program's CPU time but would from its
    wall time: Alquerque's gate (wall time) plays one game at a time, and every check
    of timing is played alone."""
    import asyncio

    from arbiter.play import checkagent

    running: list[str] = []
    overlaps: list[tuple[str, ...]] = []

    async def fake_play(spec, command, check, workdir, **kwargs):  # type: ignore[no-untyped-def]
        running.append(check.name)
        overlaps.append(tuple(running))
        await asyncio.sleep(0.05)
        running.remove(check.name)
        return checkagent.Result(check, True, "1-0 by test")

    monkeypatch.setattr(checkagent, "play", fake_play)
    spec = find_game(game)
    results = check_agent(spec, "true")
    assert [r.check.name for r in results] == [c.name for c in checks(spec, None)]
    crowded = [names for names in overlaps if len(names) > 1]
    if together:
        assert crowded == [("first seat", "second seat")]
    else:
        assert crowded == []


def test_check_agent_says_the_ply_of_each_check_under_way_when_it_is_quiet(capsys) -> None:
    """A person never waits minutes in silence: while checks run, their plies are said
    every quiet spell (15 s; shortened here), and each check as it starts and ends."""
    import time

    from arbiter.cli.commands import CheckPrinter
    from arbiter.contract import Check
    from arbiter.play.checkagent import Result

    check = Check("first seat", "a whole game moving first", 0)
    printer = CheckPrinter()
    printer.EVERY = 0.05
    with printer:
        printer.started(check)
        printer.moved(check, 42)
        deadline = time.monotonic() + 30
        while "at ply 42" not in capsys.readouterr().out:
            assert time.monotonic() < deadline, "no word of the check under way"
            time.sleep(0.05)
        printer.finished(Result(check, True, "1-0 by connected"))
    out = capsys.readouterr().out
    assert "pass  first seat: a whole game moving first: 1-0 by connected" in out


@pytest.mark.parametrize("game", ["alquerque", "votey"])
def test_a_gate_stops_at_the_first_failed_check(game: str) -> None:
    """A contest's gate: a program that dies at once fails the first check, and no
    other check runs (the whole set would wait out every check's clock)."""
    spec = find_game(game)
    told: list[str] = []

    class Heard:
        def started(self, check: object) -> None:
            told.append(f"start {check.name}")  # type: ignore[attr-defined]

        def moved(self, check: object, ply: int) -> None:
            pass

        def finished(self, result: object) -> None:
            told.append(f"done {result.check.name}")  # type: ignore[attr-defined]

    dead = f"{sys.executable} -c pass"
    results = check_agent(spec, dead, "5", progress=Heard(), burn=False, first_failure=True)
    planned = checks(spec, "5")
    assert len(planned) > 2
    assert not results[0].passed
    # under CPU charging the two whole games run together; nothing after them
    assert len(results) == (2 if spec.supervision.charging.name == "CPU" else 1)
    assert told[0].startswith("start ") and told[-1].startswith("done ")
    assert len([t for t in told if t.startswith("done")]) == len(results)


def test_never_came_up_is_said_only_of_a_steered_game_that_ran_its_course() -> None:
    from arbiter.play.checkagent import Result

    spec = find_game("votey")
    steered = next(c for c in checks(spec, None) if c.steer is not None)
    assert Result(steered, True, "1-0").situations() == "the situation never came up"
    assert Result(steered, False, "0-1 by unclaimed win").situations() is None
    met = Result(steered, True, "1-0", met=(("winning moves", 2),))
    assert met.situations() == "met: 2 winning moves"
    assert Result(checks(spec, None)[0], True, "1-0").situations() is None


@pytest.mark.parametrize("count", [None, 3])
def test_a_busy_machine_keeps_every_core_busy_and_leaves_nothing_behind(
    count: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The timing check's burners: one a core (or as many as asked) while it runs, none
    after."""
    import os

    from arbiter.play import checkagent

    started = instances(monkeypatch, checkagent.subprocess, "Popen")
    with checkagent.busy_machine(count):
        assert len(started) == ((os.cpu_count() or 1) if count is None else count)
        assert all(p.poll() is None for p in started)  # burning while the block runs
    assert all(p.returncode is not None for p in started)  # and gone after it


def test_a_prepared_position_is_the_same_in_every_run() -> None:
    """A check's position is found by a seeded search, so two runs of ``check-agent``
    (a contestant's before and after a fix) put a program to the same test."""
    import subprocess

    code = (
        "from arbiter.games import find_game\n"
        "from arbiter.play.checkagent import checks\n"
        "for name in ('checkers', 'halma'):\n"
        "    print([c.start for c in checks(find_game(name), None) if c.start])\n"
    )
    runs = [
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        for _ in range(2)
    ]
    first = runs[0].stdout.splitlines()
    assert len(first) == 2 and all(line != "[]" for line in first)
    assert runs[1].stdout.splitlines() == first
