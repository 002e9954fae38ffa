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
