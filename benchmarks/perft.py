"""Move-generation speed: perft counts and leaves/second per game and depth, the
compiled and the pure-Python core side by side, and OpenSpiel's generators driven
from Python (bulk, as ours: the last move list's length) for the two games it has.

Usage: python benchmarks/perft.py [--depth N] [--game NAME] [--pure-depth N]
       python benchmarks/perft.py --against REV [--repeat K] [--depth N] [--game NAME]

``--against REV`` builds arbiter as it was at git revision REV (``revisions.py``) and
shows the compiled core's leaves/second there and in the working tree side by side,
best of K runs each, the counts checked equal.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path

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


def compiled_rows(names: list[str], deepest: int | None) -> dict[str, object]:
    """The compiled core's count and seconds at every depth of every game named."""
    rows = []
    for name in names:
        game = find_game(name).make()
        if not game.compiled:
            raise SystemExit(f"no compiled core for {name}: {core.describe()}")
        for depth in range(1, (deepest or DEPTH[name]) + 1):
            nodes, seconds = timed(perft, game, game.initial(), depth)
            rows.append({"game": name, "depth": depth, "nodes": nodes, "seconds": seconds})
    return {"core": core.describe(), "rows": rows}


def against(revision: str, repeat: int, names: list[str], deepest: int | None) -> None:
    """Prints the compiled core's speed at ``revision`` and now, side by side."""
    from revisions import sides

    forwarded = [arg for name in names for arg in ("--game", name)]
    if deepest:
        forwarded += ["--depth", str(deepest)]
    before, now = sides(Path(__file__), revision, forwarded, repeat)
    print(f"best of {repeat} runs each, taken in turn")
    print(f"{'game':16s} {'depth':>5s} {'nodes':>12s} {'before/s':>12s} {'after/s':>12s} {'x':>6s}")
    for i, row in enumerate(now[0]["rows"]):
        old = min(run["rows"][i]["seconds"] for run in before)
        new = min(run["rows"][i]["seconds"] for run in now)
        if before[0]["rows"][i]["nodes"] != row["nodes"]:
            raise SystemExit(f"{row['game']} perft {row['depth']} counts differ between the sides")
        nodes = row["nodes"]
        print(
            f"{row['game']:16s} {row['depth']:5d} {nodes:12d} {nodes / old:12.0f} "
            f"{nodes / new:12.0f} {old / new:6.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, help="deepest depth (default per game)")
    parser.add_argument("--pure-depth", type=int, help="deepest depth on the pure path")
    parser.add_argument("--game", choices=GAME_NAMES, action="append")
    parser.add_argument("--against", metavar="REV", help="an earlier git revision to compare")
    parser.add_argument("--repeat", type=int, default=3, help="runs a side with --against")
    parser.add_argument("--json", action="store_true", help="the compiled core's figures only")
    args = parser.parse_args()
    if args.json:
        print(json.dumps(compiled_rows(args.game or GAME_NAMES, args.depth)))
        return
    if args.against:
        against(args.against, args.repeat, args.game or GAME_NAMES, args.depth)
        return
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
