"""The compiled core against the pure-Python reference: along random games of every
game with a kernel, the same legal moves, positions, results, evaluations, hints and
forced moves; the compiled search's score equal to the pure search's at a fixed
depth; a fixed-size table; halting and time; which core is in use.
"""

from __future__ import annotations

import contextlib
import importlib
import itertools
import os
import random
import re
import subprocess
import sys
import threading
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbiter import core
from arbiter.agents.alphabeta import WIN, AlphaBetaAgent
from arbiter.clock import Limit
from arbiter.games import GAME_NAMES, find_game
from arbiter.games.alquerque.evaluate import W_TIE_POINT
from arbiter.games.chinese_checkers.evaluate import HOMES, TRAP_FROM, trapped
from arbiter.tools.layers import C_LAYERS

if not core.available():
    if os.environ.get("ARBITER_CORE") == "required":
        raise RuntimeError(f"the compiled core is required here: {core.describe()}")
    pytest.skip("the compiled core is not built", allow_module_level=True)

KERNELS = [n for n in GAME_NAMES if getattr(find_game(n).make(), "compiled", None) is not None]
GAMES_ON_BOTH: dict[str, tuple[Any, Any]] = {}


def both(name: str) -> tuple[Any, Any]:
    """The game made on each path: (compiled, pure)."""
    if name not in GAMES_ON_BOTH:
        spec = find_game(name)
        with core.forced_pure():
            pure = spec.make()
        GAMES_ON_BOTH[name] = (spec.make(), pure)
    return GAMES_ON_BOTH[name]


def test_every_compiled_kernel_is_used_by_its_game() -> None:
    """A kernel is optional, but one the core has must be the one its game runs on:
    a game whose rules forgot to take it up would silently search in Python."""
    from arbiter import _core

    assert sorted(KERNELS) == sorted(n for n in _core.GAMES if n in GAME_NAMES)


def random_positions(name: str, seed: int, plies: int) -> list[Any]:
    """The positions of one random game (on the pure path), start included."""
    _, pure = both(name)
    rng = random.Random(seed)
    s = pure.initial()
    seen = [s]
    for _ in range(plies):
        moves = pure.legal_moves(s)
        if not moves:
            break
        s = pure.apply(s, rng.choice(moves))
        seen.append(s)
    return seen


def end_code(outcome: Any, to_move: int) -> int:
    """The kernel's end for the side to move of a rules' ``outcome`` (``csrc/core.h``:
    none 0, win 1, loss 2, draw 3)."""
    if outcome is None:
        return 0
    if outcome.winner is None:
        return 3
    return 1 if outcome.winner == to_move else 2


@pytest.mark.parametrize("name", KERNELS)
def test_the_compiled_perft_counts_as_the_pure_one(name: str) -> None:
    """The kernel's perft counts the last ply's moves in bulk (its own count of the
    moves, without listing them, where it has one): held to the pure path's lists in
    every game, not only those with a perft file, from positions well into a game."""
    from arbiter.perft import _perft

    compiled, pure = both(name)
    for s in random_positions(name, 5, 40)[::8]:
        if pure.outcome(s) is None:
            assert compiled.compiled.perft(s, 2) == _perft(pure, s, 2), s


@pytest.mark.parametrize("name", KERNELS)
def test_a_finished_game_has_no_moves_to_count_on_either_path(name: str) -> None:
    """Where the rules have ended the game (here mostly at a short ply cap, or by a
    win on the way) there is nothing to play: the kernel's bulk count of the last
    ply, which perft uses, finds no move, as the pure path lists none."""
    from arbiter.perft import _perft

    spec = find_game(name)
    compiled = spec.make({"max_plies": 24})
    with core.forced_pure():
        pure = spec.make({"max_plies": 24})
    for seed in range(6):
        rng = random.Random(seed)
        s = pure.initial()
        while pure.outcome(s) is None:
            s = pure.apply(s, rng.choice(pure.legal_moves(s)))
        assert compiled.compiled.perft(s, 1) == _perft(pure, s, 1) == 0, (seed, s)
        assert compiled.compiled.legal(s) == [], (seed, s)  # the kernel's list, unguarded


def test_the_checkers_kernel_lists_no_move_from_the_eightieth_quiet_ply_or_a_third_time() -> None:
    """The kernel's own move list ends where the rules end: at exactly 80 plies without
    a capture or a man's move, and when a position stands for the third time (its
    key twice in the history), not one ply or one repetition later."""
    from arbiter.games.checkers.rules import NO_PROGRESS_PLIES, State

    rules = find_game("checkers").make()
    kings = (1 << 0) | (1 << 2) | (1 << 31)  # red kings on 1 and 3, white's on 32
    s = State(((1 << 0) | (1 << 2), 1 << 31), kings, 0, 40, NO_PROGRESS_PLIES - 1)
    assert rules.outcome(s) is None and rules.compiled.perft(s, 1) > 0
    calm = State(s.pieces, s.kings, 0, 40, NO_PROGRESS_PLIES)
    assert rules.outcome(calm) is not None
    assert rules.compiled.legal(calm) == [] and rules.compiled.perft(calm, 1) == 0
    twice = State(s.pieces, s.kings, 0, 40, 8, (s.key, s.key))
    once = State(s.pieces, s.kings, 0, 40, 8, (s.key,))
    assert rules.outcome(once) is None and rules.compiled.perft(once, 1) > 0
    assert rules.outcome(twice) is not None
    assert rules.compiled.legal(twice) == [] and rules.compiled.perft(twice, 1) == 0


@pytest.mark.parametrize("name", ["votey", "alquerque"])
def test_a_game_won_on_the_last_ply_the_cap_allows_is_won_on_both_paths(name: str) -> None:
    """In Votey and Alquerque a win that comes with the move the ply cap ends on is a
    win, not the cap's draw: the rules look at the win first, and so must the kernel.
    (Random games of the other three seldom end in a win.) Random games that end in a
    win are replayed under a cap of exactly their length."""
    spec = find_game(name)
    _, pure = both(name)
    won = 0
    for seed in range(40):
        rng = random.Random(seed)
        s = pure.initial()
        while pure.outcome(s) is None and s.ply < 300:
            s = pure.apply(s, rng.choice(pure.legal_moves(s)))
        ended = pure.outcome(s)
        if ended is None or ended.winner is None:
            continue
        compiled = spec.make({"max_plies": s.ply})
        with core.forced_pure():
            capped_pure = spec.make({"max_plies": s.ply})
        assert capped_pure.outcome(s) == ended, (seed, ended)
        kernel = compiled.compiled
        code = kernel.core.outcome(name, kernel.pack(s))
        assert code == end_code(ended, pure.to_move(s)), (seed, ended)
        won += 1
        if won == 3:
            break
    assert won == 3, name


def test_plain_draws_score_every_count_as_a_draw_on_both_paths() -> None:
    """American checkers' repetition and no-progress ends go to the side with more
    pieces, unless the ``plain_draws`` option makes each a draw: the compiled game
    scores it as the pure one does, with the option and without."""
    from dataclasses import replace

    from arbiter.games.checkers.rules import NO_PROGRESS_PLIES

    spec = find_game("checkers")
    checked = 0
    for plain in (False, True):
        compiled = spec.make({"plain_draws": plain})
        with core.forced_pure():
            pure = spec.make({"plain_draws": plain})
        for s in random_positions("checkers", 3, 60)[::5]:
            if s.pieces[0].bit_count() == s.pieces[1].bit_count():
                continue
            stalled = replace(s, quiet=NO_PROGRESS_PLIES)
            ended = pure.outcome(stalled)
            assert ended is not None and (ended.winner is None) == plain, ended
            kernel = compiled.compiled
            code = kernel.core.outcome("checkers", kernel.pack(stalled))
            assert code == end_code(ended, stalled.to_move), (plain, stalled)
            checked += 1
    assert checked >= 4


@pytest.mark.parametrize("name", KERNELS)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_both_paths_agree_along_random_games(name: str, seed: int) -> None:
    compiled, pure = both(name)
    kernel = compiled.compiled
    spec = find_game(name)
    ev = spec.evaluation
    for s in random_positions(name, seed, 150):
        packed = kernel.pack(s)
        moves = pure.legal_moves(s)
        # the Python functions on the compiled path, and the kernel itself
        assert compiled.legal_moves(s) == moves
        hops = [getattr(m, "hops", None) for m in moves]  # Halma's chains, not compared
        assert [getattr(m, "hops", None) for m in compiled.legal_moves(s)] == hops
        assert compiled.outcome(s) == pure.outcome(s)
        assert kernel.core.legal(name, packed) == [kernel.code(m) for m in moves]
        out = pure.outcome(s)
        assert kernel.core.outcome(name, packed) == end_code(out, pure.to_move(s))
        if out is not None:
            continue
        assert kernel.core.evaluate(name, packed) == ev.evaluate(s)
        assert kernel.core.noisy(name, packed) == [kernel.code(m) for m in ev.noisy_moves(s)]
        for m in moves:
            assert kernel.core.hint(name, packed, kernel.code(m)) == ev.order_hint(s, m)
            after = pure.apply(s, m)
            assert compiled.apply(s, m) == after
            assert kernel.core.apply(name, packed, kernel.code(m)) == kernel.pack(after)


def test_both_checkers_evaluations_agree_on_sparse_endings() -> None:
    """Random games keep the board full, where few men run free; a few men and kings
    scattered at random (either side to move) reach what they do not: men with their
    way to the crown open (a cone a column too wide on one path shows here), kings in
    the centre, empty back rows. Both paths score each position alike."""
    from arbiter.games.checkers.rules import State

    compiled, pure = both("checkers")
    kernel = compiled.compiled
    ev = find_game("checkers").evaluation
    rng = random.Random(11)
    for _ in range(3000):
        cells = rng.sample(range(32), rng.randint(2, 7))
        split = rng.randint(1, len(cells) - 1)
        red = sum(1 << c for c in cells[:split])
        white = sum(1 << c for c in cells[split:])
        kings = sum(1 << c for c in cells if rng.random() < 0.3)
        s = State((red, white), kings, rng.randint(0, 1))
        if pure.outcome(s) is not None:
            continue
        assert kernel.core.evaluate("checkers", kernel.pack(s)) == ev.evaluate(s), s


def test_a_position_with_thousands_of_capture_chains() -> None:
    """An Alquerque position a search met (black to move has 1455 capture chains):
    the kernel's lists grow past their first size, and agree with the reference."""
    compiled, pure = both("alquerque")
    s = find_game("alquerque").notation.parse_position(
        "bbbb.bb/..bb.bb/b.....b/.b..www/b..w.w./..wwwww/ww.w.w. b 31 - -"
    )
    moves = pure.legal_moves(s)
    assert len(moves) == 1455
    assert compiled.legal_moves(s) == moves
    kernel = compiled.compiled
    packed = kernel.pack(s)
    assert kernel.core.noisy("alquerque", packed) == [kernel.code(m) for m in moves]
    agent = AlphaBetaAgent(find_game("alquerque").evaluation, depth=2, compiled=True)
    agent.reset(compiled, 1, 0)
    assert agent.choose(s, Limit()) in moves


SEARCH_DEPTH = {"votey": 3, "checkers": 4, "alquerque": 4, "chinese-checkers": 2, "halma": 2}


@pytest.mark.parametrize("name", KERNELS)
def test_the_compiled_search_scores_as_the_pure_one(name: str) -> None:
    """Without a table, alpha-beta's score at a fixed depth is the position's minimax
    value whatever the move order, so the two searches must agree exactly (with a
    table, a score also depends on which transpositions were met first)."""
    compiled, pure = both(name)
    spec = find_game(name)
    rng = random.Random(name)
    checked = 0
    while checked < 6:
        positions = random_positions(name, rng.randrange(2**32), rng.randrange(4, 60))
        s = positions[-1]
        if pure.outcome(s) is not None:
            continue
        scores = []
        for game, on in ((compiled, True), (pure, False)):
            depth = SEARCH_DEPTH[name]
            agent = AlphaBetaAgent(spec.evaluation, depth=depth, hash_mb=0, compiled=on)
            agent.reset(game, 0, 1)
            agent.choose(s, Limit())
            assert agent.core == ("compiled" if on else "pure")
            assert agent.last_info is not None
            scores.append(agent.last_info.score)
        assert scores[0] == scores[1], spec.notation.format_position(s)
        checked += 1


def test_the_table_has_a_fixed_size_that_a_search_does_not_change() -> None:
    searcher = core.compiled().Searcher("votey", 2)  # type: ignore[union-attr]
    entries = searcher.entries
    assert entries == 2 * 2**20 // 24
    game = find_game("votey").make()
    agent = AlphaBetaAgent(find_game("votey").evaluation, depth=5, hash_mb=2, compiled=True)
    agent.reset(game, 0, 0)
    agent.choose(game.initial(), Limit())
    assert agent._searcher.entries == entries
    with pytest.raises(ValueError, match="no compiled kernel for chess"):
        core.compiled().Searcher("chess")  # type: ignore[union-attr]


@pytest.mark.timing
def test_a_compiled_search_keeps_to_its_time_and_stops_when_halted() -> None:
    spec = find_game("votey")
    game = spec.make()
    agent = AlphaBetaAgent(spec.evaluation, compiled=True)
    agent.reset(game, 0, 0)
    started = time.thread_time()
    agent.choose(game.initial(), Limit(time=0.3))
    assert time.thread_time() - started < 0.35
    threading.Timer(0.2, agent.halt).start()
    started = time.perf_counter()
    move = agent.choose(game.initial(), Limit(time=30))
    assert time.perf_counter() - started < 1.0
    assert move in game.legal_moves(game.initial())


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({}, "compiled core"),
        ({"ARBITER_PURE": "0"}, "compiled core"),
        ({"ARBITER_PURE": "1"}, "pure"),
    ],
)
def test_the_version_says_which_core_is_in_use(env: dict[str, str], says: str) -> None:
    environ = {k: v for k, v in os.environ.items() if k != "ARBITER_PURE"} | env
    out = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "--version"],
        capture_output=True,
        text=True,
        env=environ,
        check=True,
    ).stdout
    assert says in out


C_FUNCTION = re.compile(
    r"^(?:static\s+)?(?:inline\s+)?[A-Za-z_][\w \t]*?[\s*]\**(\w+)\([^;]*?\)\s*\{", re.M
)


KERNEL_FILES = dict(C_LAYERS)["kernels"]


@pytest.mark.parametrize("source", sorted(p.name for p in core.CSRC.glob("*.c")))
def test_every_kernel_function_is_named_with_its_python_twin(source: str) -> None:
    """Over the C files there are, so a kernel left out of the table is still checked;
    the shared files (lists, glue, the table of games, search, module) have no twin."""
    if source not in KERNEL_FILES:
        assert source not in core.MIRRORS
        return
    text = (core.CSRC / source).read_text()
    defined = set(C_FUNCTION.findall(text))
    named = {c for c, _ in core.MIRRORS[source]} | set(core.PLUMBING[source])
    assert defined == named, (
        f"in {source} but not in core.MIRRORS or PLUMBING: {sorted(defined - named)}; "
        f"named there but not defined: {sorted(named - defined)}"
    )
    for _, python in core.MIRRORS[source]:
        module, _, rest = python.partition(".")
        target: Any = importlib.import_module(f"arbiter.games.{module}.{rest.split('.')[0]}")
        for attr in rest.split(".")[1:]:
            target = getattr(target, attr)
        assert callable(target), python


def test_a_compiled_call_of_the_wrong_shape_is_refused_by_name() -> None:
    """The generic calls take exactly (game, state): one argument more or fewer, or a
    game with no kernel, is an error naming the call, never a read of what is not there."""
    compiled = core.compiled()
    if compiled is None:
        pytest.skip("no compiled core here")
    game = find_game("votey").make()
    state = game.pack(game.initial())
    assert compiled.legal("votey", state) == game.compiled.legal(game.initial())
    for args in (("votey",), ("votey", state, 1)):
        with pytest.raises(TypeError, match=r"legal\(game, state\)"):
            compiled.legal(*args)
    with pytest.raises(ValueError, match="no compiled kernel for chess"):
        compiled.legal("chess", state)
    for wrong in (state + b"\0", state[:-1]):
        said = f"a votey state is {len(state)} bytes, not {len(wrong)}"
        with pytest.raises(ValueError, match=said):
            compiled.legal("votey", wrong)


def votey_start() -> tuple[Any, Any, Any, bytes, list[int]]:
    """The compiled core (the test skipped without one), Votey's rules, its start, and
    the start packed with its legal move codes: what a direct call of the core takes."""
    compiled = core.compiled()
    if compiled is None:
        pytest.skip("no compiled core here")
    game = find_game("votey").make()
    s = game.initial()
    return compiled, game, s, game.pack(s), game.compiled.legal(s)


def test_the_compiled_search_and_perft_refuse_what_would_run_past_their_stacks() -> None:
    """The searcher's and perft's fixed stacks (``MAX_PLY`` plies, ``PERFT_MOST``) and
    options are checked where they are taken: the deepest allowed is searched (to a
    node limit), one more is an error naming it, as are a negative table, a root
    without moves and options out of range. Arbiter's own Python never asks these."""
    compiled, game, s, state, codes = votey_start()
    searcher = compiled.Searcher("votey", 1)
    searcher.begin(node_limit=2_000)
    _, index, finished = searcher.root(state, codes, 127)  # MAX_PLY - 1
    assert not finished and -1 <= index < len(codes)  # stopped by its node limit
    for depth in (0, 128):
        with pytest.raises(ValueError, match=r"root: a move or more, depth 1\.\.127"):
            searcher.root(state, codes, depth)
    with pytest.raises(ValueError, match="a move or more"):
        searcher.root(state, [], 1)
    for options, said in [
        ({"hash_mb": -1}, "hash_mb must not be negative"),
        ({"reduce": 3}, "reduce must be 0, 1 or 2, not 3"),
        ({"reduce": -1}, "reduce must be 0, 1 or 2, not -1"),
        ({"prune": 5}, "prune must be 0 to 4, not 5"),
        ({"prune": -1}, "prune must be 0 to 4, not -1"),
    ]:
        with pytest.raises(ValueError, match=said):
            compiled.Searcher("votey", **options)
    assert compiled.Searcher("votey", 0, 2, 4) is not None  # the largest options taken
    assert compiled.perft("votey", state, 0) == 1
    with pytest.raises(ValueError, match="perft depth at most 64"):
        compiled.perft("votey", state, 65)
    # the greatest depth is counted: from a finished game (no moves, so at once) none
    rng = random.Random(3)
    while game.outcome(s) is None:
        s = game.apply(s, rng.choice(game.legal_moves(s)))
    assert compiled.perft("votey", game.pack(s), 64) == 0


def test_the_compiled_core_is_built_from_the_sources_here() -> None:
    from arbiter import _core

    assert core.sources_digest() == _core.SOURCES


def test_the_compiled_core_counts_bits_in_hardware_where_the_processor_can() -> None:
    """setup.py builds the core for ``popcnt`` on an x86-64 processor that has it (a
    counted loop costs Votey's search about a quarter), unless ``ARBITER_PORTABLE``
    asked for a build to copy elsewhere; the version line says so."""
    import platform
    from pathlib import Path

    from arbiter import _core

    if platform.machine().lower() not in ("x86_64", "amd64"):
        pytest.skip("popcnt is an x86-64 instruction")
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text()
    except OSError:
        pytest.skip("no /proc/cpuinfo to read the processor's instructions from")
    flags = {w for line in cpuinfo.splitlines() if line.startswith("flags") for w in line.split()}
    portable = os.environ.get("ARBITER_PORTABLE", "") not in ("", "0")
    assert ("popcnt" in _core.FEATURES) == ("popcnt" in flags and not portable)
    assert core.describe() == "compiled core (C" + ", popcnt" * ("popcnt" in _core.FEATURES) + ")"


def test_a_core_built_from_other_sources_is_not_used(tmp_path) -> None:
    import shutil

    package = tmp_path / "arbiter"
    shutil.copytree(core.CSRC.parent, package, ignore=shutil.ignore_patterns("__pycache__"))
    with (package / "csrc" / "votey.c").open("a") as f:
        f.write("/* changed after the build */\n")
    done = subprocess.run(
        [sys.executable, "-c", "from arbiter import core; print(core.describe())"],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(tmp_path)),
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "pure-Python core" in done.stdout and "built from other sources" in done.stdout


def long_game(name: str, seed: int, plies: int) -> list[Any]:
    """The positions of a random game kept going (on the pure path): at each ply a move
    that does not end the game, and leaves the opponent no capture, where there is one,
    so the game runs past ``plies`` unless the rules end it."""
    _, pure = both(name)
    rng = random.Random(seed)
    s = pure.initial()
    seen = [s]
    while len(seen) <= plies:
        moves = pure.legal_moves(s)
        if not moves:
            break
        going_on = [m for m in moves if pure.outcome(pure.apply(s, m)) is None] or moves
        safe = [  # where there are captures (checkers, Alquerque)
            m
            for m in going_on
            if hasattr(m, "captures")
            and not any(r.captures for r in pure.legal_moves(pure.apply(s, m)))
        ]
        s = pure.apply(s, rng.choice(safe or going_on))
        seen.append(s)
    return seen


@pytest.mark.parametrize("name", KERNELS)
def test_both_paths_agree_deep_into_long_games(name: str) -> None:
    """Past ply 300 (the property test above stops at 150): the move lists, results
    and evaluations of every position and the position after the move played."""
    compiled, pure = both(name)
    kernel = compiled.compiled
    ev = find_game(name).evaluation
    # the 100-move tie ends every Alquerque game at ply 200; checkers' draw rules end
    # a random game long before ply 300 as a rule
    wanted = {"alquerque": 190, "checkers": 250}.get(name, 300)
    deepest = 0
    for seed in range(8):
        if deepest > wanted and seed >= 2:
            break
        positions = long_game(name, seed, 420)
        deepest = max(deepest, len(positions) - 1)
        for s, after in itertools.pairwise(positions):
            packed = kernel.pack(s)
            assert kernel.core.legal(name, packed) == [kernel.code(m) for m in pure.legal_moves(s)]
            assert compiled.outcome(s) == pure.outcome(s)
            assert kernel.core.evaluate(name, packed) == ev.evaluate(s)
            assert (
                compiled.apply(s, next(m for m in pure.legal_moves(s) if pure.apply(s, m) == after))
                == after
            )
        assert compiled.outcome(positions[-1]) == pure.outcome(positions[-1])
    assert deepest > wanted, f"{name}: the longest game ended at ply {deepest}"


def test_votey_captures_that_connect_a_side_are_judged_alike_on_both_paths() -> None:
    """The rare moves a C bug once hid in (7 of 625,631 random moves): a capture after
    which both sides are connected (the mover wins), and one that connects only the
    side captured from (it wins). Positions of a few pieces a side, placed at random
    with a fixed seed, where such captures are common."""
    from arbiter.games.votey.rules import connected, make_state

    compiled, pure = both("votey")
    rng = random.Random(7)
    found = {"both connected": 0, "captured side connected": 0}
    while min(found.values()) < 30:
        cells = rng.sample(range(64), rng.randint(5, 9))
        split = rng.randint(2, len(cells) - 2)
        black = sum(1 << c for c in cells[:split])
        white = sum(1 << c for c in cells[split:])
        s = make_state((black, white), rng.randint(0, 1))
        if s.winner is not None:
            continue
        for m in pure.legal_moves(s):
            after = pure.apply(s, m)
            p, o = s.to_move, 1 - s.to_move
            if after.pieces[o] == s.pieces[o]:
                continue  # not a capture
            mover, captured = connected(after.pieces[p]), connected(after.pieces[o])
            if mover and captured:
                kind = "both connected"
            elif captured:
                kind = "captured side connected"
            else:
                continue
            found[kind] += 1
            assert compiled.apply(s, m) == after
            assert compiled.outcome(after) == pure.outcome(after)
            assert pure.outcome(after).winner == (p if mover else o)
            packed = compiled.compiled.pack(s)
            code = compiled.compiled.code(m)
            assert compiled.compiled.core.apply("votey", packed, code) == compiled.compiled.pack(
                after
            )


def test_both_searches_see_the_alquerque_tie_at_exactly_ply_200() -> None:
    """The 100-move tie ends a game at ply 200 exactly: the kernel rules it a draw
    there, and a search a few plies before it scores the tie as the pure one does."""
    compiled, pure = both("alquerque")
    kernel = compiled.compiled
    spec = find_game("alquerque")
    for seed in range(8):
        positions = long_game("alquerque", seed, 420)
        if len(positions) > 200:
            break
    else:
        raise AssertionError("no random game reached the tie")
    tie = positions[200]
    outcome = pure.outcome(tie)
    assert outcome is not None and outcome.winner is None
    assert kernel.core.outcome("alquerque", kernel.pack(tie)) == 3  # a draw
    assert kernel.core.legal("alquerque", kernel.pack(tie)) == []
    for s in positions[196:200]:
        scores = []
        for game, on in ((compiled, True), (pure, False)):
            agent = AlphaBetaAgent(spec.evaluation, depth=4, hash_mb=0, compiled=on)
            agent.reset(game, pure.to_move(s), 1)
            agent.choose(s, Limit())
            assert agent.last_info is not None
            scores.append(agent.last_info.score)
        assert scores[0] == scores[1], spec.notation.format_position(s)


@pytest.mark.parametrize(
    ("position", "points"),
    [
        # white to move, 3 men against 5: white's 7 - 5 = 2 tie points, black's 4
        ("bbbbb../......./......./......./......./......./..www.. w 196 - -", 2 - 4),
        # black to move, 4 men against 3: black's 4, white's 3
        ("b.b.b../......./.b...../......./....w../......./..w.w.. b 197 - -", 4 - 3),
    ],
)
def test_both_searches_score_the_alquerque_tie_by_its_codecup_points(
    position: str, points: int
) -> None:
    """Within a search's reach of the tie with fewer than seven men a side, the tie is
    worth its CodeCup points (seven less the opponent's men) to each side; both paths
    score it alike (in a random game both sides keep seven or more, and it is 0)."""
    spec = find_game("alquerque")
    s = spec.notation.parse_position(position)
    scores = []
    for on in (True, False):
        game = spec.make()
        agent = AlphaBetaAgent(spec.evaluation, depth=4, hash_mb=0, compiled=on)
        agent.reset(game, game.to_move(s), 1)
        agent.choose(s, Limit())
        assert agent.last_info is not None and agent.core == ("compiled" if on else "pure")
        scores.append(agent.last_info.score)
    assert scores == [W_TIE_POINT * points] * 2


@pytest.mark.parametrize("name", ["votey", "checkers", "alquerque"])
def test_both_searches_score_a_win_by_how_far_away_it_is(name: str) -> None:
    """Near the end of a random game won by the last mover (in these games random play
    ends in a win), the searches agree on every score, and a win one ply away scores
    WIN - 1: a win further off scores less, so a search takes the quickest."""
    compiled, pure = both(name)
    spec = find_game(name)
    for seed in range(40):
        positions = random_positions(name, seed, 1000)
        out = pure.outcome(positions[-1])
        won = out is not None and out.winner == pure.to_move(positions[-2])
        if won and len(positions) > 6:  # won by the last mover's own move
            break
    else:
        raise AssertionError("no random game ended in a win")
    for back, depth in ((2, 1), (2, 3), (3, 2), (4, 3)):
        s = positions[-back]
        scores = []
        for game, on in ((compiled, True), (pure, False)):
            agent = AlphaBetaAgent(spec.evaluation, depth=depth, hash_mb=0, compiled=on)
            agent.reset(game, pure.to_move(s), 1)
            agent.choose(s, Limit())
            assert agent.last_info is not None
            scores.append(agent.last_info.score)
        assert scores[0] == scores[1], (back, depth, spec.notation.format_position(s))
        if back == 2:
            assert scores[0] == WIN - 1, (depth, scores)


def kernel_outcome(name: str, s: Any) -> int:
    """The kernel's outcome of ``s``: 0 none, 1 the side to move won, 2 it lost, 3 a draw."""
    kernel = both(name)[0].compiled
    return int(kernel.core.outcome(name, kernel.pack(s)))


def test_the_chinese_checkers_kernel_rules_each_crossing_as_the_rules_do() -> None:
    """Every way the crossing ends (or does not yet), hand-made: random games never
    reach them, so the comparison along random games cannot see them."""
    from arbiter.games.chinese_checkers.rules import HOMES, State

    _, pure = both("chinese-checkers")
    away = (1 << 60) | ((HOMES[1] >> 1) & HOMES[1])  # nine of ten home, one out
    back = (1 << 61) | ((HOMES[0] >> 1) & HOMES[0])
    cases = [
        (State((HOMES[1], HOMES[0]), 0, 40), 3),  # both home after the second's move: draw
        (State((HOMES[1], back), 1, 39), 0),  # the first is home: the second moves once more
        (State((HOMES[1], back), 0, 40), 1),  # and did not make it: the first has won
        (State((away, HOMES[0]), 0, 40), 2),  # the second home, the first not: it has lost
        (State((away, HOMES[0]), 1, 41), 1),
    ]
    for s, expected in cases:
        out = pure.outcome(s)
        assert end_code(out, s.to_move) == expected, (s, out)
        assert kernel_outcome("chinese-checkers", s) == expected, (s, out)
    # the second, one move left and too far to make it: whatever it plays, the first
    # (to move next) has won, one ply away, on both searches
    spec = find_game("chinese-checkers")
    s = cases[1][0]
    compiled, _ = both("chinese-checkers")
    for game, on in ((compiled, True), (pure, False)):
        agent = AlphaBetaAgent(spec.evaluation, depth=2, hash_mb=0, compiled=on)
        agent.reset(game, 1, 1)
        agent.choose(s, Limit())
        assert agent.last_info is not None and agent.last_info.score == 1 - WIN, on


def test_both_paths_evaluate_alike_where_one_side_is_home_and_the_other_is_not() -> None:
    """A random game never fills a target camp, where the evaluation's home and trapped
    terms begin to count: a side that plays the evaluation's best move against a random
    one gets there, with the random side's marbles still at home, some of them shut in."""
    name = "chinese-checkers"
    compiled, _ = both(name)
    kernel = compiled.compiled
    ev = find_game(name).evaluation
    shut_in = 0
    for seed in range(4):
        rng = random.Random(seed)
        s = compiled.initial()
        while compiled.outcome(s) is None and s.ply < 400:
            assert kernel.core.evaluate(name, kernel.pack(s)) == ev.evaluate(s), s
            if (s.pieces[0] & HOMES[1]).bit_count() >= TRAP_FROM:
                shut_in += trapped(s, 0)
            moves = compiled.legal_moves(s)
            if s.to_move == 0:
                packed = [kernel.pack(compiled.apply(s, m)) for m in moves]
                after = [kernel.core.evaluate(name, p) for p in packed]
                m = moves[after.index(min(after))]
            else:
                m = rng.choice(moves)
            s = compiled.apply(s, m)
    assert shut_in > 0  # the trapped term was counted, not only the home term


def test_a_chinese_checkers_side_walled_in_but_able_to_hop_has_moves_on_both_paths() -> None:
    """The compiled game looks for a step before it searches hops (steps are cheaper):
    a marble whose every neighbour is taken has no step, but hops over them, so its
    side has moves and the game goes on. Random games seldom wall a side in, so the
    positions are made: one marble ringed by the other side's, every ring hoppable."""
    from arbiter.games.chinese_checkers.rules import CELLS, NEIGHBOURS, NEUTRAL, State

    compiled, pure = both("chinese-checkers")
    kernel = compiled.compiled
    checked = 0
    for c in range(CELLS):
        ring = NEIGHBOURS[c]
        if len(ring) < 6 or (NEUTRAL >> c) & 1:
            continue
        for to_move in (0, 1):
            lone, rest = 1 << c, sum(1 << n for n in ring)
            pieces = (lone, rest) if to_move == 0 else (rest, lone)
            s = State(pieces, to_move, 10)
            hops = pure.legal_moves(s)
            if not hops:
                continue  # every landing off the board or held
            checked += 1
            assert pure.outcome(s) is None and compiled.outcome(s) is None, (c, to_move)
            assert sorted(kernel.legal(s)) == sorted(kernel.code(m) for m in hops)
    assert checked > 50


def test_both_halma_evaluations_agree_where_a_target_camp_has_no_hole() -> None:
    """While the other side has not left its camp there is no hole in it to run to,
    and a side's pieces near it count their plain distance. A game reaches that only
    when one side rushes while the other waits, which no test's games do; so positions
    are made: one side all at home, the other's nineteen scattered, most of them near
    that camp. Both paths score each alike, either side to move."""
    from arbiter.games.halma.rules import CAMPS, CELLS, State

    compiled, pure = both("halma")
    kernel = compiled.compiled
    ev = find_game("halma").evaluation
    rng = random.Random(12)
    checked = 0
    for _ in range(300):
        p = rng.randint(0, 1)  # the side running; the other waits at home
        camp = [c for c in range(CELLS) if CAMPS[1 - p] >> c & 1]
        outside = [c for c in range(CELLS) if not (CAMPS[0] | CAMPS[1]) >> c & 1]
        outside.sort(key=lambda c: min(abs(c % 16 - k % 16) + abs(c // 16 - k // 16) for k in camp))
        spots = list(dict.fromkeys(outside[:25] + rng.sample(outside, 40)))
        running = sum(1 << c for c in rng.sample(spots, 19))
        pieces = (running, CAMPS[1 - p]) if p == 0 else (CAMPS[1 - p], running)
        s = State(pieces, rng.randint(0, 1), 100)
        if pure.outcome(s) is not None:
            continue
        checked += 1
        assert kernel.core.evaluate("halma", kernel.pack(s)) == ev.evaluate(s), s
    assert checked > 200


def _grown(calls: Any, rounds: int = 3000) -> int:
    """Bytes still held after ``rounds`` more runs of ``calls`` than after a warm-up
    (tracemalloc sees what the core allocates through Python's allocators)."""
    import gc
    import tracemalloc

    for _ in range(200):
        calls()
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(rounds):
            calls()
        gc.collect()
        return tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("name", KERNELS)
def test_no_call_of_the_compiled_core_keeps_what_it_made(name: str) -> None:
    """A reference the core forgets to give back (a list of moves, a bytes object, a
    number) is memory lost with every call, which no answer shows: every call of a
    game's kernel, its search and its batch, made thousands of times, holds no more
    memory than before."""
    import numpy as np

    from arbiter.envs.encoding import BoardEncoding
    from arbiter.envs.kernel import Arrays, compiled_games

    compiled, _ = both(name)
    kernel = compiled.compiled
    core_ = kernel.core
    rng = random.Random(5)
    s = compiled.initial()
    for _ in range(6):
        s = compiled.apply(s, rng.choice(compiled.legal_moves(s)))
    state = kernel.pack(s)
    codes = core_.legal(name, state)
    searcher = core_.Searcher(name, 0)
    encoding = BoardEncoding(find_game(name))
    arrays = Arrays.zeros(2, encoding.shape, encoding.actions)
    games = compiled_games(encoding, compiled, arrays, seed=1, auto_reset=True)
    games.init()
    actions = np.zeros(2, np.int64)
    out = np.zeros(encoding.shape, np.int8)

    def rules() -> None:
        core_.legal(name, state)
        core_.noisy(name, state)
        core_.apply(name, state, codes[0])
        core_.outcome(name, state)
        core_.evaluate(name, state)
        core_.hint(name, state, codes[-1])
        core_.perft(name, state, 1)
        if name == "halma":
            core_.halma_moves(state)
        if name == "votey":
            core_.votey_moves_from(s.pieces[0], s.pieces[1])
            core_.votey_has_move(s.pieces[0], s.pieces[1])
            core_.votey_connected(s.pieces[0])
        for wrong in ((name, state[:-1]), ("chess", state)):
            with contextlib.suppress(ValueError):
                core_.legal(*wrong)

    def search() -> None:
        searcher.begin(node_limit=50)
        searcher.root(state, codes, 2)
        searcher.clear()
        searcher.nodes  # noqa: B018 (a property the core computes)

    def searchers() -> None:  # each with a table of its own, freed with it
        core_.Searcher(name, 0.0625).begin(node_limit=1)

    def batch() -> None:
        games.random(actions)
        games.step(actions)
        games.observe(0, 1, out)
        games.legal(0)
        games.state(1)
        games.before(1)
        games.last(0)
        games.waiting(0)
        legal = games.legal(1)
        if legal:
            games.act(1, legal[0])
        games.set(0, state)
        with contextlib.suppress(IndexError):
            games.state(5)

    for calls in (rules, search, searchers, batch):
        assert _grown(calls) < 16_384, (name, calls.__name__)


def test_the_core_s_typed_stub_says_what_the_compiled_module_has() -> None:
    """``_core.pyi`` is what mypy checks every caller of the core against: a function
    the core no longer has, a parameter renamed or a default changed there would be a
    broken contract mypy cannot see. mypy's stubtest holds the stub to the module (the
    core's functions carry their signatures in their docstrings for it)."""
    if core.compiled() is None:
        pytest.skip("no compiled core here")
    done = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "arbiter._core"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:]


def test_the_compiled_search_reads_each_deadline_on_its_own_clock() -> None:
    """A search charged by the wall clock stops at the wall clock's deadline, one
    charged by CPU at its thread's CPU time's, and the referee's stop is on the wall
    clock whatever the charging: each deadline read on another clock would be far
    off (a machine's uptime against a thread's second of CPU). Deadlines already past
    stop the search at its first check; one far off on its own clock leaves it to its
    node limit."""
    compiled, _, _, state, codes = votey_start()
    limit = 20_000

    def nodes(**budget: Any) -> int:
        searcher = compiled.Searcher("votey", 1)
        searcher.begin(node_limit=limit, **budget)
        searcher.root(state, codes, 127)
        return searcher.nodes

    check = 256  # CHECK_EVERY in csrc/search.c: the nodes between two looks at the clocks
    past_wall_deadline = time.monotonic() - 1
    far_wall_deadline = time.monotonic() + 3600
    far_cpu_deadline = (
        time.thread_time() + 30
    )  # long past on the wall clock of a machine up a minute
    assert nodes(deadline=past_wall_deadline, wall=True) <= check
    assert nodes(deadline=1e-9, wall=False) <= check  # the thread has run longer than that
    assert nodes(wall_deadline=past_wall_deadline) <= check
    assert nodes(wall_deadline=past_wall_deadline, wall=False) <= check
    # far off on its own clock, long past on the other
    assert nodes(deadline=far_cpu_deadline, wall=False) == limit
    assert nodes(deadline=far_wall_deadline, wall=True) == limit
    assert nodes() == limit


def test_a_search_stopped_leaves_the_next_move_s_search_whole() -> None:
    """An agent's searcher lives the whole game: a move whose search the clock or the
    referee stopped (``halt``, from another thread) is followed by a move searched with
    its own budget, the same nodes as a searcher that was never stopped (with no
    table, so that nothing but the stop could differ)."""
    compiled, _, _, state, codes = votey_start()
    limit = 5_000
    fresh = compiled.Searcher("votey", 0)
    fresh.begin(node_limit=limit)
    fresh.root(state, codes, 127)
    assert fresh.nodes == limit
    for stop in ("deadline", "halt"):
        stopped = compiled.Searcher("votey", 0)
        if stop == "halt":
            stopped.begin(node_limit=limit)
            stopped.halt()
        else:
            stopped.begin(node_limit=limit, wall_deadline=time.monotonic() - 1)
        assert stopped.root(state, codes, 127)[2] is False, stop  # stopped part way
        stopped.begin(node_limit=limit)
        stopped.root(state, codes, 127)
        assert stopped.nodes == limit, stop
