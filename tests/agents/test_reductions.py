"""Late-move reductions and late-move pruning: the same on both search paths, switched
per game and per engine, and cutting the search for real where they are on."""

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


def searched(
    name: str,
    s: Any,
    *,
    compiled: bool,
    reduce: Reductions = Reductions.NONE,
    prune: int = 0,
    depth: int | None = None,
) -> tuple[int, int]:
    """Nodes and score of a table-less search of ``s`` at the game's test depth."""
    spec = find_game(name)
    if compiled:
        game = spec.make()
    else:
        with core.forced_pure():
            game = spec.make()
    agent = AlphaBetaAgent(
        spec.evaluation,
        depth=depth or DEPTH[name],
        hash_mb=0,
        compiled=compiled,
        reduce=reduce,
        prune=prune,
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


@pytest.mark.skipif(not core.available(), reason="the compiled core is not built")
@pytest.mark.parametrize("name", ["halma", "chinese-checkers"])
def test_both_paths_prune_the_same_moves(name: str) -> None:
    """With late-move pruning the two searches must still visit the same nodes: a cut
    at another move count or depth on one path shows as a different count. In
    positions with many moves (the middle game's) pruning cuts the search, and
    pruning at two plies left never searches more than at one."""
    game = find_game(name).make()
    found = positions(game, seed=7, count=8, plies=(40, 60))
    crowded = [s for s in found if len(game.legal_moves(s)) >= 40][:2]
    assert len(crowded) == 2
    for s in crowded:
        full = searched(name, s, compiled=True, depth=3)
        one = searched(name, s, compiled=True, depth=3, prune=1)
        two = searched(name, s, compiled=True, depth=3, prune=2)
        assert one == searched(name, s, compiled=False, depth=3, prune=1)
        assert two == searched(name, s, compiled=False, depth=3, prune=2)
        assert two[0] <= one[0] < full[0] / 2


def test_the_game_says_whether_its_engine_reduces_and_the_engine_option_overrides() -> None:
    votey, checkers = find_game("votey"), find_game("checkers")
    assert make_agent(votey, "alphabeta").reduce  # type: ignore[attr-defined]
    assert not make_agent(votey, "alphabeta:reduce=0").reduce  # type: ignore[attr-defined]
    assert not make_agent(checkers, "alphabeta").reduce  # type: ignore[attr-defined]
    assert make_agent(checkers, "alphabeta:reduce=1").reduce == Reductions.ALL  # type: ignore[attr-defined]
    assert make_agent(votey, "alphabeta:reduce=2").reduce == Reductions.QUIET  # type: ignore[attr-defined]
    halma = find_game("halma")
    assert make_agent(halma, "alphabeta").prune == 3  # type: ignore[attr-defined]
    assert make_agent(halma, "alphabeta:prune=0").prune == 0  # type: ignore[attr-defined]
    assert make_agent(checkers, "alphabeta").prune == 0  # type: ignore[attr-defined]
    assert make_agent(checkers, "alphabeta:prune=2").prune == 2  # type: ignore[attr-defined]


def test_switch_options_take_zero_and_the_others_do_not() -> None:
    assert AgentSpec.parse("alphabeta:reduce=0,pure=0").options == (("reduce", 0), ("pure", 0))
    with pytest.raises(ConfigError, match="depth must be a whole number >= 1"):
        AgentSpec.parse("alphabeta:depth=0")
    with pytest.raises(ConfigError, match="reduce must be at most 2"):
        AgentSpec.parse("alphabeta:reduce=3")
    assert AgentSpec.parse("alphabeta:prune=0").options == (("prune", 0),)
    with pytest.raises(ConfigError, match="prune must be at most 4"):
        AgentSpec.parse("alphabeta:prune=5")


@pytest.mark.skipif(not core.available(), reason="the compiled core is not built")
def test_the_compiled_searcher_refuses_an_unknown_mode() -> None:
    with pytest.raises(ValueError, match="reduce must be 0, 1 or 2, not 3"):
        core.compiled().Searcher("votey", 0, 3)  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="prune must be 0 to 4, not 5"):
        core.compiled().Searcher("halma", 0, 0, 5)  # type: ignore[union-attr]
