"""A checkers evaluation from the classic program features, plus move hints for search.

Features, scored for red and negated for white (all bitboard counts):

- material: a man is 100, a king 140;
- advancement: men gain a little for each row they have advanced;
- back-rank guard: men still on their own back row keep the opponent from crowning;
- centre control: pieces on the eight central squares;
- mobility: the number of steps each side has;
- runaway men: a man with no enemy piece in the cone in front of it will crown;
  it is worth more the closer it is.

:func:`evaluate` scores a position for the side to move. :func:`noisy_moves`
gives the captures the quiescence search must still play out: captures are
compulsory, so when there are any they are all the moves there are.
"""

from __future__ import annotations

from arbiter.bitboard import mask
from arbiter.games.checkers.rules import STEP, Move, State, captures_of, cell_row_col

MAN, KING = 100, 140
W_ADVANCE = 3
W_BACK = 12
W_CENTRE = 6
W_KING_CENTRE = 4
W_MOBILITY = 2
W_RUNAWAY = 50

_ROW = [cell_row_col(c)[0] for c in range(32)]
_COL = [cell_row_col(c)[1] for c in range(32)]
BACK_ROW = (mask(range(0, 4)), mask(range(28, 32)))
CENTRE = mask(c for c in range(32) if 2 <= _ROW[c] <= 5 and 2 <= _COL[c] <= 5)
INNER = mask(c for c in range(32) if 3 <= _ROW[c] <= 4 and 2 <= _COL[c] <= 5)


def _cone(cell: int, side: int) -> int:
    """Cells in front of a man (towards its crowning row) within diagonal reach."""
    r0, c0 = _ROW[cell], _COL[cell]
    step = 1 if side == 0 else -1
    cells = []
    for c in range(32):
        dr = (_ROW[c] - r0) * step
        if dr > 0 and abs(_COL[c] - c0) <= dr + 1:
            cells.append(c)
    return mask(cells)


CONE = ([_cone(c, 0) for c in range(32)], [_cone(c, 1) for c in range(32)])
ROWS_TO_GO = ([7 - _ROW[c] for c in range(32)], [_ROW[c] for c in range(32)])


def _side(s: State, p: int) -> int:
    own, enemy = s.pieces[p], s.pieces[1 - p]
    kings = s.kings & own
    men = own & ~kings
    score = MAN * men.bit_count() + KING * kings.bit_count()
    to_go = ROWS_TO_GO[p]
    cone = CONE[p]
    advance = 0
    runaway = 0
    b = men
    while b:
        low = b & -b
        cell = low.bit_length() - 1
        rows = to_go[cell]
        advance += 7 - rows
        if not cone[cell] & enemy:
            runaway += W_RUNAWAY - 6 * rows
        b ^= low
    score += W_ADVANCE * advance + runaway
    if enemy & ~s.kings:
        score += W_BACK * (men & BACK_ROW[p]).bit_count()
    score += W_CENTRE * (own & CENTRE).bit_count() + W_KING_CENTRE * (kings & INNER).bit_count()
    return score


def _mobility(s: State, p: int) -> int:
    own = s.pieces[p]
    occupied = own | s.pieces[1 - p]
    n = 0
    forward = (0, 1) if p == 0 else (2, 3)
    b = own
    while b:
        low = b & -b
        cell = low.bit_length() - 1
        near = STEP[cell]
        for d in (0, 1, 2, 3) if (s.kings >> cell) & 1 else forward:
            t = near[d]
            if t >= 0 and not (occupied >> t) & 1:
                n += 1
        b ^= low
    return n


def evaluate(s: State) -> int:
    """Returns the score of ``s`` for the side to move (positive = better for it)."""
    p = s.to_move
    score = _side(s, p) - _side(s, 1 - p)
    score += W_MOBILITY * (_mobility(s, p) - _mobility(s, 1 - p))
    return score


def order_hint(s: State, m: Move) -> int:
    """Returns a move-ordering bonus: longer captures, crowning, then advancing men."""
    hint = 4 * len(m.captures)
    if not (s.kings >> m.origin) & 1 and ROWS_TO_GO[s.to_move][m.target] == 0:
        hint += 3
    return hint


def noisy_moves(s: State) -> list[Move]:
    """Returns the captures of the side to move, sorted (compulsory, so forced)."""
    moves = captures_of(s)
    moves.sort()
    return moves


def draw_value(s: State) -> int:
    """A draw is worth nothing to either side."""
    return 0


def moves_to_go(s: State) -> int:
    """Checkers games run 50-100 plies and king endings drag on: 30 moves at first,
    never below 15."""
    return max(15, 30 - s.ply // 4)
