"""Alpha-beta with its table and move ordering returns the plain minimax value."""

from __future__ import annotations

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


@pytest.mark.parametrize(("name", "depth"), [("votey", 2), ("checkers", 4)])
def test_root_score_equals_minimax(name: str, depth: int) -> None:
    spec = find_game(name)
    game = spec.make()
    for s in positions(game, seed=depth, count=4, plies=(4, 30)):
        agent = AlphaBetaAgent(spec.evaluation, depth=depth)
        agent.reset(game, game.to_move(s), 0)
        agent.choose(s, Limit())
        assert agent.last_info is not None
        assert agent.last_info.score == minimax(spec, game, s, depth, 0)
