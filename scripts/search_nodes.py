"""Writes ``tests/agents/search_nodes.json``: for each game, three positions from
seeded random games and what the compiled alpha-beta search does there at a fixed
depth (its nodes, score and move), with the nodes the pure-Python search visits
(``pure_nodes``: its table and its ordering are its own, so its count is pinned
apart; equal in most rows, a node or two off in a few).

The file pins the search: a change made for speed (move generation, ordering, the
table) must leave every count as it was, and ``tests/agents/test_search_nodes.py``
fails if one moves. Run this again only for a change meant to alter the search (a
new pruning, another evaluation), and say so in its commit.

    python scripts/search_nodes.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from arbiter import core
from arbiter.agents.alphabeta import AlphaBetaAgent, Reductions
from arbiter.clock import Limit
from arbiter.games import GAME_NAMES, find_game

DEPTH = {"votey": 5, "checkers": 9, "alquerque": 7, "chinese-checkers": 4, "halma": 4}
OUT = Path(__file__).resolve().parents[1] / "tests" / "agents" / "search_nodes.json"


def positions(game: Any, seed: int, count: int = 3, plies: tuple[int, int] = (10, 60)) -> list[Any]:
    """Positions of seeded random games after ``plies`` (a range, its end excluded)
    random plies, each with a choice of moves and no result."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = game.initial()
        for _ in range(rng.randrange(*plies)):
            if game.outcome(s) is not None:
                break
            s = game.apply(s, rng.choice(game.legal_moves(s)))
        if game.outcome(s) is None and len(game.legal_moves(s)) > 1:
            out.append(s)
    return out


def searched(name: str, position: str, depth: int, *, compiled: bool = True) -> dict[str, Any]:
    """The compiled (or pure-Python) search of ``position`` at ``depth``, with the
    game's own late-move reductions and pruning (its evaluation's ``REDUCE`` and
    ``PRUNE``): nodes, score and move."""
    spec = find_game(name)
    game = spec.make()
    s = spec.notation.parse_position(position)
    reduce = Reductions(getattr(spec.evaluation, "REDUCE", 0))
    prune = getattr(spec.evaluation, "PRUNE", 0)
    agent = AlphaBetaAgent(
        spec.evaluation, depth=depth, compiled=compiled, reduce=reduce, prune=prune
    )
    agent.reset(game, game.to_move(s), 1)
    move = agent.choose(s, Limit())
    assert agent.core == ("compiled" if compiled else "pure") and agent.last_info is not None
    text = spec.contest.move_text(game, s, move, seat=0)
    return {"nodes": agent.last_info.nodes, "score": agent.last_info.score, "move": text}


def main() -> None:
    if not core.available():
        raise SystemExit(f"the compiled core is needed: {core.describe()}")
    rows = []
    for name in GAME_NAMES:
        spec = find_game(name)
        for s in positions(spec.make(), seed=23):
            position = str(spec.notation.format_position(s))
            rows.append({"game": name, "depth": DEPTH[name], "position": position})
            rows[-1] |= searched(name, position, DEPTH[name])
            rows[-1]["pure_nodes"] = searched(name, position, DEPTH[name], compiled=False)["nodes"]
    OUT.write_text(json.dumps(rows, indent=1) + "\n")
    print(f"{len(rows)} searches written to {OUT}")


if __name__ == "__main__":
    main()
