"""A Chinese checkers evaluation: the race to the far tip, stragglers and home.

Every hole's distance to each side's goal tip (the far corner of the home it
crosses to) is counted in steps on the hex grid. The score of the side to move is
how much less it still has to travel than its opponent, in tenths of a step, less
a penalty for its rearmost marble (a straggler costs the whole crossing several
single steps at the end) and, as the game goes on, for marbles still in its own
home (which the sheet punishes once the five minutes are spent).

Near the end, an opposing marble left in the target can only be waited out: the
win needs all ten holes. A side whose marbles pack the target around such a marble
so that it has no move out can never win, so each such trapped marble costs it
W_TRAPPED, more than the home penalty the opponent pays for it.
"""

from __future__ import annotations

from arbiter.bitboard import bits, total_and_max
from arbiter.games.chinese_checkers.rules import (
    CELLS,
    COORDS,
    HOMES,
    Move,
    State,
    targets_from,
)

W_STEP = 10
W_STRAGGLER = 4
W_HOME = 30
HOME_FROM_PLY = 40
"""From this ply on, each marble still at home costs W_HOME."""
W_TRAPPED = 60
TRAP_FROM = 6
"""With this many of its own marbles in the target, a side pays W_TRAPPED for every
opposing marble there that cannot leave."""
CROSSED = 20
"""The least total distance: ten marbles packed into the goal triangle (0 + 2*1 + 3*2 + 4*3)."""
PRUNE = 2
"""The search agent prunes late moves at the last two plies (``alphabeta:prune=2``:
the first 8 and 16 moves searched at one and two plies left): +131 +- 58 Elo in 100
games at 0.1 s a move (at three plies +24 +- 55)."""


def _distance(a: int, b: int) -> int:
    """Steps between two holes on the hex grid (doubled coordinates)."""
    (xa, ya), (xb, yb) = COORDS[a], COORDS[b]
    dx, dy = abs(xa - xb), abs(ya - yb)
    return dy + max(0, (dx - dy) // 2)


GOAL_TIP = (CELLS - 1, 0)
"""The far tip of the home each seat crosses to."""
DISTANCE = tuple(tuple(_distance(c, GOAL_TIP[p]) for c in range(CELLS)) for p in (0, 1))


def travel(s: State, p: int) -> tuple[int, int]:
    """(Total distance seat ``p``'s marbles still have to their tip, the rearmost's)."""
    return total_and_max(s.pieces[p], DISTANCE[p])


def trapped(s: State, p: int) -> int:
    """How many of the opponent's marbles in seat ``p``'s target have no move that
    ends outside it."""
    target = HOMES[1 - p]
    occupied = s.pieces[0] | s.pieces[1]
    return sum(1 for c in bits(s.pieces[1 - p] & target) if not targets_from(c, occupied) & ~target)


def _side(s: State, p: int) -> int:
    total, rear = travel(s, p)
    score = -W_STEP * total - W_STRAGGLER * rear
    if s.ply >= HOME_FROM_PLY:
        score -= W_HOME * (s.pieces[p] & HOMES[p]).bit_count()
        if (s.pieces[p] & HOMES[1 - p]).bit_count() >= TRAP_FROM:
            score -= W_TRAPPED * trapped(s, p)
    return score


def evaluate(s: State) -> int:
    """Returns the score of ``s`` for the side to move (positive = better for it)."""
    p = s.to_move
    return _side(s, p) - _side(s, 1 - p)


def order_hint(s: State, m: Move) -> int:
    """Moves that go furthest towards the goal first."""
    dist = DISTANCE[s.to_move]
    return dist[m.origin] - dist[m.target]


def noisy_moves(s: State) -> tuple[Move, ...]:
    """No move is forced: no quiescence search."""
    return ()


def draw_value(s: State) -> int:
    """A draw is worth nothing to either side."""
    return 0


def moves_to_go(s: State) -> int:
    """About a third of the distance still to travel (a move gains two or three steps
    on average), at least 8."""
    total, _ = travel(s, s.to_move)
    return max(8, (total - CROSSED) // 3)
