"""Halma rules against an independent reference, the sheet's worked examples, and
each camp rule."""

from __future__ import annotations

import random

import pytest

from arbiter.clock import Clock, TimeControl
from arbiter.errors import IllegalMove, NotationError, Reason
from arbiter.game import Outcome
from arbiter.games import find_game
from arbiter.games.halma.contest import adjudicate
from arbiter.games.halma.notation import format_move, parse_move, resolve_move
from arbiter.games.halma.rules import CAMPS, CELLS, Halma, Move, State, cell, xy
from arbiter.perft import perft

from . import reference

GAME = Halma()


@pytest.fixture(autouse=True)
def _game_on_the_core_path(core_path: str) -> None:
    """GAME, made again on the test's core path (compiled or pure)."""
    global GAME
    GAME = Halma()


Square = tuple[int, int]


def squares(bits_: int) -> set[Square]:
    return {xy(c) for c in range(CELLS) if (bits_ >> c) & 1}


def position(black: set[Square], white: set[Square], to_move: int = 0, ply: int = 50) -> State:
    return State(
        (sum(1 << cell(*sq) for sq in black), sum(1 << cell(*sq) for sq in white)), to_move, ply
    )


def board_of(s: State) -> reference.Board:
    board = reference.start()
    for sq in board:
        board[sq] = ""
    for sq in squares(s.pieces[0]):
        board[sq] = "B"
    for sq in squares(s.pieces[1]):
        board[sq] = "W"
    return board


def pairs(s: State) -> set[tuple[Square, Square]]:
    return {(xy(m.origin), xy(m.target)) for m in GAME.legal_moves(s)}


BLACK_CAMP = squares(CAMPS[0])
WHITE_CAMP = squares(CAMPS[1])


def test_the_camps_are_the_rules_nineteen_squares() -> None:
    assert BLACK_CAMP == reference.BLACK_CAMP and WHITE_CAMP == reference.WHITE_CAMP
    assert len(BLACK_CAMP) == 19 and (4, 1) in BLACK_CAMP and (5, 0) not in BLACK_CAMP


@pytest.mark.parametrize(
    ("depth", "nodes"),
    [(1, 40), (2, 1600), (3, 62_240), pytest.param(4, 2_421_136, marks=pytest.mark.slow)],
)
def test_perft_matches_the_independent_reference(depth: int, nodes: int) -> None:
    s = GAME.initial()
    assert perft(GAME, s, depth) == nodes == reference.perft(board_of(s), "B", depth)


def test_random_positions_agree_with_the_reference() -> None:
    """Along random games: the same moves, and is_legal agrees for every pair of
    squares (the camp rules' shortcut in is_legal against the full list)."""
    rng = random.Random(3)
    checked = 0
    for _ in range(6):
        s = GAME.initial()
        for _ in range(rng.randrange(20, 160)):
            if GAME.outcome(s) is not None:
                break
            colour = "BW"[s.to_move]
            assert pairs(s) == reference.legal_moves(board_of(s), colour)
            legal = set(GAME.legal_moves(s))
            mine = [c for c in range(CELLS) if (s.pieces[s.to_move] >> c) & 1]
            for a in rng.sample(mine, 2):  # every square, from two of the mover's pieces
                for b in range(CELLS):
                    assert GAME.is_legal(s, Move(a, b)) == (Move(a, b) in legal), (s, a, b)
            checked += 1
            s = GAME.apply(s, rng.choice(GAME.legal_moves(s)))
    assert checked > 200


def test_every_chain_s_landings_are_real_hops() -> None:
    rng = random.Random(5)
    s = GAME.initial()
    for _ in range(120):
        for m in GAME.legal_moves(s):
            if not m.is_step:
                assert m.hops[-1] == m.target
                assert resolve_move(format_move(m, seat=0), s, seat=0) == m
        s = GAME.apply(s, rng.choice(GAME.legal_moves(s)))


# -- the sheet's worked examples --------------------------------------------------


def test_the_sheets_opening_moves_for_white() -> None:
    s = State(GAME.initial().pieces, 1)
    step = resolve_move("E 11,15 10,15", s, seat=1)
    hop = resolve_move("J 12,15 10,13", s, seat=1)
    assert step.is_step and not hop.is_step and hop.hops == (cell(10, 13),)
    after = GAME.apply(s, hop)
    assert (10, 13) in squares(after.pieces[1]) and (12, 15) not in squares(after.pieces[1])


def test_example_one_a_step_into_the_target_camp_fills_it_and_wins() -> None:
    white = (BLACK_CAMP - {(3, 2)}) | {(4, 3)}
    black = (WHITE_CAMP - {(15, 11)}) | {(10, 10)}
    s = position(black, white, to_move=1)
    m = resolve_move("E 4,3 3,2", s, seat=1)
    after = GAME.apply(s, m)
    assert GAME.outcome(after) == Outcome(1, Reason.ALL_HOME)


def test_example_two_a_hop_into_the_target_camp() -> None:
    white = (BLACK_CAMP - {(2, 1), (4, 0)}) | {(4, 3), (8, 8)}
    black = (WHITE_CAMP - {(15, 11)}) | {(10, 10)}
    s = position(black, white, to_move=1)
    m = resolve_move("J 4,3 2,1", s, seat=1)
    assert m == Move(cell(4, 3), cell(2, 1))
    assert GAME.outcome(GAME.apply(s, m)) is None  # 4,0 is still open


def test_example_three_a_chain_of_three_hops() -> None:
    black = {(9, 9), (6, 6), (5, 5), (7, 5), (5, 7), (6, 8)}
    white = {(10, 9), (11, 10), (12, 12), (1, 1), (2, 2), (3, 1)}
    s = position(black, white)
    text = "J 9,9 11,9\nJ 11,9 11,11\nJ 11,11 13,13\n"
    m = resolve_move(text, s, seat=0)
    assert (xy(m.origin), xy(m.target)) == ((9, 9), (13, 13))
    assert m.hops == (cell(11, 9), cell(11, 11), cell(13, 13))
    # the engine lists the move, with a chain of its own that ends there
    assert m in GAME.legal_moves(s)


# -- hops ---------------------------------------------------------------------------


def test_a_chain_may_jump_the_same_piece_twice_and_the_start_counts_as_empty() -> None:
    # around 5,5: over 6,5 to 7,5, over 6,6 to 5,7? no: a loop over one piece, there and back
    s = position({(5, 5), (0, 15)}, {(6, 5), (15, 0)})
    back = resolve_move("J 5,5 7,5\nJ 7,5 5,5\nJ 5,5 7,5", s, seat=0)
    assert back == Move(cell(5, 5), cell(7, 5))
    with pytest.raises(IllegalMove, match="may not end where it started"):
        resolve_move("J 5,5 7,5\nJ 7,5 5,5", s, seat=0)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("J 5,5 7,7", "no piece on 6,6"),
        ("J 5,5 7,5\nJ 7,5 9,5", "no piece on 8,5"),
        ("E 5,5 6,5", "6,5 is occupied"),
        ("E 6,5 6,6", "no piece on 6,5"),
    ],
)
def test_a_chain_is_judged_hop_by_hop(text: str, why: str) -> None:
    s = position({(5, 5), (0, 15)}, {(6, 5), (15, 0)})
    with pytest.raises(IllegalMove, match=why):
        resolve_move(text, s, seat=0)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("E 5,5 7,7", "neighbouring"),
        ("J 5,5 8,5", "not a hop"),
        ("J 5,5 6,5", "not a hop"),  # a neighbour: a hop goes two squares
        ("J 5,5 7,6", "not a hop"),  # two and one: along no line
        ("J 5,5 7,5\nJ 6,5 8,5", "line 2 .*start where the last one landed"),
        ("E 5,5 6,5\nE 6,5 7,5", "one line"),
        ("J 5,5 7,5\nE 7,5 8,5", "only J lines"),
        ("E 5,5 16,5", "0..15"),
        ("M 5,5 6,5", "expected 'E x,y x,y' or 'J x,y x,y'"),
        ("", "expected"),
    ],
)
def test_malformed_move_text_names_what_was_expected(text: str, expected: str) -> None:
    with pytest.raises(NotationError, match=expected):
        parse_move(text, seat=0)


# -- camp rules -----------------------------------------------------------------------


def test_rule_1a_a_piece_outside_may_not_come_back_into_its_camp() -> None:
    s = position({(5, 5), (12, 12)}, {(10, 3), (3, 12)})
    assert ((5, 5), (4, 4)) in pairs(s)  # 4,4 is not in the camp: fine
    s = position({(2, 5), (12, 12)}, {(10, 3), (3, 12)})
    assert ((2, 5), (1, 4)) not in pairs(s) and ((2, 5), (3, 5)) in pairs(s)
    with pytest.raises(IllegalMove, match="may not come back into it"):
        resolve_move("E 2,5 1,4", s, seat=0)


def test_a_piece_in_the_opposing_camp_may_not_leave_it() -> None:
    s = position({(11, 15), (5, 5)}, {(10, 3), (3, 12)})
    assert ((11, 15), (10, 15)) not in pairs(s)
    assert ((11, 15), (12, 15)) in pairs(s)
    with pytest.raises(IllegalMove, match="may not leave it"):
        resolve_move("E 11,15 10,15", s, seat=0)


def test_rule_1b_a_piece_must_leave_the_camp_while_one_can() -> None:
    s = position({(4, 1), (8, 8)}, {(10, 3), (3, 12)})
    moves = GAME.legal_moves(s)
    assert moves and all(xy(m.origin) == (4, 1) for m in moves)
    assert all(xy(m.target) not in BLACK_CAMP for m in moves)
    with pytest.raises(IllegalMove, match="must move one out"):
        resolve_move("E 8,8 9,9", s, seat=0)


def test_a_square_the_piece_cannot_reach_is_named_as_such_not_as_a_camp_rule() -> None:
    s = GAME.initial()
    for text in ("4,1 9,9", "0,0 3,3"):
        start, end = text.split()
        with pytest.raises(
            IllegalMove, match=f"no step or chain of hops takes the piece on {start} to {end}"
        ):
            resolve_move(text, s, seat=0)
    s = position({(4, 1), (8, 8)}, {(10, 3), (3, 12)})
    with pytest.raises(IllegalMove, match="must move one out"):  # reachable: the camp rule
        resolve_move("8,8 9,9", s, seat=0)


def test_rule_1b_else_a_piece_moves_further_from_the_corner() -> None:
    # 1,1 cannot leave the camp in one move (no hops; every neighbour is in the camp)
    s = position({(1, 1), (8, 8)}, {(10, 3), (3, 12)})
    assert pairs(s) == {((1, 1), (2, 1)), ((1, 1), (1, 2)), ((1, 1), (2, 2))}
    assert pairs(s) == reference.legal_moves(board_of(s), "B")
    # 2,0 is further across but closer down: not further away
    with pytest.raises(IllegalMove, match="further from your corner"):
        resolve_move("E 1,1 2,0", s, seat=0)
    # white measures from its own corner, 15,15
    s = position({(10, 3), (3, 12)}, {(14, 14), (7, 7)}, to_move=1)
    assert pairs(s) == {((14, 14), (13, 14)), ((14, 14), (14, 13)), ((14, 14), (13, 13))}


# -- the end -----------------------------------------------------------------------------


def test_filling_every_free_square_of_the_opposing_camp_wins_despite_a_spoiler() -> None:
    # white left two pieces at home: black wins by filling the other 17 squares
    spoilers = {(15, 15), (14, 15)}
    black = (WHITE_CAMP - spoilers - {(11, 15)}) | {(10, 15)}
    white = spoilers | {(x, 8) for x in range(17 - 2)}
    s = position(black, white)
    m = resolve_move("E 10,15 11,15", s, seat=0)
    assert GAME.outcome(GAME.apply(s, m)) == Outcome(0, Reason.ALL_HOME)
    # a camp the opponent never left cannot be won: no square of it is free
    assert GAME.outcome(position({(5, 5)}, WHITE_CAMP, to_move=1)) is None


def test_a_side_without_a_legal_move_loses() -> None:
    # black's only piece sits in white's camp corner, every square it could reach full
    black = {(15, 15)}
    white = {(14, 15), (15, 14), (14, 14), (13, 15), (15, 13), (13, 13)}
    s = position(black, white)
    assert GAME.legal_moves(s) == []
    assert GAME.outcome(s) == Outcome(1, Reason.NO_MOVES)


def test_the_ply_cap_draws_and_the_referee_gives_it_to_more_time_left() -> None:
    game = Halma(max_plies=60)
    s = position({(5, 5)}, {(10, 10)}, ply=60)
    ended = game.outcome(s)
    assert ended == Outcome(None, Reason.MOVE_LIMIT, "60 plies")
    clock = Clock.start(TimeControl.parse("300"))
    clock = clock.spend(0, 12.5).spend(1, 30.0)
    judged = adjudicate(game, s, clock, ended)
    assert judged is not None and (judged.winner, judged.reason) == (0, Reason.TIME_LEFT)
    assert adjudicate(game, s, clock.spend(0, 17.5), ended) == ended  # equal: a draw
    assert adjudicate(game, s, clock, None) is None
    # a person off the clock (against a contest's program) has no time left to
    # compare with the program's: the cap's draw stands, whichever seat the person is
    for person in (0, 1):
        untimed = Clock.start(TimeControl.parse("300"), untimed=frozenset({person}))
        assert adjudicate(game, s, untimed.spend(1 - person, 30.0), ended) == ended


def test_a_move_that_leaves_exactly_no_time_loses() -> None:
    s = position({(5, 5)}, {(10, 10)}, to_move=1, ply=7)  # black has just moved
    clock = Clock.start(TimeControl.parse("300")).spend(0, 300.0)
    judged = adjudicate(GAME, s, clock, None)
    assert judged is not None and (judged.winner, judged.reason) == (1, Reason.TIME)
    assert adjudicate(GAME, s, Clock.start(TimeControl.parse("300")).spend(0, 299.9), None) is None
    # a per-move clock has no game time to run out of
    assert adjudicate(GAME, s, Clock.start(TimeControl.parse("st=1")).spend(0, 1.0), None) is None


def test_a_move_in_a_finished_game_is_refused_with_the_result() -> None:
    white = (BLACK_CAMP - {(3, 2)}) | {(4, 3)}
    black = (WHITE_CAMP - {(15, 11)}) | {(10, 10)}
    s = GAME.apply(position(black, white, to_move=1), Move(cell(4, 3), cell(3, 2)))
    with pytest.raises(IllegalMove, match=r"the game is over \(0-1\)"):
        resolve_move("E 10,10 11,11", s, seat=0)


def test_the_board_draws_a_chain_as_it_was_played_and_a_bare_move_by_a_shortest_one() -> None:
    # the replay and the move list show the landings the player chose, not another way
    s = position({(5, 5), (0, 15)}, {(6, 5), (15, 0)})
    played = resolve_move("J 5,5 7,5\nJ 7,5 5,5\nJ 5,5 7,5", s, seat=0)
    clicks = find_game("halma").board_view().clicks
    assert clicks.move_path(s, played) == (cell(5, 5), cell(7, 5), cell(5, 5), cell(7, 5))
    assert clicks.move_path(s, Move(cell(5, 5), cell(7, 5))) == (cell(5, 5), cell(7, 5))
