"""Illegal moves explained in the contest's own notation, with the alternatives where
they are few: checkers, Alquerque and Chinese checkers (Votey's are in its protocol
tests)."""

from __future__ import annotations

import pytest

from arbiter.errors import IllegalMove
from arbiter.games import find_game


@pytest.mark.parametrize(
    ("game", "move", "why"),
    [
        ("checkers", "10x19", "the piece on 10 has no such move (its moves: 10-14, 10-15)"),
        ("checkers", "5-9", "the piece on 5 cannot move (pieces that can: 9, 10, 11, 12)"),
        ("checkers", "22-18", "no piece of yours on 22 (the opponent has one there)"),
        ("checkers", "14-18", "no piece of yours on 14"),
        ("chinese-checkers", "1 50", "the marble on 1 cannot move at all"),
        ("alquerque", "c3-c4", "the piece on c3 has no such move (its moves: c3-d4)"),
        ("alquerque", "a1-a2", "the piece on a1 cannot move (pieces that can: c3, d3, e3, e4)"),
        ("alquerque", "d4-e5", "white has no piece on d4"),
        (
            "chinese-checkers",
            "4 60",
            "the marble on 4 cannot reach 60 by a step or hops (it can reach 15, 17)",
        ),
    ],
)
def test_an_illegal_move_says_why_and_where_else(game: str, move: str, why: str) -> None:
    spec = find_game(game)
    rules = spec.make()
    with pytest.raises(IllegalMove) as e:
        spec.contest.judge(rules, rules.initial(), move, seat=0)
    assert why in str(e.value)
