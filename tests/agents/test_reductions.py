"""Late-move reductions: the same on both search paths, switched per game and per
engine, and pruning for real where they are on."""

from __future__ import annotations

from typing import Any

import pytest

from arbiter import core
from arbiter.agents.alphabeta import AlphaBetaAgent, Reductions
from arbiter.agents.registry import make_agent
from arbiter.agents.spec import AgentSpec
from arbiter.clock import Limit
from arbiter.errors import ConfigError
from arbiter.games import find_game
from scripts.search_nodes import positions

DEPTH = {"votey": 4, "checkers": 6, "chinese-checkers": 4, "halma": 4}


def searched(name: str, s: Any, *, compiled: bool, reduce: Reductions) -> tuple[int, int]:
    """Nodes and score of a table-less search of ``s`` at the game's test depth."""
    spec = find_game(name)
    if compiled:
        game = spec.make()
    else:
        with core.forced_pure():
            game = spec.make()
    agent = AlphaBetaAgent(
        spec.evaluation, depth=DEPTH[name], hash_mb=0, compiled=compiled, reduce=reduce
    )
    agent.reset(game, game.to_move(s), 1)
    agent.choose(s, Limit())
    assert agent.core == ("compiled" if compiled else "pure")
    assert agent.last_info is not None
    return agent.last_info.nodes, agent.last_info.score


@pytest.mark.skipif(not core.available(), reason="the compiled core is not built")
@pytest.mark.parametrize("name", sorted(DEPTH))
def test_both_paths_reduce_the_same_moves(name: str) -> None:
    """Without a table the two searches order moves alike, so with reductions they
    must visit the same nodes: a reduction taken on one path only, or from another
    move or depth, or of a move the mode keeps at full depth, shows as a different
    count; and the quiet-only mode must prune, less than reducing every late move
    (in checkers, where only captures are hinted and they are forced, as much)."""
    game = find_game(name).make()
    pruned = 0
    for s in positions(game, seed=5, count=2):
        full = searched(name, s, compiled=True, reduce=Reductions.NONE)
        every = searched(name, s, compiled=True, reduce=Reductions.ALL)
        quiet = searched(name, s, compiled=True, reduce=Reductions.QUIET)
        assert every == searched(name, s, compiled=False, reduce=Reductions.ALL)
        assert quiet == searched(name, s, compiled=False, reduce=Reductions.QUIET)
        assert every[0] <= quiet[0] <= full[0]
        pruned += quiet[0] < full[0]
    assert pruned >= 1


def test_the_game_says_whether_its_engine_reduces_and_the_engine_option_overrides() -> None:
    votey, checkers = find_game("votey"), find_game("checkers")
    assert make_agent(votey, "alphabeta").reduce  # type: ignore[attr-defined]
    assert not make_agent(votey, "alphabeta:reduce=0").reduce  # type: ignore[attr-defined]
    assert not make_agent(checkers, "alphabeta").reduce  # type: ignore[attr-defined]
    assert make_agent(checkers, "alphabeta:reduce=1").reduce == Reductions.ALL  # type: ignore[attr-defined]
    assert make_agent(votey, "alphabeta:reduce=2").reduce == Reductions.QUIET  # type: ignore[attr-defined]


def test_switch_options_take_zero_and_the_others_do_not() -> None:
    assert AgentSpec.parse("alphabeta:reduce=0,pure=0").options == (("reduce", 0), ("pure", 0))
    with pytest.raises(ConfigError, match="depth must be a whole number >= 1"):
        AgentSpec.parse("alphabeta:depth=0")
    with pytest.raises(ConfigError, match="reduce must be at most 2"):
        AgentSpec.parse("alphabeta:reduce=3")


@pytest.mark.skipif(not core.available(), reason="the compiled core is not built")
def test_the_compiled_searcher_refuses_an_unknown_mode() -> None:
    with pytest.raises(ValueError, match="reduce must be 0, 1 or 2, not 3"):
        core.compiled().Searcher("votey", 0, 3)  # type: ignore[union-attr]
