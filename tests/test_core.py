"""The compiled core against the pure-Python reference: along random games of every
game with a kernel, the same legal moves, positions, results, evaluations, hints and
forced moves; the compiled search's score equal to the pure search's at a fixed
depth; a fixed-size table; halting and time; which core is in use.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbiter import core
from arbiter.agents.alphabeta import AlphaBetaAgent
from arbiter.clock import Limit
from arbiter.games import GAME_NAMES, find_game

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


def test_every_game_has_a_kernel() -> None:
    assert list(GAME_NAMES) == KERNELS


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
        expected = (
            0
            if out is None
            else 3
            if out.winner is None
            else 1
            if out.winner == pure.to_move(s)
            else 2
        )
        assert kernel.core.outcome(name, packed) == expected
        if out is not None:
            continue
        assert kernel.core.evaluate(name, packed) == ev.evaluate(s)
        assert kernel.core.noisy(name, packed) == [kernel.code(m) for m in ev.noisy_moves(s)]
        for m in moves:
            assert kernel.core.hint(name, packed, kernel.code(m)) == ev.order_hint(s, m)
            after = pure.apply(s, m)
            assert compiled.apply(s, m) == after
            assert kernel.core.apply(name, packed, kernel.code(m)) == kernel.pack(after)


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


@pytest.mark.parametrize(("env", "says"), [({}, "compiled core"), ({"ARBITER_PURE": "1"}, "pure")])
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
