"""Checkers notation: move text over squares 1..32 and the contest's board rows."""

from __future__ import annotations

import re

import pytest

from arbiter.errors import IllegalMove, NotationError
from arbiter.games.checkers.notation import (
    board_rows,
    draw_board,
    parse_board,
    resolve_move,
)
from arbiter.games.checkers.rules import Checkers

from .test_rules import pos


def test_start_board_rows_match_the_sheet_coding() -> None:
    rows = board_rows(Checkers().initial())
    assert rows == [
        "01010101",
        "10101010",
        "01010101",
        "00000000",
        "00000000",
        "20202020",
        "02020202",
        "20202020",
    ]


def test_kings_are_coded_3_and_4() -> None:
    rows = board_rows(pos(red_kings=[32], white_kings=[1]))
    assert rows[0] == "04000000" and rows[7] == "00000030"


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (["01010101"] * 7, "8 rows"),
        (["0101010"] + ["00000000"] * 7, "8 digits"),
        (["01010105"] + ["00000000"] * 7, "8 digits"),
        (["10000000"] + ["00000000"] * 7, "light square"),
        (["02000000"] + ["00000000"] * 7, "crowning row"),
    ],
)
def test_bad_boards_are_refused(rows, message) -> None:
    with pytest.raises(NotationError, match=message):
        parse_board(rows, 0)


def test_compulsory_capture_is_explained() -> None:
    s = pos(red=[14, 1], white=[18])
    with pytest.raises(IllegalMove, match=r"compulsory.*14x23"):
        resolve_move("1-5", s, seat=0)


def test_short_jump_notation_is_explained() -> None:
    s = pos(red=[1], white=[6, 15, 30])
    with pytest.raises(IllegalMove, match="every landing square"):
        resolve_move("1x19", s, seat=0)
    with pytest.raises(IllegalMove, match="'x'"):
        resolve_move("1-10", pos(red=[1], white=[6]), seat=0)


def test_an_unfinished_multi_jump_names_where_it_must_go_on() -> None:
    s = pos(red=[1], white=[6, 15, 30])
    with pytest.raises(IllegalMove, match=r"incomplete jump: must continue to 19$"):
        resolve_move("1x10", s, seat=0)
    # two ways on from the same landing: both named
    s = pos(red=[1], white=[6, 14, 15])
    with pytest.raises(IllegalMove, match=r"must continue to 17 or 19$"):
        resolve_move("1x10", s, seat=0)


def test_board_shows_square_numbers_and_last_move() -> None:
    game = Checkers()
    s = game.initial()
    m = resolve_move("11-15", s, seat=0)
    text = draw_board(game.apply(s, m), m)
    assert "11 * " in text and "15[r]" in text and "32 w" in text


@pytest.mark.parametrize(
    ("fen", "why"),
    [
        ("X:W21:B1", "expected 'B' or 'W', then ':W' and ':B' square lists"),
        ("B:W21", "expected 'B' or 'W'"),
        ("B:W21:R1", "'R1' is not B... or W..."),
        ("B:W21,33:B1", "'33' is not a square"),
        ("B:W21,K:B1", "'K' is not a square"),
    ],
)
def test_a_pdn_fen_that_is_no_position_is_named(fen: str, why: str) -> None:
    from arbiter.games.checkers.notation import format_fen, parse_fen

    with pytest.raises(NotationError, match=re.escape(why)):
        parse_fen(fen)
    s = parse_fen("W:W21-23,K5:B1,2.")  # ranges, kings and PDN's closing full stop
    assert format_fen(s) == "W:WK5,21,22,23:B1,2"
