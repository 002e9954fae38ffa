"""Move-generation speed: perft node counts and nodes/second for each game and depth.

Usage: python benchmarks/perft.py [--depth N] [--game NAME]
"""

from __future__ import annotations

import argparse
import time

from arbiter.games import GAME_NAMES, find_game
from arbiter.perft import perft

DEFAULT_DEPTH = {"votey": 5, "checkers": 9, "alquerque": 9, "chinese-checkers": 4, "halma": 3}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, help="deepest depth (default per game)")
    parser.add_argument("--game", choices=GAME_NAMES, action="append")
    args = parser.parse_args()
    print(f"{'game':10s} {'depth':>5s} {'nodes':>12s} {'seconds':>9s} {'nodes/s':>10s}")
    for name in args.game or GAME_NAMES:
        spec = find_game(name)
        game = spec.make()
        for depth in range(1, (args.depth or DEFAULT_DEPTH.get(name, 4)) + 1):
            t0 = time.perf_counter()
            nodes = perft(game, game.initial(), depth)
            dt = time.perf_counter() - t0
            print(f"{name:10s} {depth:5d} {nodes:12d} {dt:9.3f} {nodes / dt:10.0f}", flush=True)


if __name__ == "__main__":
    main()
