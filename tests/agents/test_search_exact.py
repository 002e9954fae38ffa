"""Alpha-beta with its table and move ordering returns the plain minimax value."""

from __future__ import annotations

import random

import pytest

from arbiter.agents.alphabeta import WIN, AlphaBetaAgent
from arbiter.clock import Limit
from arbiter.games import find_game
from scripts.search_nodes import positions


def minimax(spec, game, s, depth: int, ply: int) -> int:
    """Negamax without pruning, with the agent's leaf rules (quiescence over forced moves)."""
    out = game.outcome(s)
    if out is not None:
        if out.winner is None:
            return spec.evaluation.draw_value(s)
        return WIN - ply if out.winner == game.to_move(s) else ply - WIN
    if depth <= 0:
        forced = spec.evaluation.noisy_moves(s)
        if not forced:
            return spec.evaluation.evaluate(s)
        return max(-minimax(spec, game, game.apply(s, m), 0, ply + 1) for m in forced)
    return max(
        -minimax(spec, game, game.apply(s, m), depth - 1, ply + 1) for m in game.legal_moves(s)
    )


def agent_at(spec, game, s, depth: int, compiled: bool = False) -> AlphaBetaAgent:
    """A fixed-depth agent ready to play the side to move in ``s``."""
    agent = AlphaBetaAgent(spec.evaluation, depth=depth, compiled=compiled)
    agent.reset(game, game.to_move(s), 0)
    return agent


@pytest.mark.parametrize(("name", "depth"), [("votey", 2), ("checkers", 4)])
def test_root_score_equals_minimax(name: str, depth: int) -> None:
    spec = find_game(name)
    game = spec.make()
    for s in positions(game, seed=depth, count=4, plies=(4, 30)):
        agent = agent_at(spec, game, s, depth)
        agent.choose(s, Limit())
        assert agent.last_info is not None
        assert agent.last_info.score == minimax(spec, game, s, depth, 0)


def ends_near(game, seed: int, count: int, before: int) -> list:
    """Positions of seeded random games that end in a win, 1 to ``before`` plies before
    the win: where a search's scores are mates, its table holding them at one ply and
    reading them at another."""
    rng = random.Random(seed)
    out: list = []
    while len(out) < count:
        line = [game.initial()]
        while game.outcome(line[-1]) is None:
            line.append(game.apply(line[-1], rng.choice(game.legal_moves(line[-1]))))
        if game.outcome(line[-1]).winner is not None:
            out.append(line[-1 - rng.randint(1, before)])
    return out


@pytest.mark.parametrize("compiled", [False, True], ids=["pure", "compiled"])
def test_a_mate_read_from_the_table_is_as_far_as_minimax_says(compiled: bool) -> None:
    spec = find_game("checkers")
    game = spec.make({"max_plies": 400})
    mates = 0
    for s in ends_near(game, seed=5, count=12, before=4):
        agent = agent_at(spec, game, s, 4, compiled)
        agent.choose(s, Limit())
        assert agent.last_info is not None
        assert agent.last_info.score == minimax(spec, game, s, 4, 0)
        mates += abs(agent.last_info.score) > WIN - 100
    assert mates >= 6


@pytest.mark.parametrize("compiled", [False, True], ids=["pure", "compiled"])
def test_a_loss_stored_at_one_ply_and_read_at_another_keeps_its_distance(compiled: bool) -> None:
    """An agent keeps its table between moves: it first searches each position a move
    from ``s`` (the losses found there stored at their root, ply 0), then ``s``, where
    the same entries are read one ply down. A mate read back must be as far as minimax
    says, not two plies off (the read's ply added where it is subtracted)."""
    spec = find_game("checkers")
    game = spec.make({"max_plies": 400})
    mates = 0
    for s in ends_near(game, seed=5, count=12, before=4):
        expected = minimax(spec, game, s, 4, 0)
        if abs(expected) < WIN - 100:
            continue
        mates += 1
        agent = agent_at(spec, game, s, 4, compiled)
        for m in game.legal_moves(s):
            child = game.apply(s, m)
            if game.outcome(child) is None:
                agent.choose(child, Limit())
        agent.choose(s, Limit())
        assert agent.last_info is not None
        assert agent.last_info.score == expected
    assert mates >= 6
