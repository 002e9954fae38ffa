"""Checkers rules: published perft counts, each rule of the sheet, and the end rulings."""

from __future__ import annotations

import pytest

from arbiter.errors import Reason
from arbiter.games.checkers.notation import format_move, parse_position, resolve_move
from arbiter.games.checkers.rules import Checkers, State
from arbiter.perft import perft


def pos(red=(), white=(), red_kings=(), white_kings=(), to_move: int = 0) -> State:
    """A position from standard square numbers (1..32)."""
    r = sum(1 << (q - 1) for q in (*red, *red_kings))
    w = sum(1 << (q - 1) for q in (*white, *white_kings))
    k = sum(1 << (q - 1) for q in (*red_kings, *white_kings))
    return State((r, w), k, to_move)


def texts(game: Checkers, s: State) -> list[str]:
    return [format_move(m, seat=0) for m in game.legal_moves(s)]


@pytest.fixture
def game() -> Checkers:
    return Checkers()


@pytest.mark.parametrize(
    ("depth", "nodes"), [(1, 7), (2, 49), (3, 302), (4, 1469), (5, 7361), (6, 36768)]
)
def test_perft_matches_published_counts(game: Checkers, depth: int, nodes: int) -> None:
    assert perft(game, game.initial(), depth) == nodes


def test_start_position_and_first_moves(game: Checkers) -> None:
    s = game.initial()
    assert texts(game, s) == ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]
    assert game.outcome(s) is None


def test_men_move_forward_only_and_kings_both_ways(game: Checkers) -> None:
    assert texts(game, pos(red=[14])) == ["14-17", "14-18"]
    assert texts(game, pos(white=[14], to_move=1)) == ["14-9", "14-10"]
    assert texts(game, pos(red_kings=[14])) == ["14-9", "14-10", "14-17", "14-18"]


def test_capture_is_compulsory(game: Checkers) -> None:
    s = pos(red=[14, 1], white=[18])
    assert texts(game, s) == ["14x23"]


def test_multi_jump_must_be_completed(game: Checkers) -> None:
    s = pos(red=[1], white=[6, 15, 30])
    assert texts(game, s) == ["1x10x19"]


def test_free_choice_among_captures_short_or_long(game: Checkers) -> None:
    s = pos(red=[1, 12], white=[6, 15, 16])
    assert texts(game, s) == ["1x10x19", "12x19"]


def test_men_do_not_capture_backwards_but_kings_do(game: Checkers) -> None:
    assert texts(game, pos(red=[18], white=[14, 30])) == ["18-22", "18-23"]
    assert texts(game, pos(red_kings=[18], white=[14, 30])) == ["18x9"]


def test_crowning_ends_the_move(game: Checkers) -> None:
    # the man jumps onto the crowning row; as a king it could jump 27 next, but may not
    s = pos(red=[22], white=[26, 27, 1])
    assert texts(game, s) == ["22x31"]
    after = game.apply(s, game.legal_moves(s)[0])
    assert after.kings == 1 << 30
    assert game.to_move(after) == 1


def test_a_king_may_not_jump_a_piece_twice(game: Checkers) -> None:
    s = pos(red_kings=[1], white=[6])
    assert texts(game, s) == ["1x10"]


def test_paths_capturing_different_pieces_stay_distinct(game: Checkers) -> None:
    s = parse_position("00000300/00202020/00000000/00002020/00000000/00000020/00000000/00000000 1")
    moves = [m for m in game.legal_moves(s) if format_move(m, seat=0).startswith("3x")]
    ends = {(m.origin, m.target) for m in moves}
    assert (2, 0) in ends
    same_ends = [format_move(m, seat=0) for m in moves if (m.origin, m.target) == (2, 0)]
    assert same_ends == ["3x10x1", "3x12x19x10x1"]
    assert (
        resolve_move("3x10x1", s, seat=0).captures
        != resolve_move("3x12x19x10x1", s, seat=0).captures
    )


def test_no_pieces_loses(game: Checkers) -> None:
    s = pos(red=[14], white=[18], to_move=0)
    after = game.apply(s, resolve_move("14x23", s, seat=0))
    out = game.outcome(after)
    assert out is not None and (out.winner, out.reason) == (0, Reason.NO_PIECES)


def test_no_moves_loses(game: Checkers) -> None:
    s = pos(white=[5], red=[1], to_move=1)  # 5-1 is occupied, the jump leaves the board
    assert game.legal_moves(s) == []
    out = game.outcome(s)
    assert out is not None and (out.winner, out.reason) == (0, Reason.NO_MOVES)


def _shuffle(game: Checkers, s: State, moves: list[str]) -> State:
    for t in moves:
        s = game.apply(s, resolve_move(t, s, seat=0))
    return s


def test_threefold_repetition_ends_and_pieces_decide(game: Checkers) -> None:
    s = pos(red_kings=[1], red=[12], white_kings=[32])
    cycle = ["1-5", "32-28", "5-1", "28-32"]
    once = _shuffle(game, s, cycle)
    assert game.outcome(once) is None  # the start position has now occurred twice
    twice = _shuffle(game, once, cycle)
    out = game.outcome(twice)
    assert out is not None and (out.winner, out.reason) == (0, Reason.REPETITION)
    assert "2 red pieces to 1 white" in out.detail
    assert game.legal_moves(twice) == []
    plain = Checkers(plain_draws=True)
    assert plain.outcome(twice) is not None and plain.outcome(twice).winner is None


def test_forty_moves_each_without_progress_ends(game: Checkers) -> None:
    s = pos(red_kings=[1, 3], white_kings=[32])
    s = State(s.pieces, s.kings, 0, quiet=79)
    assert game.outcome(s) is None
    after = game.apply(s, resolve_move("1-5", s, seat=0))
    out = game.outcome(after)
    assert out is not None and (out.winner, out.reason) == (0, Reason.NO_PROGRESS)
    assert Checkers(plain_draws=True).outcome(after) == out.__class__(
        None, Reason.NO_PROGRESS, out.detail
    )


def test_man_move_resets_the_no_progress_count(game: Checkers) -> None:
    s = pos(red_kings=[1], red=[12], white_kings=[32], white=[21])
    after = game.apply(s, resolve_move("1-5", s, seat=0))
    assert after.quiet == 1
    after = game.apply(after, resolve_move("21-17", after, seat=0))
    assert after.quiet == 0 and after.history == ()


def test_king_capture_resets_the_no_progress_count(game: Checkers) -> None:
    s = pos(red_kings=[14, 1], white=[18], white_kings=[32])
    s = State(s.pieces, s.kings, 0, quiet=50, history=((1, 2, 3, 0),))
    after = game.apply(s, resolve_move("14x23", s, seat=0))
    assert after.quiet == 0 and after.history == ()
    # while a king step counts on
    calm = pos(red_kings=[1], white_kings=[32])
    calm = State(calm.pieces, calm.kings, 0, quiet=50)
    assert game.apply(calm, resolve_move("1-5", calm, seat=0)).quiet == 51
