"""Votey rules against the sheet's examples, RULES.md's rulings and two independent references."""

from __future__ import annotations

import random

import pytest

from arbiter.errors import IllegalMove, Reason
from arbiter.game import Outcome, play
from arbiter.games.votey.notation import format_move, parse_position, resolve_move
from arbiter.games.votey.rules import Votey, connected
from arbiter.perft import perft

from .reference import board_of, reference_moves, reference_perft, squares_of

#: The sheet's Figure 3, rebuilt from its text: black on 24, 44, 62, 63, 65; white on
#: 35 and 36 (row 3 holds two pieces, so 36-34 is a legal two-square move), 54
#: (taken by 2454), 57 and 77.
FIGURE3 = "......../...b..../....ww../...b..../...w..w./.bb.b.../......w./........"


@pytest.fixture
def game() -> Votey:
    return Votey()


def moves_of(game: Votey, s, square: int | None = None) -> list[str]:
    texts = [format_move(m, seat=0) for m in game.legal_moves(s)]
    return [t for t in texts if square is None or t.startswith(str(square))]


def test_start_position_matches_the_sheet(game: Votey) -> None:
    s = game.initial()
    assert squares_of(s.pieces[0]) == {12, 13, 14, 15, 16, 17, 82, 83, 84, 85, 86, 87}
    assert squares_of(s.pieces[1]) == {21, 28, 31, 38, 41, 48, 51, 58, 61, 68, 71, 78}
    assert game.to_move(s) == 0 and game.outcome(s) is None


def test_piece_on_14_goes_only_to_32_34_36(game: Votey) -> None:
    assert moves_of(game, game.initial(), 14) == ["1432", "1434", "1436"]


def test_figure3_moves_of_24_match_the_sheet(game: Votey) -> None:
    s = parse_position(FIGURE3 + " b")
    assert moves_of(game, s, 24) == ["2415", "2423", "2425", "2433", "2454"]


def test_figure3_2454_captures_and_wins_for_black(game: Votey) -> None:
    s = parse_position(FIGURE3 + " b")
    after = play(game, s, resolve_move("2454", s, seat=0))
    out = game.outcome(after)
    assert out is not None and out.winner == 0 and out.reason == Reason.CONNECTED
    assert squares_of(after.pieces[0]) == {44, 54, 62, 63, 65}
    assert 54 not in squares_of(after.pieces[1])
    winning = [format_move(m, seat=0) for m in game.legal_moves(s) if game.apply(s, m).winner == 0]
    assert winning == ["2454"]


def test_figure3_3634_defends(game: Votey) -> None:
    s = parse_position(FIGURE3 + " w")
    after = game.apply(s, resolve_move("3634", s, seat=0))
    assert game.outcome(after) is None
    for m in game.legal_moves(after):
        assert game.apply(after, m).winner != 0, format_move(m, seat=0)


def test_cannot_jump_an_enemy_piece(game: Votey) -> None:
    s = parse_position(FIGURE3 + " b")
    with pytest.raises(IllegalMove, match="2446"):
        resolve_move("2446", s, seat=0)


def test_mover_wins_when_a_capture_connects_both_sides(game: Votey) -> None:
    s = parse_position("......../......../.w....../.b....../......../.b.w..../......../........ b")
    after = game.apply(s, resolve_move("6232", s, seat=0))  # takes white's stray piece on 32
    assert connected(after.pieces[0]) and connected(after.pieces[1])
    assert game.outcome(after) == Outcome(0, Reason.CONNECTED)


def test_capture_that_connects_only_the_opponent_loses(game: Votey) -> None:
    s = parse_position("......../....w.../...w..../......../b......./..w...../.....bb./..b..... b")
    after = game.apply(s, resolve_move("8363", s, seat=0))
    out = game.outcome(after)
    assert out is not None and out.winner == 1 and out.reason == Reason.CONNECTED


def test_single_piece_is_connected() -> None:
    assert connected(1 << 27)


def test_groups_do_not_join_across_the_board_edge() -> None:
    # white on column 1 (rows 4-8) and column 8 (rows 3-8): two groups. Square 88 is
    # the last cell, and a shift past it must not wrap round to 81.
    s = parse_position("...bbbb./......../bb.....w/w......w/w......w/w......w/w......w/wbbbbbbw b")
    assert not connected(s.pieces[1])
    assert Votey().outcome(s) is None
    for square in (18, 81, 88):
        cell = 8 * (square // 10 - 1) + square % 10 - 1
        assert connected(1 << cell)


def test_player_without_a_move_loses(game: Votey) -> None:
    s = parse_position("..w.wb.b/...wwwww/....w.../w..w..../......../......../...w..../........ b")
    assert game.legal_moves(s) == []
    out = game.outcome(s)
    assert out is not None and out.winner == 1 and out.reason == Reason.NO_MOVES


def test_ply_cap_draws() -> None:
    game = Votey(max_plies=4)
    s = game.initial()
    rng = random.Random(3)
    for _ in range(4):
        s = game.apply(s, rng.choice(game.legal_moves(s)))
    out = game.outcome(s)
    assert out is not None and out.winner is None and out.reason == Reason.MOVE_LIMIT
    assert game.legal_moves(s) == []


@pytest.mark.parametrize(("depth", "nodes"), [(1, 36), (2, 1244), (3, 44952)])
def test_perft_agrees_with_simple_reference(game: Votey, depth: int, nodes: int) -> None:
    board = board_of(game.initial())
    assert reference_perft(board, "b", depth) == nodes
    assert perft(game, game.initial(), depth) == nodes


@pytest.mark.parametrize("side", ["b", "w"])
def test_figure3_perft_agrees_with_simple_reference(game: Votey, side: str) -> None:
    s = parse_position(f"{FIGURE3} {side}")
    for depth in (1, 2, 3):
        assert perft(game, s, depth) == reference_perft(board_of(s), side, depth)


def test_moves_agree_with_reference_along_random_games(game: Votey) -> None:
    rng = random.Random(11)
    positions = 0
    for _ in range(60):
        s = game.initial()
        while game.outcome(s) is None:
            me = "b" if s.to_move == 0 else "w"
            assert moves_of(game, s) == reference_moves(board_of(s), me)
            s = game.apply(s, rng.choice(game.legal_moves(s)))
            positions += 1
    assert positions > 1000


def test_count_moves_agrees_with_the_move_list_along_random_games(game: Votey) -> None:
    from arbiter.games.votey.rules import count_moves, has_move, moves_from

    rng = random.Random(11)
    for _ in range(30):
        s = game.initial()
        while game.outcome(s) is None:
            for p in (0, 1):
                own, enemy = s.pieces[p], s.pieces[1 - p]
                codes = moves_from(own, enemy)
                captures = sum(1 for c in codes if (enemy >> (c & 63)) & 1)
                assert count_moves(own, enemy) == (len(codes), captures)
                assert has_move(own, enemy) == bool(codes)
            s = game.apply(s, rng.choice(game.legal_moves(s)))
