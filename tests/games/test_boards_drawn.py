"""The terminal's board (``arbiter play``, ``replay --show``) marks the last move in
every game: its start with ``*`` and the piece where it landed in the game's own way
(in brackets, or in the other case), and nothing else."""

from __future__ import annotations

import pytest

from arbiter.games import find_game

LANDED = {"votey": "[", "checkers": "[", "alquerque": "[", "chinese-checkers": "X", "halma": "b"}
"""Per game: what marks the first seat's piece that moved last (a bracket around it,
or the piece in the other case), counted to show that one piece is marked."""


@pytest.mark.parametrize("name", sorted(LANDED))
def test_the_last_move_is_marked_at_its_start_and_where_it_landed(name: str) -> None:
    spec = find_game(name)
    game = spec.make()
    s = game.initial()
    for m in game.legal_moves(s):
        after = game.apply(s, m)
        plain, marked = spec.notation.draw_board(after), spec.notation.draw_board(after, m)
        assert marked.count("*") == plain.count("*") + 1, marked  # the start, once
        landed = LANDED[name]
        assert marked.count(landed) == plain.count(landed) + 1, marked  # one piece landed
