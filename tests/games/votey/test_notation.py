"""Votey notation: the contest's move integers and the position text."""

from __future__ import annotations

import pytest

from arbiter.errors import IllegalMove, NotationError
from arbiter.games.votey.notation import (
    draw_board,
    parse_move,
    parse_position,
    resolve_move,
)
from arbiter.games.votey.rules import Votey


def test_illegal_move_names_text_and_position() -> None:
    s = Votey().initial()
    with pytest.raises(IllegalMove, match=r"'1418'.*black"):
        resolve_move("1418", s, seat=0)


@pytest.mark.parametrize(
    "text",
    [
        "",
        ".bbbbbb./w......w b",
        "x" * 71 + " b",
        ".bbbbbb./w......w/w......w/w......w/w......w/w......w/w......w/.bbbbbb. x",
        ".bbbbbb./w......w/w......w/w..q...w/w......w/w......w/w......w/.bbbbbb. b",
    ],
)
def test_bad_position_text_raises(text: str) -> None:
    with pytest.raises(NotationError):
        parse_position(text)


def test_board_marks_last_move() -> None:
    game = Votey()
    s = game.initial()
    m = parse_move("1434", seat=0)
    board = draw_board(game.apply(s, m), m)
    assert board.splitlines()[1] == "  1   .  b  b  *  b  b  b  ."
    assert "[b]" in board.splitlines()[3]


@pytest.mark.parametrize("text", ["9111", "1911", "1191", "1119", "0111", "-9111", "1190"])
def test_a_square_off_the_board_is_a_malformed_move_not_a_crash(text: str) -> None:
    # rows and columns are 1..8: a 9 or a 0 anywhere is the program's malformed output
    from arbiter.games import find_game

    spec = find_game("votey")
    game = spec.make()
    with pytest.raises(NotationError):
        parse_move(text, seat=0)
    with pytest.raises(NotationError):
        spec.contest.judge(game, game.initial(), text, seat=0)
