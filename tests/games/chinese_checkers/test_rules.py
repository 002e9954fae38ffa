"""Chinese checkers rules against the sheet, RULES.md and an independent generator."""

from __future__ import annotations

from dataclasses import replace

import pytest

from arbiter.errors import IllegalMove, NotationError, Reason
from arbiter.games.chinese_checkers.notation import (
    format_move,
    format_position,
    parse_move,
    parse_position,
    resolve_move,
)
from arbiter.games.chinese_checkers.rules import (
    CELLS,
    HOMES,
    NEIGHBOURS,
    NEUTRAL,
    ChineseCheckers,
    Move,
    State,
)
from arbiter.perft import perft

from . import reference


@pytest.fixture
def game() -> ChineseCheckers:
    """The rules engine, made on the test's core path."""
    return ChineseCheckers()


def holes(bits_: int) -> set[int]:
    return {c + 1 for c in range(CELLS) if (bits_ >> c) & 1}


def position(first: set[int], second: set[int], to_move: int = 0, ply: int = 10) -> State:
    """A position by hole numbers in the first player's numbering (marbles not placed
    are parked in holes nobody uses here, to keep ten a side)."""
    a = sum(1 << (h - 1) for h in first)
    b = sum(1 << (h - 1) for h in second)
    return State((a, b), to_move, ply)


def test_the_board_is_the_sheets_star() -> None:
    assert CELLS == 121 == len(reference.STAR)
    assert holes(HOMES[0]) == set(range(1, 11)) and holes(HOMES[1]) == set(range(112, 122))
    assert sorted(len(n) for n in NEIGHBOURS).count(2) == 6  # the six tips
    # the neutral triangles are the geometry's, 108 included (RULES.md's ruling)
    assert holes(NEUTRAL) == reference.NEUTRAL
    assert 108 in reference.NEUTRAL and len(reference.NEUTRAL) == 40


def test_the_first_player_has_fourteen_moves(game: ChineseCheckers) -> None:
    moves = {(m.origin + 1, m.target + 1) for m in game.legal_moves(game.initial())}
    assert len(moves) == 14
    assert moves == reference.moves(set(range(1, 11)), set(range(112, 122)))


@pytest.mark.parametrize(("depth", "nodes"), [(1, 14), (2, 196), (3, 4872)])
def test_perft_matches_the_independent_reference(
    depth: int, nodes: int, game: ChineseCheckers
) -> None:
    start = game.initial()
    assert perft(game, start, depth) == nodes
    assert reference.perft(holes(start.pieces[0]), holes(start.pieces[1]), depth) == nodes


def test_random_positions_agree_with_the_reference(game: ChineseCheckers) -> None:
    import random

    rng = random.Random(5)
    for _ in range(30):
        s = game.initial()
        for _ in range(rng.randrange(10, 120)):
            moves = game.legal_moves(s)
            if not moves:
                break
            s = game.apply(s, rng.choice(moves))
        if game.outcome(s) is not None:
            continue
        p = s.to_move
        ours = {(m.origin + 1, m.target + 1) for m in game.legal_moves(s)}
        assert ours == reference.moves(holes(s.pieces[p]), holes(s.pieces[1 - p]))


def test_a_long_hop_over_a_distant_marble_lands_as_far_beyond(game: ChineseCheckers) -> None:
    # row 8 is 57..65: a marble on 57 hops over 60 (three away) to 63 (six away)
    s = position({57, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {60, 113, 114, 115, 116, 117, 118, 119, 120, 121})
    assert Move(56, 62) in game.legal_moves(s)
    assert resolve_move("57 63", s, seat=0) == Move(56, 62)


def test_a_long_hop_is_refused_when_a_hole_between_is_occupied(game: ChineseCheckers) -> None:
    # 62 is taken: the landing run from 61 to 63 is not clear
    s = position({57, 62, 2, 3, 4, 5, 6, 7, 8, 9}, {60, *range(113, 122)})
    assert Move(56, 62) not in game.legal_moves(s)
    with pytest.raises(IllegalMove, match="cannot reach 63"):
        resolve_move("57 63", s, seat=0)


def test_a_long_hop_is_refused_when_the_landing_is_off_the_board(game: ChineseCheckers) -> None:
    # 57 over 62 (five away) would land ten away, past the row's end at 65: 57 only
    # steps (to 58, 67 and 48; 66 and 47 are neutral)
    s = position({57, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {62, 113, 114, 115, 116, 117, 118, 119, 120, 121})
    assert {m.target + 1 for m in game.legal_moves(s) if m.origin == 56} == {48, 58, 67}


def test_a_chain_may_pass_through_a_neutral_triangle_but_not_end_there(
    game: ChineseCheckers,
) -> None:
    # 16 hops over 15 to 14 (neutral), then over 27 to 39, outside the triangle
    s = position({16, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {15, 27, 114, 115, 116, 117, 118, 119, 120, 121})
    targets = {m.target + 1 for m in game.legal_moves(s) if m.origin == 15}
    assert 39 in targets and 14 not in targets
    assert resolve_move("16 39", s, seat=0) == Move(15, 38)
    with pytest.raises(IllegalMove, match="14 is in a neutral triangle"):
        resolve_move("16 14", s, seat=0)


def test_a_move_may_not_end_where_it_started(game: ChineseCheckers) -> None:
    # 59 hops over 60 to 61 and back over 60 to 59: a chain, but no move
    s = position({59, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {60, 113, 114, 115, 116, 117, 118, 119, 120, 121})
    assert {m.target + 1 for m in game.legal_moves(s) if m.origin == 58} >= {61}
    assert Move(58, 58) not in game.legal_moves(s)
    with pytest.raises(IllegalMove, match="where it started"):
        resolve_move("59 59", s, seat=0)


def test_the_first_to_fill_the_opposite_home_wins_after_the_second_answers(
    game: ChineseCheckers,
) -> None:
    s = position(set(range(112, 122)), {2, 3, 4, 5, 6, 7, 8, 9, 10, 17}, to_move=1)
    assert game.outcome(s) is None  # the second player may still answer
    out = game.outcome(game.apply(s, Move(16, 15)))  # and does not complete
    assert out is not None and (out.winner, out.reason) == (0, Reason.ALL_HOME)


def test_the_second_completing_right_after_the_first_is_a_draw(game: ChineseCheckers) -> None:
    s = position(set(range(112, 122)), {1, 2, 3, 4, 5, 6, 8, 9, 10, 15}, to_move=1)
    after = game.apply(s, resolve_move("107 115", s, seat=1))  # 15 to 7, in its numbering
    out = game.outcome(after)
    assert out is not None and (out.winner, out.reason) == (None, Reason.BOTH_HOME)


def test_the_second_filling_first_wins_at_once(game: ChineseCheckers) -> None:
    s = position({60, *range(112, 121)}, {1, 2, 3, 4, 5, 6, 8, 9, 10, 15}, to_move=1)
    out = game.outcome(game.apply(s, Move(14, 6)))
    assert out is not None and (out.winner, out.reason) == (1, Reason.ALL_HOME)


def test_a_player_without_a_legal_move_loses(game: ChineseCheckers) -> None:
    # the first player's one marble on the tip, boxed in: no step, every hop blocked
    s = position({1}, {2, 3, 4, 6}, to_move=0)
    assert game.legal_moves(s) == []
    out = game.outcome(s)
    assert out is not None and (out.winner, out.reason) == (1, Reason.NO_MOVES)


def test_a_player_whose_only_moves_are_hops_plays_on(game: ChineseCheckers) -> None:
    # the tip marble's two neighbours are taken, but the holes past them are free
    s = position({1}, {2, 3}, to_move=0)
    assert sorted((m.origin + 1, m.target + 1) for m in game.legal_moves(s)) == [(1, 4), (1, 6)]
    assert game.outcome(s) is None


def test_the_ply_cap_draws(game: ChineseCheckers) -> None:
    s = game.initial()
    capped = ChineseCheckers(max_plies=2)
    for _ in range(2):
        s = capped.apply(s, capped.legal_moves(s)[0])
    out = capped.outcome(s)
    assert out is not None and (out.winner, out.reason) == (None, Reason.MOVE_LIMIT)


def test_each_player_numbers_the_board_from_its_own_home(game: ChineseCheckers) -> None:
    m = parse_move("4 15", seat=1)  # the second player's 4 and 15 are 118 and 107
    assert (m.origin + 1, m.target + 1) == (118, 107)
    assert format_move(m, seat=1) == "4 15" and format_move(m, seat=0) == "118 107"
    s = game.apply(game.initial(), Move(3, 14))
    assert resolve_move("4 15", s, seat=1) == m


@pytest.mark.parametrize("text", ["", "4", "4 15 16", "4,15", "four 15", "-4 15", "4 1e2"])
def test_a_line_that_is_not_two_numbers_is_malformed(text: str, game: ChineseCheckers) -> None:
    with pytest.raises(NotationError, match="expected two hole numbers"):
        resolve_move(text, game.initial(), seat=0)


@pytest.mark.parametrize("text", ["0 15", "4 128", "4 1000"])
def test_numbers_outside_1_to_127_are_malformed(text: str, game: ChineseCheckers) -> None:
    with pytest.raises(NotationError, match=r"outside 1\.\.127"):
        resolve_move(text, game.initial(), seat=0)


def test_a_number_past_121_is_no_hole_and_an_illegal_move(game: ChineseCheckers) -> None:
    with pytest.raises(IllegalMove, match="no hole 125"):
        resolve_move("4 125", game.initial(), seat=0)
    with pytest.raises(IllegalMove, match="no marble on 15"):
        resolve_move("15 26", game.initial(), seat=0)


def test_positions_round_trip_and_bad_ones_are_named(game: ChineseCheckers) -> None:
    s = game.apply(game.initial(), Move(3, 14))
    assert parse_position(format_position(s)) == s
    with pytest.raises(NotationError, match="17 rows"):
        parse_position("1/11 1 0")
    start = format_position(game.initial())
    rows, to_move, plies = start.split(" ")
    assert (to_move, plies) == ("1", "0")
    short = rows.replace("1", ".", 1)  # a marble of the first side gone
    with pytest.raises(NotationError, match="each side has 10 marbles"):
        parse_position(f"{short} 1 0")
    for text in (f"{rows} 3 0", f"{rows} 1 x", f"{rows.replace('.', '3', 1)} 1 0"):
        with pytest.raises(NotationError, match="17 rows"):
            parse_position(text)
    assert parse_position(f"{rows} 2") == replace(game.initial(), to_move=1)
