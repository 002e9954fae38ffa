"""A Halma evaluation: the race to the far corner, stragglers, the lane and the camp.

Each piece's distance to the corner of the camp it crosses to is counted as
``dx + dy`` (a diagonal step gains two, a diagonal hop four; the camp is the squares
with ``dx + dy`` at most 5 but two, and those two count as 6). The score of the side
to move is how much less it still has to travel than its opponent, in tenths of a
unit, less a penalty for its rearmost piece (the last piece home costs the whole
crossing single steps at the end), for pieces far off the corner-to-corner diagonal
(hop chains run along it; a piece on the edge is slow to bring home), and for pieces
still in its own camp.

Near the end, what counts is different: the win needs every square of the camp held,
by either side, not pieces deep in it. So each piece outside the camp also costs
W_HOLE per unit of its distance (``dx + dy``) to the camp: near the camp (within
NEAR of the corner) to the nearest square of it still empty, further off to the
camp's edge. Without it, moving a piece towards the last hole and moving it about
beside the camp looked alike to a shallow search, which put off entering for ever.
(The term applies everywhere, not from some count of pieces home on: a term that
switched on made entering the camp cost, and games grew from 150 plies to 370.)
"""

from __future__ import annotations

from arbiter.bitboard import bits, total_and_max
from arbiter.games.halma.rules import CAMPS, CELLS, SIZE, Move, State, xy

W_STEP = 10
W_STRAGGLER = 6
W_LANE = 2
W_CAMP = 8
HOME = 60
"""The least total distance: 19 pieces filling the camp."""
CAMP_EDGE = 5
"""The distance of the camp's squares furthest from its corner."""
W_HOLE = 5
NEAR = CAMP_EDGE + 3
PRUNE = 3
"""The search agent prunes late moves at the last three plies (``alphabeta:prune=3``:
the first 8, 16 and 24 moves searched at one, two and three plies left, of the 150-200
a side has in the middle game): a race is decided by the moves that advance most, and
the search goes a ply deeper (+385 +- 187 Elo in 61 games at 0.1 s a move)."""


def _distance(p: int, c: int) -> int:
    """``dx + dy`` to seat ``p``'s goal corner, and at least CAMP_EDGE + 1 outside the
    camp it crosses to: the two squares beside the camp's long edge (5,0 and 0,5 for
    white) are as near the corner as the edge itself, and a piece parked there for
    good would never let the camp fill."""
    x, y = xy(c)
    d = (2 * (SIZE - 1) - x - y) if p == 0 else x + y
    return d if (CAMPS[1 - p] >> c) & 1 else max(d, CAMP_EDGE + 1)


DISTANCE = tuple(tuple(_distance(p, c) for c in range(CELLS)) for p in (0, 1))
"""Per seat, each square's distance to the corner it crosses to."""
LANE = tuple(abs(xy(c)[0] - xy(c)[1]) for c in range(CELLS))
"""Each square's distance off the main diagonal (the corners' line)."""
XY = tuple(xy(c) for c in range(CELLS))


COST = tuple(
    tuple(W_STEP * DISTANCE[p][c] + W_LANE * LANE[c] for c in range(CELLS)) for p in (0, 1)
)
"""Per seat, what a piece on each square costs it: its distance and its lane."""


def _side(s: State, p: int) -> int:
    dist, cost = DISTANCE[p], COST[p]
    target = CAMPS[1 - p]
    holes: list[tuple[int, int]] | None = None  # the camp's empty squares, once needed
    total = rear = away = 0
    bb = s.pieces[p]
    while bb:  # the set bits, inline: this runs at every leaf of a search
        low = bb & -bb
        c = low.bit_length() - 1
        bb ^= low
        d = dist[c]
        total += cost[c]
        if d > rear:
            rear = d
        if not (target >> c) & 1:
            if d <= NEAR and holes is None:
                holes = [XY[h] for h in bits(target & ~(s.pieces[0] | s.pieces[1]))]
            if d <= NEAR and holes:
                x, y = XY[c]
                away += min(abs(x - hx) + abs(y - hy) for hx, hy in holes)
            else:
                away += d - CAMP_EDGE
    camp = (s.pieces[p] & CAMPS[p]).bit_count()
    return -total - W_STRAGGLER * rear - W_CAMP * camp - W_HOLE * away


def evaluate(s: State) -> int:
    """Returns the score of ``s`` for the side to move (positive = better for it)."""
    p = s.to_move
    return _side(s, p) - _side(s, 1 - p)


def order_hint(s: State, m: Move) -> int:
    """Moves that go furthest towards the goal corner first; among moves that gain as
    much, the rearmost piece's first. (The tie-break matters: without it equal moves
    come in the board's order, front pieces first for white and last for black, and
    in self-play at 0.5 s a move the second player won 7 games of 8; with it the
    first player won 5 of 8.)"""
    dist = DISTANCE[s.to_move]
    return (dist[m.origin] - dist[m.target]) * 64 + dist[m.origin]


def noisy_moves(s: State) -> tuple[Move, ...]:
    """No move is forced: no quiescence search."""
    return ()


def draw_value(s: State) -> int:
    """A draw is worth nothing to either side."""
    return 0


def moves_to_go(s: State) -> int:
    """About a quarter of the distance still to travel (a move gains two to six units
    on average, a hop chain far more), at least 10."""
    total, _ = total_and_max(s.pieces[s.to_move], DISTANCE[s.to_move])
    return max(10, (total - HOME) // 4)
