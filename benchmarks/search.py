"""Search speed: alpha-beta nodes/second and depth reached in a fixed time, per position.

Usage: python benchmarks/search.py [--seconds S] [--game NAME]
"""

from __future__ import annotations

import argparse
import random

from arbiter.agents.alphabeta import AlphaBetaAgent
from arbiter.agents.base import Limit
from arbiter.agents.registry import make_agent
from arbiter.games import GAME_NAMES, find_game


def positions(spec, game, count: int = 4, seed: int = 1) -> list:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--game", choices=GAME_NAMES, action="append")
    args = parser.parse_args()
    print(
        f"{'game':10s} {'position':>8s} {'depth':>5s} {'nodes':>8s} {'seconds':>8s} {'nodes/s':>8s}"
    )
    for name in args.game or GAME_NAMES:
        spec = find_game(name)
        game = spec.make()
        total_nodes = total_time = 0.0
        for i, s in enumerate(positions(spec, game)):
            agent = make_agent(spec, "alphabeta")
            assert isinstance(agent, AlphaBetaAgent)
            agent.reset(game, game.to_move(s), 0)
            agent.choose(s, Limit(time=args.seconds))
            info = agent.last_info
            assert info is not None
            total_nodes += info.nodes
            total_time += info.seconds
            print(
                f"{name:10s} {i:8d} {info.depth:5d} {info.nodes:8d} {info.seconds:8.2f} "
                f"{info.nodes / info.seconds:8.0f}",
                flush=True,
            )
        print(
            f"{name:10s} {'all':>8s} {'':5s} {total_nodes:8.0f} {total_time:8.2f} "
            f"{total_nodes / total_time:8.0f}"
        )


if __name__ == "__main__":
    main()
