"""Alquerque rules against an independent reference and each rule of the sheet."""

from __future__ import annotations

import pytest

from arbiter.errors import IllegalMove, Reason
from arbiter.games.alquerque.contest import score
from arbiter.games.alquerque.notation import (
    format_move,
    parse_position,
    resolve_move,
)
from arbiter.games.alquerque.rules import Alquerque, State
from arbiter.perft import perft

from . import reference


@pytest.fixture
def game() -> Alquerque:
    return Alquerque()


def texts(game: Alquerque, s: State) -> list[str]:
    return [format_move(m, seat=0) for m in game.legal_moves(s)]


def pos(text: str, to_move: str = "w", ply: int = 10) -> State:
    """A position from seven ranks, rank 7 first."""
    return parse_position(f"{text} {to_move} {ply} - -")


EMPTY = "......./......./......./......./......./......./......."


def put(points: dict[str, str], to_move: str = "w", ply: int = 10) -> State:
    rows = [list(".......") for _ in range(7)]
    for name, who in points.items():
        rows[7 - int(name[1])]["abcdefg".index(name[0])] = who
    return pos("/".join("".join(r) for r in rows), to_move, ply)


def test_first_player_has_exactly_the_four_moves(game: Alquerque) -> None:
    assert texts(game, game.initial()) == ["c3-d4", "d3-d4", "e3-d4", "e4-d4"]


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5, 6])
def test_perft_agrees_with_the_simple_reference(game: Alquerque, depth: int) -> None:
    expected = reference.perft(reference.start(), "w", depth, {})
    assert perft(game, game.initial(), depth) == expected


def test_a_quiet_move_is_refused_when_a_capture_exists(game: Alquerque) -> None:
    s = put({"d1": "w", "a1": "w", "d2": "b", "g7": "b"})
    assert texts(game, s) == ["d1*d3"]
    with pytest.raises(IllegalMove, match="a capture is compulsory: d1\\*d3 is available"):
        resolve_move("a1-b1", s, seat=0)


def test_a_chain_must_be_completed_and_may_change_direction(game: Alquerque) -> None:
    # a1 takes b1 to c1, then turns up: takes c2 to c3
    s = put({"a1": "w", "b1": "b", "c2": "b", "g7": "b"})
    assert texts(game, s) == ["a1*c1*c3"]
    with pytest.raises(IllegalMove, match="incomplete capture: must continue from c1"):
        resolve_move("a1*c1", s, seat=0)
    after = game.apply(s, resolve_move("a1*c1*c3", s, seat=0))
    assert after.pieces[1] == 1 << 48  # both taken at once; g7 left


def test_paths_taking_the_same_pieces_in_another_order_are_two_moves(game: Alquerque) -> None:
    # c3 can go round the square c3-c5-e5-e3 either way, taking the same four pieces
    s = put({"c3": "w", "c4": "b", "d5": "b", "e4": "b", "d3": "b"})
    chains = [t for t in texts(game, s) if t.startswith("c3*")]
    assert "c3*c5*e5*e3*c3" in chains and "c3*e3*e5*c5*c3" in chains


def test_no_going_back_and_captures_are_not_restricted(game: Alquerque) -> None:
    s = put({"d4": "w", "g7": "b"}, ply=10)
    s = game.apply(s, resolve_move("d4-d5", s, seat=0))
    s = game.apply(s, resolve_move("g7-g6", s, seat=0))
    assert "d5-d4" not in texts(game, s)
    with pytest.raises(IllegalMove, match="d5-d4 goes back to where d5 came from last move"):
        resolve_move("d5-d4", s, seat=0)
    # a capture clears the restriction: the next normal move may go anywhere
    t = put({"d5": "w", "d6": "b", "a7": "b"}, ply=10)
    t = State(t.pieces, 0, 10, ((24, 31), None))  # white's last move was d4-d5
    assert texts(game, t) == ["d5*d7"]
    after = game.apply(t, resolve_move("d5*d7", t, seat=0))
    assert after.back[0] is None


def test_the_100_move_tie_and_its_score(game: Alquerque) -> None:
    s = put({"a1": "w", "b1": "w", "c1": "w", "g7": "b"}, to_move="w", ply=200)
    out = game.outcome(s)
    assert out is not None and (out.winner, out.reason) == (None, Reason.MOVE_LIMIT)
    assert score(game, s, out) == (6.0, 4.0)  # 7 - 1 black, 7 - 3 white
    assert game.legal_moves(s) == []


def test_black_trapping_white_on_its_100th_move_is_a_tie(game: Alquerque) -> None:
    # white on a1 hemmed in by black pieces it cannot take: no move, but the game is over
    trapped = put(
        {"a1": "w", "a2": "b", "b1": "b", "b2": "b", "a3": "b", "c1": "b", "c3": "b"},
        to_move="w",
        ply=200,
    )
    assert game.outcome(trapped).winner is None
    earlier = State(trapped.pieces, 0, 150)
    out = game.outcome(earlier)
    assert out is not None and (out.winner, out.reason) == (1, Reason.NO_MOVES)


def test_a_win_by_capturing_the_last_piece(game: Alquerque) -> None:
    s = put({"a1": "w", "b1": "b"})
    after = game.apply(s, resolve_move("a1*c1", s, seat=0))
    out = game.outcome(after)
    assert out is not None and (out.winner, out.reason) == (0, Reason.NO_PIECES)
    assert score(game, after, out) == (12.0, 0.0)


def test_the_search_values_a_tie_as_codecup_scores_it(game: Alquerque) -> None:
    from arbiter.games.alquerque.evaluate import W_TIE_POINT, draw_value

    s = put({"a1": "w", "b1": "w", "c1": "w", "g7": "b"}, to_move="w", ply=200)
    assert draw_value(s) == W_TIE_POINT * (6 - 4)
    assert draw_value(State(s.pieces, 1, 200)) == -W_TIE_POINT * (6 - 4)


def test_the_side_ahead_is_paid_for_pressing_its_lead() -> None:
    """Two men against one: standing next to the enemy man is worth more than standing
    far from it; the side behind is never paid; trading down pays the side ahead."""
    from arbiter.bitboard import mask
    from arbiter.games.alquerque.evaluate import pressure
    from arbiter.games.alquerque.rules import cell

    enemy = mask([cell(3, 3)])
    near = mask([cell(2, 2), cell(0, 6)])
    far = mask([cell(6, 0), cell(0, 6)])
    assert pressure(near, enemy, 4) > pressure(far, enemy, 4)
    assert pressure(near, enemy, 1) > pressure(near, enemy, 4)  # fewer enemy moves
    assert pressure(enemy, near, 4) == 0  # behind
    more = mask([cell(2, 2), cell(0, 6), cell(6, 6)])
    two = mask([cell(3, 3), cell(5, 5)])
    assert pressure(near, enemy, 4) > pressure(more, two, 4)  # a trade brings the win on
