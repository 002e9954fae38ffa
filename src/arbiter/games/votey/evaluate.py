"""A Votey (Lines of Action) evaluation built from the features of the LOA literature.

Features, as in Winands' MIA and the programs before it (all cheap bitboard counts):

- concentration: how far the pieces lie from their centre of mass, against the
  least possible spread for that many pieces;
- centralisation: a piece-square bonus for the centre of the board;
- centre-of-mass position: a centre of mass near the board's centre is easier to
  gather around;
- quads: 2x2 blocks holding three or more own pieces (hard to break up);
- connectivity: own neighbour pairs, and fewer separate groups;
- mobility: the number of moves, captures counting extra.

:func:`evaluate` scores a position for the side to move, in hundredths of a piece;
wins and losses are handled by the search, not here.
"""

from __future__ import annotations

from arbiter.bitboard import mask
from arbiter.games.votey.rules import COL8, FULL, Move, State, count_moves, groups

_ROWS = tuple(mask(8 * r + c for c in range(8)) for r in range(8))
_COLS = tuple(mask(8 * r + c for r in range(8)) for c in range(8))
_RING = tuple(
    mask(
        8 * r + c
        for r in range(8)
        for c in range(8)
        if max(abs(2 * r - 7), abs(2 * c - 7)) // 2 == k
    )
    for k in range(4)
)
_RING_BONUS = (16, 10, 4, -6)


def _min_spread(n: int) -> int:
    """Returns the smallest sum of distances n pieces packed around a centre can have."""
    total, ring, left = 0, 1, n - 1
    while left > 0:
        take = min(left, 8 * ring)
        total += take * ring
        left -= take
        ring += 1
    return total


#: least possible sum of king-distances to the centre of mass for n pieces
_MIN_SPREAD = tuple(_min_spread(n) for n in range(13))

W_CONCENTRATION = 24
W_CENTRAL = 1
W_COM = 6
W_QUAD = 14
W_PAIRS = 4
W_GROUPS = 22
W_MOBILITY = 3
W_CAPTURE = 2
REDUCE = 1
"""The search agent reduces every late move (``alphabeta:reduce=1``): in Votey's open
middlegames most moves of a node are far worse than its first few (+81 +- 48 Elo in
200 games at 0.1 s a move)."""


_SHAPE_CACHE: dict[int, int] = {}
_SHAPE_CACHE_SIZE = 1 << 17


def _side(own: int) -> int:
    """Returns the static (shape) score of one side's pieces ``own``, cached: sibling
    positions in a search share the pieces of the side that did not move."""
    score = _SHAPE_CACHE.get(own)
    if score is None:
        if len(_SHAPE_CACHE) >= _SHAPE_CACHE_SIZE:
            _SHAPE_CACHE.clear()
        score = _SHAPE_CACHE[own] = _shape(own)
    return score


def _shape(own: int) -> int:
    """Computes the shape score of ``own`` (see the module docstring)."""
    n = own.bit_count()
    if n <= 1:
        return 0
    row_sum = 0
    col_sum = 0
    for i in range(8):
        row_sum += i * (own & _ROWS[i]).bit_count()
        col_sum += i * (own & _COLS[i]).bit_count()
    # centre of mass, rounded to a cell
    cr = (2 * row_sum + n) // (2 * n)
    cc = (2 * col_sum + n) // (2 * n)
    spread = 0
    b = own
    while b:
        low = b & -b
        cell = low.bit_length() - 1
        r, c = cell >> 3, cell & 7
        dr = r - cr if r > cr else cr - r
        dc = c - cc if c > cc else cc - c
        spread += dr if dr > dc else dc
        b ^= low
    excess = spread - _MIN_SPREAD[n]
    concentration = -W_CONCENTRATION * excess // (n - 1)

    central = 0
    for k in range(4):
        central += _RING_BONUS[k] * (own & _RING[k]).bit_count()
    com = -W_COM * (max(abs(2 * cr - 7), abs(2 * cc - 7)) // 2)

    right = (own >> 1) & ~COL8
    down = own >> 8
    down_right = (own >> 9) & ~COL8
    quads = (
        (
            (own & right & down)
            | (own & right & down_right)
            | (own & down & down_right)
            | (right & down & down_right)
        )
        & ~COL8
        & (FULL >> 8)
    )
    pairs = (
        (own & right).bit_count()
        + (own & down).bit_count()
        + (own & down_right).bit_count()
        + (own & (own << 7) & ~COL8 & FULL).bit_count()
    )
    return (
        concentration
        + W_CENTRAL * central
        + com
        + W_QUAD * quads.bit_count()
        + W_PAIRS * pairs
        - W_GROUPS * (groups(own) - 1)
    )


def _mobility(own: int, enemy: int) -> int:
    moves, captures = count_moves(own, enemy)
    return W_MOBILITY * moves + W_CAPTURE * captures


def evaluate(s: State) -> int:
    """Returns the score of ``s`` for the side to move (positive = better for it)."""
    p = s.to_move
    own, enemy = s.pieces[p], s.pieces[1 - p]
    score = _side(own) - _side(enemy)
    score += _mobility(own, enemy) - _mobility(enemy, own)
    return score + 8  # the side to move holds the initiative


def order_hint(s: State, m: Move) -> int:
    """Returns a move-ordering bonus: captures first, then moves toward the centre."""
    enemy = s.pieces[1 - s.to_move]
    hint = 0
    if (enemy >> m.target) & 1:
        hint += 100
    rt, ct = m.target >> 3, m.target & 7
    ro, co = m.origin >> 3, m.origin & 7
    hint += max(abs(2 * ro - 7), abs(2 * co - 7)) - max(abs(2 * rt - 7), abs(2 * ct - 7))
    return hint


def noisy_moves(s: State) -> tuple[Move, ...]:
    """No Votey move is forced, so the search needs no quiescence: none."""
    return ()


def draw_value(s: State) -> int:
    """A draw is worth nothing to either side."""
    return 0


def moves_to_go(s: State) -> int:
    """Lines of Action games rarely pass 60 plies: 30 moves at first, fewer as the game
    goes on, never below 10 (a long game still leaves time for its end)."""
    return max(10, 30 - s.ply // 4)
