"""The built-in agents: legal, repeatable, strong enough to see a win, within their time."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pytest

from arbiter.agents.alphabeta import AlphaBetaAgent
from arbiter.agents.registry import ENGINES, make_agent
from arbiter.agents.spec import AgentSpec
from arbiter.clock import Limit
from arbiter.errors import ConfigError
from arbiter.games import find_game
from arbiter.games.votey.notation import format_move, parse_position

from ..games.votey.test_rules import FIGURE3

SPEC = find_game("votey")


@pytest.mark.parametrize("name", ENGINES)
def test_same_seed_same_choices(name: str) -> None:
    game = SPEC.make()

    def moves(seed: int) -> list[str]:
        agent = make_agent(SPEC, AgentSpec.parse(name).with_options(depth=2))
        agent.reset(game, 0, seed)
        s, out = game.initial(), []
        for _ in range(6):
            m = agent.choose(s, Limit(time=5))
            assert m in game.legal_moves(s)
            out.append(format_move(m, seat=0))
            s = game.apply(s, m)
        return out

    assert moves(1) == moves(1)


@pytest.mark.parametrize("name", ["greedy", "alphabeta"])
def test_finds_the_figure3_win(name: str) -> None:
    game = SPEC.make()
    agent = make_agent(SPEC, name)
    agent.reset(game, 0, 0)
    s = parse_position(FIGURE3 + " b")
    assert format_move(agent.choose(s, Limit(time=2)), seat=0) == "2454"


def test_alphabeta_defends_figure3_for_white() -> None:
    game = SPEC.make()
    agent = make_agent(SPEC, "alphabeta:depth=2")
    agent.reset(game, 1, 0)
    s = parse_position(FIGURE3 + " w")
    m = agent.choose(s, Limit())
    after = game.apply(s, m)
    assert all(game.apply(after, r).winner != 0 for r in game.legal_moves(after))


@pytest.mark.timing
def test_alphabeta_stops_within_its_time() -> None:
    game = SPEC.make()
    agent = make_agent(SPEC, "alphabeta")
    agent.reset(game, 0, 0)
    agent.choose(game.initial(), Limit(time=0.3))
    assert isinstance(agent, AlphaBetaAgent) and agent.last_info is not None
    # the search reports the CPU it used: within its budget, and it finished a depth
    assert agent.last_info.seconds <= 0.3
    assert agent.last_info.depth >= 1


@pytest.mark.parametrize("core_path", ["compiled", "pure"], indirect=True)  # tests/conftest.py
@pytest.mark.parametrize("name", ["votey", "checkers", "alquerque", "chinese_checkers", "halma"])
def test_a_node_limit_is_kept_to_the_node(name: str, core_path: str) -> None:
    """A node limit makes an engine's strength the same on any machine (cutechess's
    ``nodes=``), so it is a count, not a rough bound: a search stopped by it has visited
    exactly that many nodes, on either core, not one more or a check's stride more."""
    spec = find_game(name)
    game = spec.make()
    agent = make_agent(spec, "alphabeta")
    agent.reset(game, 0, 0)
    agent.choose(game.initial(), Limit(nodes=600, time=10))
    assert agent.last_info is not None and agent.last_info.nodes == 600


def test_alphabeta_asked_to_move_in_a_finished_game_says_so() -> None:
    game = SPEC.make({"max_plies": 1})
    agent = make_agent(SPEC, "alphabeta")
    agent.reset(game, 0, 0)
    s = game.apply(game.initial(), game.legal_moves(game.initial())[0])
    assert game.outcome(s) is not None and not game.legal_moves(s)
    with pytest.raises(ValueError, match="choose\\(\\) called in a finished game"):
        agent.choose(s, Limit(time=1))


def test_unknown_engine() -> None:
    with pytest.raises(ConfigError, match="'deepblue'"):
        make_agent(SPEC, "deepblue")


def test_the_transposition_table_never_grows_past_its_size() -> None:
    from arbiter.agents.alphabeta import ENTRY_BYTES, AlphaBetaAgent

    spec = find_game("alquerque")
    game = spec.make()
    agent = AlphaBetaAgent(spec.evaluation, hash_mb=1)
    agent.reset(game, 0, 0)
    s = game.initial()
    for _ in range(4):  # searches of many more nodes than the table holds
        agent.choose(s, Limit(depth=12, nodes=20_000))
        assert agent.last_info is not None and agent.last_info.nodes > 3 * 2**20 // ENTRY_BYTES
        assert len(agent._tt) <= 2**20 // ENTRY_BYTES + 1
        s = game.apply(s, agent.choose(s, Limit(depth=1)))


@pytest.mark.timing
def test_built_in_engines_keep_to_the_shortest_clock_on_a_busy_machine() -> None:
    """At 0.05 s a move, charged as wall time (Alquerque's), with every core kept
    busy: greedy, whose settling of capture chains takes half a second for a move on
    an idle machine, and alpha-beta both play on within their time."""
    import gc
    import os
    import subprocess
    import sys

    from arbiter.tournament.match import Match

    # the suite's own heap (every module its tests import: some 230,000 objects) is
    # left out of the collector: a full collection of it takes 200 ms on this busy
    # machine, and would land in a 50 ms move of an engine whose own process (the
    # referee's, `arbiter match`) collects a tenth of it in under 20 ms
    gc.collect()
    gc.freeze()
    hogs = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"])
        for _ in range(os.cpu_count() or 2)
    ]
    try:
        match = Match.between("alquerque", "greedy", "alphabeta", games=2, move_time=0.05)
        games = list(match.play())
    finally:
        gc.unfreeze()
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert len(games) == 2
    for played in games:
        out = played.record.outcome
        assert not out.reason.is_fault, f"{out.result()} by {out.reason} ({out.detail})"


def test_a_side_ahead_does_not_walk_back_into_a_position_it_left() -> None:
    """Alquerque's engine a man up, asked twice in the same position (a cycle came back
    to it): the second time it leaves a position it has not left before. Behind, or
    in a game without the rule, nothing is ruled out."""
    spec = find_game("alquerque")
    game = spec.rules()
    # white (to move) a man up: its pieces can shuffle back and forth
    s = spec.notation.parse_position(
        "......./..b..../......./...w.../.w...../......./....... w 120 - -"
    )
    agent = make_agent(spec, "alphabeta:depth=3")
    agent.reset(game, 0, 1)
    key = spec.evaluation.placement
    first = agent.choose(s, Limit())
    second = agent.choose(s, Limit())
    assert key(game.apply(s, second)) != key(game.apply(s, first))
    assert isinstance(agent, AlphaBetaAgent)
    moves = list(game.legal_moves(s))
    behind = game.apply(s, moves[0])  # black to move, a man down: no rule
    assert agent._fresh(behind, list(game.legal_moves(behind))) == list(game.legal_moves(behind))
    votey = make_agent(find_game("votey"), "alphabeta")
    assert isinstance(votey, AlphaBetaAgent) and votey._repeats is None


def test_a_side_that_has_won_goes_on_to_the_win() -> None:
    """A Chinese checkers race seat 1 has won (seven plies to its last marble home,
    whatever seat 0 does), both sides the built-in engine keeping its table between
    moves. Each move's search finds the win at once through the table, at a depth
    shallower than the win is far; taken as final, that far win had the winner step
    back into the position it was proved in, and the two shuffled to the move limit.
    The winner now arrives within the seven plies: with the game's late-move pruning
    and without it (the pruned search happens to find the near win first here, so
    only the unpruned one, as Votey's, checkers' and Alquerque's search, would cycle)."""
    spec = find_game("chinese-checkers")
    game = spec.rules()
    for engine in ("alphabeta", "alphabeta:prune=0"):
        s = spec.notation.parse_position(
            "2/2./222/222./.......2...../.....2....../.........../........../........./"
            "........../.........../......1...../........1..../1.11/1.1/11/1 2 59"
        )
        agents = [make_agent(spec, engine), make_agent(spec, engine)]
        for seat, agent in enumerate(agents):
            agent.reset(game, seat, 1)
        start = s.ply
        while game.outcome(s) is None and s.ply < start + 40:
            s = game.apply(s, agents[game.to_move(s)].choose(s, Limit(depth=8)))
        out = game.outcome(s)
        assert out is not None and out.winner == 1, f"{engine}: no win after {s.ply - start} plies"
        assert s.ply - start <= 7, engine


def _marked_positions(
    game: Any, seeds: Iterable[int], mark: Callable[[Any, list[Any], int], list[Any]]
) -> Iterator[tuple[int, Any, list[Any]]]:
    """For each seed, the first position of a random game where ``mark(s, moves, me)``
    picks some of the legal moves but not all: the seed, the position, the moves."""
    for seed in seeds:
        rng = random.Random(seed)
        s = game.initial()
        while game.outcome(s) is None:
            moves = list(game.legal_moves(s))
            marked = mark(s, moves, game.to_move(s))
            if marked and len(marked) < len(moves):
                yield seed, s, marked
                break
            s = game.apply(s, rng.choice(moves))


@pytest.mark.parametrize("engine", ["greedy", "alphabeta:depth=1"])
def test_no_engine_hands_the_opponent_a_win_when_it_need_not(engine: str) -> None:
    """Positions of random Votey games where one move connects the opponent's pieces
    (a win for them at once) and others do not: each engine keeps clear of it."""
    spec = find_game("votey")
    game = spec.make()

    def gifts(s: Any, moves: list[Any], me: int) -> list[Any]:
        return [m for m in moves if (o := game.outcome(game.apply(s, m))) and o.winner == 1 - me]

    found = list(_marked_positions(game, range(5), gifts))
    for seed, s, gift in found:
        agent = make_agent(spec, engine)
        agent.reset(game, game.to_move(s), 1)
        assert agent.choose(s, Limit(time=5)) not in gift, (seed, engine)
    assert len(found) == 5


def _wins_by_force(game: Any, s: Any, m: Any, me: int) -> bool:
    """Whether ``m`` leaves the opponent only captures, each answered by a winning move."""
    child = game.apply(s, m)
    replies = game.legal_moves(child)
    if game.outcome(child) is not None or not replies or not all(r.captures for r in replies):
        return False
    for r in replies:
        after = game.apply(child, r)
        if game.outcome(after) is not None:
            return False
        ends = (game.outcome(game.apply(after, x)) for x in game.legal_moves(after))
        if not any(o is not None and o.winner == me for o in ends):
            return False
    return True


def test_greedy_plays_a_shot_whose_forced_captures_win_the_game() -> None:
    """Checkers positions of random games with a shot: a move that gives the opponent
    only captures, each answered by a win. The greedy engine follows forced captures
    to the end of the game, so it plays the shot (it scores where the game is won)."""
    spec = find_game("checkers")
    game = spec.make()

    def shots(s: Any, moves: list[Any], me: int) -> list[Any]:
        if any((o := game.outcome(game.apply(s, m))) and o.winner == me for m in moves):
            return []  # a win at once: no shot needed
        return [m for m in moves if _wins_by_force(game, s, m, me)]

    found = list(itertools.islice(_marked_positions(game, range(40), shots), 3))
    for seed, s, shot in found:
        agent = make_agent(spec, "greedy")
        agent.reset(game, game.to_move(s), 1)
        assert agent.choose(s, Limit(time=5)) in shot, seed
    assert len(found) == 3


@pytest.mark.parametrize(
    ("game", "at_start", "late"),
    [("votey", 30, 10), ("checkers", 30, 15), ("alquerque", 25, 1)],
)
def test_a_search_budgets_its_clock_over_the_moves_it_expects_to_play(
    game: str, at_start: int, late: int
) -> None:
    """Many moves to go at first (a small share of the clock a move), a floor late in
    the game (a long game still leaves time for its end)."""
    from dataclasses import replace

    spec = find_game(game)
    s = spec.make().initial()
    assert spec.evaluation.moves_to_go(s) == at_start
    assert spec.evaluation.moves_to_go(replace(s, ply=199)) == late


def test_a_search_that_has_not_run_has_no_note() -> None:
    agent = make_agent(SPEC, "alphabeta")
    agent.reset(SPEC.make(), 0, 0)
    assert agent.note() == ""
    agent.choose(SPEC.make().initial(), Limit(depth=2))
    assert agent.note().startswith("depth 2, score ")


def test_other_seeds_give_other_random_games() -> None:
    """The random agent follows its seed: a tournament's games differ by their seeds."""
    from arbiter.agents.random import RandomAgent

    game = SPEC.make()

    def moves(seed: int) -> list[object]:
        agent: RandomAgent[Any, Any] = RandomAgent()
        agent.reset(game, 0, seed)
        s, played = game.initial(), []
        for _ in range(12):
            if game.outcome(s) is not None:
                break
            m = agent.choose(s, Limit())
            played.append(m)
            s = game.apply(s, m)
        return played

    assert moves(1) == moves(1)
    assert len({tuple(moves(seed)) for seed in range(5)}) == 5


def test_the_rearmost_piece_is_the_largest_distance_not_the_last() -> None:
    from arbiter.bitboard import total_and_max

    assert total_and_max(0b111, [4, 9, 6]) == (19, 9)
    assert total_and_max(0, [4, 9, 6]) == (0, 0)


@pytest.mark.parametrize("option", ["depth", "hash", "prune"])
def test_an_engine_option_at_its_limit_is_taken_and_past_it_refused(option: str) -> None:
    from arbiter.agents.spec import OPTION_LIMITS

    most = OPTION_LIMITS[option]
    assert AgentSpec.parse(f"alphabeta:{option}={most}").option(option) == most
    with pytest.raises(ConfigError, match=f"{option} must be at most {most}"):
        AgentSpec.parse(f"alphabeta:{option}={most + 1}")
