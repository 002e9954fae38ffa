"""Move-generation speed: perft counts and leaves/second per game and depth, the
compiled and the pure-Python core side by side, and OpenSpiel's generators driven
from Python (bulk, as ours: the last move list's length) for the two games it has.

Usage: python benchmarks/perft.py [--depth N] [--game NAME] [--pure-depth N]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from arbiter import core
from arbiter.games import GAME_NAMES, find_game
from arbiter.perft import perft

DEPTH = {"votey": 5, "checkers": 10, "alquerque": 9, "chinese-checkers": 4, "halma": 4}
PURE_DEPTH = {"votey": 4, "checkers": 8, "alquerque": 7, "chinese-checkers": 3, "halma": 3}
OPENSPIEL = {"votey": "lines_of_action", "checkers": "checkers"}


def timed(count: Callable[..., int], *args: object) -> tuple[int, float]:
    started = time.perf_counter()
    nodes = count(*args)
    return nodes, time.perf_counter() - started


def openspiel_perft(name: str) -> Callable[[int], int] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(OPENSPIEL[name])

    def count(state: object, depth: int) -> int:
        actions = state.legal_actions()  # type: ignore[attr-defined]
        if depth <= 1:
            return len(actions) if depth == 1 else 1
        return sum(count(state.child(a), depth - 1) for a in actions)  # type: ignore[attr-defined]

    return lambda depth: count(game.new_initial_state(), depth)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, help="deepest depth (default per game)")
    parser.add_argument("--pure-depth", type=int, help="deepest depth on the pure path")
    parser.add_argument("--game", choices=GAME_NAMES, action="append")
    args = parser.parse_args()
    print(f"core in use: {core.describe()}")
    print(
        f"{'game':16s} {'depth':>5s} {'nodes':>12s} {'compiled/s':>12s} {'pure/s':>10s} "
        f"{'openspiel/s':>12s} {'x pure':>7s} {'x os':>6s}"
    )
    for name in args.game or GAME_NAMES:
        spec = find_game(name)
        compiled = spec.make()
        with core.forced_pure():
            pure = spec.make()
        spiel = openspiel_perft(name) if name in OPENSPIEL else None
        for depth in range(1, (args.depth or DEPTH[name]) + 1):
            nodes, fast = timed(perft, compiled, compiled.initial(), depth)
            cells = [f"{nodes / fast:12.0f}" if compiled.compiled else f"{'-':>12s}"]
            slow = spiel_time = None
            if depth <= (args.pure_depth or PURE_DEPTH[name]):
                counted, slow = timed(perft, pure, pure.initial(), depth)
                assert counted == nodes, (name, depth, counted, nodes)
                cells.append(f"{nodes / slow:10.0f}")
            else:
                cells.append(f"{'-':>10s}")
            if spiel is not None and depth <= (args.pure_depth or PURE_DEPTH[name]):
                spiel_nodes, spiel_time = timed(spiel, depth)
                cells.append(f"{spiel_nodes / spiel_time:12.0f}")
            else:
                cells.append(f"{'-':>12s}")
            cells.append(f"{slow / fast:7.1f}" if slow else f"{'-':>7s}")
            cells.append(f"{spiel_time / fast:6.1f}" if spiel_time else f"{'-':>6s}")
            print(f"{name:16s} {depth:5d} {nodes:12d} " + " ".join(cells), flush=True)


if __name__ == "__main__":
    main()
