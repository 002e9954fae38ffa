"""Every registered game passes the generic conformance checks."""

import pytest

from arbiter.games import GAME_NAMES, find_game

from .conformance import check_game


@pytest.mark.parametrize("name", GAME_NAMES)
def test_game_conforms(name: str) -> None:
    check_game(find_game(name), n_games=20, seed=7)
