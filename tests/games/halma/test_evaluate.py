"""The Halma evaluation and the built-in search on it."""

from __future__ import annotations

import random

from arbiter.agents.registry import make_agent
from arbiter.agents.spec import AgentSpec
from arbiter.clock import Limit
from arbiter.games import find_game
from arbiter.games.halma.evaluate import DISTANCE, evaluate, moves_to_go, order_hint
from arbiter.games.halma.rules import CELLS, Halma, State, cell, xy

from .test_rules import BLACK_CAMP, WHITE_CAMP, position

GAME = Halma()


def turned(s: State) -> State:
    """``s`` turned half round with the colours swapped: the same position for the
    other side."""

    def rotate(bb: int) -> int:
        return sum(1 << (CELLS - 1 - c) for c in range(CELLS) if (bb >> c) & 1)

    return State((rotate(s.pieces[1]), rotate(s.pieces[0])), 1 - s.to_move, s.ply)


def test_the_evaluation_treats_both_colours_alike() -> None:
    rng = random.Random(4)
    s = GAME.initial()
    assert evaluate(s) == 0
    for _ in range(120):
        s = GAME.apply(s, rng.choice(GAME.legal_moves(s)))
        assert evaluate(turned(s)) == evaluate(s)
        assert moves_to_go(turned(s)) == moves_to_go(s) >= 10


def test_going_forward_scores_and_is_searched_first() -> None:
    s = position({(7, 7)}, {(2, 12)})
    forward = next(m for m in GAME.legal_moves(s) if m.target == 8 * 16 + 8)  # to 8,8
    back = next(m for m in GAME.legal_moves(s) if m.target == 6 * 16 + 6)  # to 6,6
    assert order_hint(s, forward) > 0 > order_hint(s, back)
    assert -evaluate(GAME.apply(s, forward)) > -evaluate(GAME.apply(s, back))


def test_the_engine_takes_a_win_in_one() -> None:
    spec = find_game("halma")
    engine = make_agent(spec, AgentSpec.parse("alphabeta"))
    white = (BLACK_CAMP - {(3, 2)}) | {(4, 3)}
    black = (WHITE_CAMP - {(15, 11)}) | {(10, 10)}
    s = position(black, white, to_move=1)
    engine.reset(GAME, 1, 0)
    m = engine.choose(s, Limit(depth=2))
    assert GAME.outcome(GAME.apply(s, m)) is not None


def test_every_square_of_the_target_camp_is_nearer_than_every_square_outside() -> None:
    """A piece outside the camp must always want to go in: a self-play game was lost
    with white's last piece parked on 5,0, as near the corner as the camp's edge."""
    for p, target in ((0, WHITE_CAMP), (1, BLACK_CAMP)):
        inside = [DISTANCE[p][cell(*sq)] for sq in target]
        outside = [DISTANCE[p][c] for c in range(CELLS) if xy(c) not in target]
        assert max(inside) < min(outside)


ALMOST_HOME = (
    "WWWWW.........../WWWW............/WWWWW.........../WWWW............/W.............../"
    "........B......./.......B......../....B..BBB....../................/...........BBB../"
    ".......B.B.....B/................/................/.............B../..........B...BB/"
    ".............BBB w 151"
)
"""From a self-play game against greedy: white needs three moves (4,2 to 4,1, then
3,3 by 2,4 to 1,4), and shuffled beside its camp for 78 plies instead."""


def test_the_engine_fills_its_last_holes_without_dawdling() -> None:
    spec = find_game("halma")
    s = spec.notation.parse_position(ALMOST_HOME)
    engine = make_agent(spec, AgentSpec.parse("alphabeta:depth=3"))
    opponent = make_agent(spec, AgentSpec.parse("greedy"))
    engine.reset(GAME, 1, 0)
    opponent.reset(GAME, 0, 0)
    moves = 0
    while GAME.outcome(s) is None and moves < 3:
        s = GAME.apply(s, engine.choose(s, Limit(depth=3)))
        moves += 1
        if GAME.outcome(s) is None:
            s = GAME.apply(s, opponent.choose(s, Limit(depth=1)))
    assert GAME.outcome(s) is not None and GAME.outcome(s).winner == 1
