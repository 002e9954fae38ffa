"""Votey against OpenSpiel's ``lines_of_action``: perft and move sets along random games.

OpenSpiel writes squares as file letter + rank digit (``c1xa3``); we map column c to
file ``a + c - 1`` and row r to rank r. The start position is symmetric, so the
mapping is a relabelling and move sets must agree exactly. OpenSpiel also draws a
game when a position repeats (MSO rule 10), which the contest does not, so games
are compared only while both say the game goes on.
"""

from __future__ import annotations

import random

import pyspiel
import pytest

from arbiter.games.votey.notation import format_move, parse_move
from arbiter.games.votey.rules import Votey


def to_contest(action: str) -> str:
    """'c1xa3' -> '1331' (row = rank digit, column = file index)."""
    frm, to = action.replace("x", "-").split("-")
    return f"{frm[1]}{ord(frm[0]) - 96}{to[1]}{ord(to[0]) - 96}"


def os_perft(state, depth: int) -> int:
    actions = state.legal_actions()
    if depth == 1 or state.is_terminal():
        return len(actions) if depth == 1 else 0
    total = 0
    for a in actions:
        child = state.clone()
        child.apply_action(a)
        total += os_perft(child, depth - 1)
    return total


@pytest.fixture(scope="module")
def os_game():
    return pyspiel.load_game("lines_of_action")


def test_start_positions_agree(os_game) -> None:
    state = os_game.new_initial_state()
    ours = sorted(format_move(m, seat=0) for m in Votey().legal_moves(Votey().initial()))
    theirs = sorted(to_contest(state.action_to_string(a)) for a in state.legal_actions())
    assert ours == theirs


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_perft_agrees_with_openspiel(os_game, depth: int) -> None:
    from arbiter.perft import perft

    game = Votey()
    assert perft(game, game.initial(), depth) == os_perft(os_game.new_initial_state(), depth)


def test_move_sets_agree_along_random_games(os_game) -> None:
    game = Votey()
    rng = random.Random(5)
    compared = 0
    for _ in range(40):
        s, state = game.initial(), os_game.new_initial_state()
        while game.outcome(s) is None and not state.is_terminal():
            by_text = {to_contest(state.action_to_string(a)): a for a in state.legal_actions()}
            ours = sorted(format_move(m, seat=0) for m in game.legal_moves(s))
            assert ours == sorted(by_text), f"after {compared} positions"
            text = rng.choice(ours)
            s = game.apply(s, parse_move(text, seat=0))
            state.apply_action(by_text[text])
            compared += 1
        if game.outcome(s) is None:
            # OpenSpiel alone ended it: only its repetition draw (MSO rule 10), which
            # the contest does not have, may do that
            assert state.returns() == [0.0, 0.0]
        else:
            assert state.is_terminal()
    assert compared > 500


@pytest.mark.slow
def test_perft_4_agrees_with_openspiel(os_game) -> None:
    from arbiter.perft import perft

    game = Votey()
    assert perft(game, game.initial(), 4) == os_perft(os_game.new_initial_state(), 4) == 1563208
