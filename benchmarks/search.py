"""Search speed: alpha-beta nodes/second and the depth reached in a fixed time, per
position, the compiled and the pure-Python search side by side.

Usage: python benchmarks/search.py [--seconds S ...] [--game NAME] [--path compiled|pure]
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from arbiter import core
from arbiter.agents.alphabeta import AlphaBetaAgent
from arbiter.clock import Limit
from arbiter.games import GAME_NAMES, find_game


def positions(game: Any, count: int = 4, seed: int = 1) -> list[Any]:
    """The start position and a few reached by random play (about 10, 20, 30 plies in),
    each with a real choice (two or more legal moves)."""
    out = [game.initial()]
    rng = random.Random(seed)
    for plies in range(10, 10 * count, 10):
        s = game.initial()
        done = 0
        while game.outcome(s) is None and (done < plies or len(game.legal_moves(s)) < 2):
            s = game.apply(s, rng.choice(game.legal_moves(s)))
            done += 1
        if game.outcome(s) is None:
            out.append(s)
    return out


def measure(name: str, path: str, seconds: float) -> tuple[list[int], float, float]:
    """Searches each position for ``seconds``: the depths, and all nodes and seconds."""
    spec = find_game(name)
    if path == "pure":
        with core.forced_pure():
            game = spec.make()
    else:
        game = spec.make()
    depths: list[int] = []
    nodes = used = 0.0
    for s in positions(game):
        agent = AlphaBetaAgent(spec.evaluation, compiled=path == "compiled")
        agent.reset(game, game.to_move(s), 0)
        agent.choose(s, Limit(time=seconds))
        assert agent.core == path, f"{name} has no compiled search"
        info = agent.last_info
        assert info is not None
        depths.append(info.depth)
        nodes += info.nodes
        used += info.seconds
    return depths, nodes, used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, nargs="+", default=[1.0, 5.0])
    parser.add_argument("--game", choices=GAME_NAMES, action="append")
    parser.add_argument("--path", choices=["compiled", "pure"], action="append")
    args = parser.parse_args()
    print(f"core in use: {core.describe()}")
    print(f"{'game':16s} {'path':8s} {'budget':>6s} {'depths':>14s} {'nodes':>10s} {'nodes/s':>9s}")
    for name in args.game or GAME_NAMES:
        for seconds in args.seconds:
            for path in args.path or ["compiled", "pure"]:
                depths, nodes, used = measure(name, path, seconds)
                shown = " ".join(map(str, depths))
                print(
                    f"{name:16s} {path:8s} {seconds:5.1f}s {shown:>14s} {nodes:10.0f} "
                    f"{nodes / used:9.0f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
