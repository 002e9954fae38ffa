"""Writes the default opening sets arbiter ships: for each game, the most balanced of
random openings by a fixed-depth search of the built-in alpha-beta.

Usage: python scripts/make_openings.py [--game NAME] [--count N]
"""

from __future__ import annotations

import argparse

from arbiter.games import GAME_NAMES, find_game
from arbiter.tournament.openings import balanced_openings

DEPTH = 3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAME_NAMES, action="append")
    parser.add_argument("--count", type=int, default=16)
    args = parser.parse_args()
    for name in args.game or GAME_NAMES:
        spec = find_game(name)
        plies = spec.opening_plies
        found = balanced_openings(spec, args.count, plies, DEPTH, seed=2026)
        bound = max(abs(score) for _, score in found)
        lines = [
            f"# {spec.title}: {len(found)} openings of {plies} random plies, the most balanced",
            f"# of {4 * args.count} by alpha-beta at depth {DEPTH}: |score| <= {bound}",
            f"# depth {DEPTH} bound {bound}",
            *(text for text, _ in found),
        ]
        path = spec.openings
        if path is None:
            print(f"{name}: ships no opening set (its spec names no file)")
            continue
        path.write_text("\n".join(lines) + "\n")
        print(f"{name}: {len(found)} openings, |score| <= {bound}, written to {path}")


if __name__ == "__main__":
    main()
