"""Every registered game passes the generic conformance checks."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.games import find_game, game_names

from .conformance import check_game, check_notation, random_position


@pytest.mark.parametrize("name", game_names())
def test_game_conforms(name: str) -> None:
    check_game(find_game(name), n_games=12, seed=7)


@pytest.mark.parametrize("name", game_names())
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 150))
def test_every_legal_move_round_trips_through_its_text(name: str, seed: int, plies: int) -> None:
    spec = find_game(name)
    game = spec.make()
    check_notation(spec, game, random_position(spec, game, seed, plies))
