"""The compiled search visits exactly the nodes it did when ``search_nodes.json`` was
written (``scripts/search_nodes.py``): changes made for speed (move generation,
ordering, the table) leave every fixed-depth search as it was, node for node, with
the same score and move. The pure-Python search, with its own table and ordering, is
pinned by its own count. A change meant to alter the search writes the file again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arbiter.agents.alphabeta import AlphaBetaAgent, Reductions
from arbiter.clock import Limit
from arbiter.games import find_game
from scripts.search_nodes import searched

ROWS: list[dict[str, Any]] = json.loads((Path(__file__).parent / "search_nodes.json").read_text())


@pytest.mark.parametrize("core_path", ["compiled"], indirect=True)  # tests/conftest.py
@pytest.mark.parametrize("row", ROWS, ids=[f"{r['game']}-{i % 3}" for i, r in enumerate(ROWS)])
def test_a_fixed_depth_search_visits_the_nodes_it_did(row: dict[str, Any]) -> None:
    found = searched(row["game"], row["position"], row["depth"])
    assert found == {k: row[k] for k in ("nodes", "score", "move")}, row["position"]


QUICK = [r for r in ROWS if r["pure_nodes"] <= 40_000]  # the pure search's seconds, not minutes


@pytest.mark.parametrize("row", QUICK, ids=[f"{r['game']}-{i % 3}" for i, r in enumerate(QUICK)])
def test_the_pure_search_visits_the_nodes_it_did_with_the_compiled_ones_answer(
    row: dict[str, Any],
) -> None:
    found = searched(row["game"], row["position"], row["depth"], compiled=False)
    assert found == {"nodes": row["pure_nodes"], "score": row["score"], "move": row["move"]}


@pytest.mark.parametrize("core_path", ["compiled", "pure"], indirect=True)  # tests/conftest.py
@pytest.mark.parametrize("game", sorted({r["game"] for r in ROWS}))
def test_an_agent_reset_for_the_next_game_searches_as_a_fresh_one(
    core_path: str, game: str
) -> None:
    """Within a game an agent keeps its table and history from move to move; reset for
    the next game (the same game again, as a tournament's next pairing) it empties
    them, and visits exactly the nodes a new agent visits."""
    spec = find_game(game)
    rules = spec.make()
    row = min((r for r in ROWS if r["game"] == game), key=lambda r: int(r["nodes"]))
    s = spec.notation.parse_position(row["position"])
    depth = row["depth"] - (0 if core_path == "compiled" else 2)  # the pure one: seconds

    def agent() -> AlphaBetaAgent[Any, Any]:
        return AlphaBetaAgent(
            spec.evaluation,
            depth=depth,
            compiled=core_path == "compiled",
            reduce=Reductions(getattr(spec.evaluation, "REDUCE", 0)),
            prune=getattr(spec.evaluation, "PRUNE", 0),
        )

    def nodes(searcher: AlphaBetaAgent[Any, Any]) -> int:
        searcher.reset(rules, rules.to_move(s), 1)
        searcher.choose(s, Limit())
        assert searcher.core == core_path and searcher.last_info is not None
        return searcher.last_info.nodes

    kept = agent()
    nodes(kept)
    assert nodes(kept) == nodes(agent())
