"""Search speed: alpha-beta nodes/second and the depth reached in a fixed time, per
position, the compiled and the pure-Python search side by side.

Usage: python benchmarks/search.py [--seconds S ...] [--game NAME] [--path compiled|pure]
       python benchmarks/search.py --against REV [--repeat K] [--seconds S ... | --fixed]

``--against REV`` builds arbiter as it was at git revision REV (``revisions.py``) and
shows the compiled search there and in the working tree side by side: the depths each
reached in the time and its nodes/second, best of K runs each; with ``--fixed``, the
time each took to search the same positions to the same depths (the same nodes, a
check that a change made for speed left the search alone).
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
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


FIXED_DEPTH = {"votey": 6, "checkers": 13, "alquerque": 9, "chinese-checkers": 5, "halma": 7}
"""The depth of the fixed-depth searches (``--fixed``): about a second a game."""


def measure(
    name: str, path: str, seconds: float, depth: int | None = None
) -> tuple[list[int], float, float]:
    """Searches each position for ``seconds`` (or to ``depth``): the depths, and all
    nodes and seconds."""
    spec = find_game(name)
    if path == "pure":
        with core.forced_pure():
            game = spec.make()
    else:
        game = spec.make()
    depths: list[int] = []
    nodes = used = 0.0
    for s in positions(game):
        agent = AlphaBetaAgent(spec.evaluation, depth=depth, compiled=path == "compiled")
        agent.reset(game, game.to_move(s), 0)
        agent.choose(s, Limit() if depth else Limit(time=seconds))
        assert agent.core == path, f"{name} has no compiled search"
        info = agent.last_info
        assert info is not None
        depths.append(info.depth)
        nodes += info.nodes
        used += info.seconds
    return depths, nodes, used


def compiled_rows(names: list[str], budgets: list[float], fixed: bool) -> dict[str, object]:
    """The compiled search's depths, nodes and seconds for every game and budget (or,
    ``fixed``, to each game's :data:`FIXED_DEPTH`)."""
    rows = []
    for name in names:
        for seconds in [0.0] if fixed else budgets:
            depths, nodes, used = measure(
                name, "compiled", seconds, FIXED_DEPTH[name] if fixed else None
            )
            rows.append(
                {"game": name, "budget": seconds, "depths": depths, "nodes": nodes, "seconds": used}
            )
    return {"core": core.describe(), "rows": rows}


def against(
    revision: str, repeat: int, names: list[str], budgets: list[float], fixed: bool
) -> None:
    """Prints the compiled search at ``revision`` and now, side by side."""
    from revisions import sides

    forwarded = [arg for name in names for arg in ("--game", name)]
    forwarded += ["--fixed"] if fixed else ["--seconds", *map(str, budgets)]
    before, now = sides(Path(__file__), revision, forwarded, repeat)
    if fixed:
        fixed_depths(repeat, before, now)
        return
    print(f"best of {repeat} runs each, taken in turn (depths: the deepest of the runs)")
    print(
        f"{'game':16s} {'budget':>6s} {'depths before':>14s} {'depths after':>14s} "
        f"{'before n/s':>11s} {'after n/s':>11s} {'x':>5s}"
    )
    for i, row in enumerate(now[0]["rows"]):
        rates = [
            max(run["rows"][i]["nodes"] / run["rows"][i]["seconds"] for run in side)
            for side in (before, now)
        ]
        depths = [
            " ".join(
                str(max(d)) for d in zip(*(run["rows"][i]["depths"] for run in side), strict=True)
            )
            for side in (before, now)
        ]
        print(
            f"{row['game']:16s} {row['budget']:5.1f}s {depths[0]:>14s} {depths[1]:>14s} "
            f"{rates[0]:11.0f} {rates[1]:11.0f} {rates[1] / rates[0]:5.2f}"
        )


def fixed_depths(repeat: int, before: list[Any], now: list[Any]) -> None:
    """Prints the time each side took to search to the same depths (the same nodes)."""
    print(f"fixed-depth searches of each game's positions, best of {repeat} runs each")
    print(f"{'game':16s} {'depth':>5s} {'nodes':>10s} {'before s':>9s} {'after s':>9s} {'x':>5s}")
    for i, row in enumerate(now[0]["rows"]):
        if before[0]["rows"][i]["nodes"] != row["nodes"]:
            raise SystemExit(f"{row['game']}: the sides searched different nodes")
        old, new = (min(run["rows"][i]["seconds"] for run in side) for side in (before, now))
        print(
            f"{row['game']:16s} {FIXED_DEPTH[row['game']]:5d} {row['nodes']:10.0f} "
            f"{old:9.3f} {new:9.3f} {old / new:5.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, nargs="+", default=[1.0, 5.0])
    parser.add_argument("--game", choices=GAME_NAMES, action="append")
    parser.add_argument("--path", choices=["compiled", "pure"], action="append")
    parser.add_argument("--against", metavar="REV", help="an earlier git revision to compare")
    parser.add_argument("--repeat", type=int, default=3, help="runs a side with --against")
    parser.add_argument("--json", action="store_true", help="the compiled search's figures only")
    parser.add_argument(
        "--fixed", action="store_true", help="with --against: to fixed depths, not for a time"
    )
    args = parser.parse_args()
    if args.json:
        print(json.dumps(compiled_rows(args.game or GAME_NAMES, args.seconds, args.fixed)))
        return
    if args.against:
        against(args.against, args.repeat, args.game or GAME_NAMES, args.seconds, args.fixed)
        return
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
