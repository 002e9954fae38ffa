"""The checkers board in the browser: its geometry, pieces and how a move is clicked
(see :mod:`arbiter.contract.layout`)."""

from __future__ import annotations

from arbiter.bitboard import bits
from arbiter.contract.layout import (
    BoardView,
    Cell,
    Layout,
    WholePaths,
    compulsory_captures,
    two_sides,
)
from arbiter.games.checkers import rules as checkers


def _layout() -> Layout:
    """8x8; the 32 dark squares numbered 1..32 from the top left, red's side at the
    top."""
    cells = []
    for cell in range(32):
        row, col = checkers.cell_row_col(cell)
        cells.append(Cell(cell, col + 0.5, row + 0.5, str(cell + 1), "dark"))
    return Layout("checkers", 8, 8, "square", tuple(cells), bottom=1, colours=("red", "white"))


def _checkers_pieces(s: checkers.State) -> dict[str, str]:
    out = two_sides(s)
    for c in bits(s.kings):
        out[str(c)] += "K"
    return out


VIEW: BoardView[checkers.State] = BoardView(
    _layout(), _checkers_pieces, WholePaths(lambda m: tuple(m.path)), forced=compulsory_captures
)
"""The board, built once from the rules' tables."""
