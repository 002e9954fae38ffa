"""Runs every ``tests/games/<game>/perft.txt`` (python-chess's perft file format).

Counts above ``FAST_NODES`` are marked slow and run with ``pytest -m slow``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arbiter.games import find_game
from arbiter.perft import perft

FAST_NODES = 200_000
GAMES = Path(__file__).parent / "games"


def cases() -> list:
    found = []
    for path in sorted(GAMES.glob("*/perft.txt")):
        game_name = path.parent.name.replace("_", "-")
        ident = position = None
        for line in path.read_text().splitlines():
            words = line.split(maxsplit=1)
            if not words or words[0].startswith("#"):
                continue
            if words[0] == "id":
                ident = words[1]
            elif words[0] == "epd":
                position = words[1]
            elif words[0] == "perft":
                depth, nodes = (int(x) for x in words[1].split())
                marks = [pytest.mark.slow] if nodes > FAST_NODES else []
                found.append(
                    pytest.param(
                        game_name,
                        position,
                        depth,
                        nodes,
                        id=f"{game_name}-{ident}-{depth}",
                        marks=marks,
                    )
                )
    return found


@pytest.mark.parametrize(("game_name", "position", "depth", "nodes"), cases())
def test_perft(game_name: str, position: str, depth: int, nodes: int) -> None:
    spec = find_game(game_name)
    s = spec.notation.parse_position(position)
    assert perft(spec.make(), s, depth) == nodes
