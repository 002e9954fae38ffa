"""Connect Four's evaluation: the lines of four still open to each side, weighed by
how many of their cells it holds."""

from __future__ import annotations

from collections.abc import Sequence

from tests.connect4.rules import COLUMNS, LINES, State

WEIGHTS = (0, 1, 4, 16, 1000)


def evaluate(s: State) -> int:
    """The position's worth to the side to move."""
    mine, theirs = s.pieces[s.to_move], s.pieces[1 - s.to_move]
    score = 0
    for line in LINES:
        if not line & theirs:
            score += WEIGHTS[bin(line & mine).count("1")]
        if not line & mine:
            score -= WEIGHTS[bin(line & theirs).count("1")]
    return score


def order_hint(s: State, m: int) -> int:
    return COLUMNS // 2 - abs(m - COLUMNS // 2)  # the middle first


def noisy_moves(s: State) -> Sequence[int]:
    return ()


def draw_value(s: State) -> int:
    return 0


def moves_to_go(s: State) -> int:
    return max(1, (42 - s.ply) // 2)
