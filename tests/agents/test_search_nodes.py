"""The compiled search visits exactly the nodes it did when ``search_nodes.json`` was
written (``scripts/search_nodes.py``): changes made for speed (move generation,
ordering, the table) leave every fixed-depth search as it was, node for node, with
the same score and move. A change meant to alter the search writes the file again."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from arbiter import core
from scripts.search_nodes import searched

ROWS: list[dict[str, Any]] = json.loads((Path(__file__).parent / "search_nodes.json").read_text())


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['game']}-{i % 3}" for i, r in enumerate(ROWS)])
def test_a_fixed_depth_search_visits_the_nodes_it_did(row: dict[str, Any]) -> None:
    if not core.available():
        if os.environ.get("ARBITER_CORE") == "required":
            pytest.fail(f"the compiled core is required here: {core.describe()}")
        pytest.skip("the compiled core is not built")
    if core.compiled() is None:
        pytest.skip("the pure path is asked for (ARBITER_PURE)")
    found = searched(row["game"], row["position"], row["depth"])
    assert found == {k: row[k] for k in ("nodes", "score", "move")}, row["position"]
