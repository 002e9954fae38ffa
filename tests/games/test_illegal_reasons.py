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


def test_a_halma_move_the_camp_rule_forbids_names_the_rule_and_the_legal_moves() -> None:
    from arbiter.games.halma.board import camp_rule
    from arbiter.games.halma.probes import camp_positions

    spec = find_game("halma")
    rules = spec.make()
    expected = [
        (
            "J 5,5 7,7\nJ 7,7 9,9\nJ 9,9 11,11",
            "must move one out of it if you can",
            "your legal moves: 4,0 to 5,0, 4,0 to 5,1",
            "one must leave it",
        ),
        (
            "J 5,5 7,7\nJ 7,7 9,9\nJ 9,9 11,11",
            "must move one further from your corner",
            "your legal moves: 1,1 to 2,1, 1,1 to 1,2, 1,1 to 2,2",
            "further from your corner",
        ),
        (
            "J 10,10 8,8\nJ 8,8 6,6\nJ 6,6 4,4",
            "must move one out of it if you can",
            "your legal moves: 13,13 to 11,11",
            "one must leave it",
        ),
    ]
    for (_, text, seat), (move, rule, where, shown) in zip(
        camp_positions(), expected, strict=False
    ):
        s = spec.notation.parse_position(text)
        with pytest.raises(IllegalMove) as e:
            spec.contest.judge(rules, s, move, seat=seat)
        assert rule in str(e.value) and where in str(e.value)
        # the browser's board says the same before the move is made
        assert shown in (camp_rule(rules, s) or "")
    assert camp_rule(rules, rules.initial()) is None  # every move leaves: nothing ruled out
