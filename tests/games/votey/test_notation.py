"""Votey notation: the contest's move integers and the position text."""

from __future__ import annotations

import pytest

from arbiter.errors import AmbiguousMove, IllegalMove, NotationError
from arbiter.games.votey.notation import (
    claims_win,
    draw_board,
    format_move,
    parse_move,
    parse_position,
    resolve_move,
)
from arbiter.games.votey.rules import Votey

CORPUS = ["1434", "1218", "8781", "2454", "-2454", "1117", "8811"]


@pytest.mark.parametrize("text", CORPUS)
def test_contest_lines_round_trip(text: str) -> None:
    assert format_move(parse_move(text, seat=0), seat=0, win=claims_win(text)) == text


@pytest.mark.parametrize(
    "text", ["", "143", "14345", "1494", "0934", "14 34", "+1434", "--1434", "1414", "abcd", "-1"]
)
def test_malformed_moves_raise_notation_error_naming_the_text(text: str) -> None:
    with pytest.raises(NotationError) as e:
        parse_move(text, seat=0)
    assert repr(text) in str(e.value)
    assert not isinstance(e.value, AmbiguousMove)


def test_whitespace_around_a_move_is_accepted() -> None:
    assert str(parse_move(" 1434\r", seat=0)) == "1434"


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
