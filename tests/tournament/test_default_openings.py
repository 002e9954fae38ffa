"""The opening sets arbiter ships: open positions of each game, balanced as their files
say by the built-in search at a fixed depth."""

from __future__ import annotations

import re

import pytest

from arbiter.games import find_game, game_names
from arbiter.tournament.openings import default_openings, search_score

SHIPPED = ["votey", "checkers", "alquerque", "chinese-checkers", "halma"]


def test_every_game_ships_a_set() -> None:
    assert set(SHIPPED) <= set(game_names())
    for name in SHIPPED:
        path = find_game(name).openings
        assert path is not None and path.is_file(), name


@pytest.mark.parametrize("name", SHIPPED)
def test_the_shipped_openings_are_distinct_open_and_balanced(name: str) -> None:
    spec = find_game(name)
    game = spec.make()
    openings = default_openings(spec)
    assert len(openings) >= 8 and len(set(openings)) == len(openings)
    assert spec.openings is not None
    header = spec.openings.read_text()
    # made by scripts/make_openings.py with the game's own opening_plies
    assert f"openings of {spec.opening_plies} random plies" in header.splitlines()[0]
    match = re.search(r"# depth (\d+) bound (\d+)", header)
    assert match is not None
    depth, bound = int(match[1]), int(match[2])
    for text in openings[::4]:  # a sample: the search is the slow part
        s = spec.notation.parse_position(text)
        assert game.outcome(s) is None and len(game.legal_moves(s)) > 1
        assert abs(search_score(spec, game, text, depth)) <= bound
