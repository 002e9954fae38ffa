"""The Alquerque board in the browser: its geometry, pieces and how a move is clicked
(see :mod:`arbiter.contract.layout`)."""

from __future__ import annotations

from arbiter.contract.layout import (
    BoardView,
    Cell,
    Layout,
    WholePaths,
    compulsory_captures,
    two_sides,
)
from arbiter.games.alquerque import rules as alquerque


def _layout() -> Layout:
    """7x7 points, rank 1 at the bottom; orthogonal lines everywhere, diagonals only
    through the points whose file and rank indices add up to an even number."""
    cells = []
    lines = []
    for c in range(49):
        rank, file = divmod(c, 7)
        x, y = file + 0.5, 6 - rank + 0.5
        cells.append(Cell(c, x, y, f"{'abcdefg'[file]}{rank + 1}", "point"))
        for n in alquerque.STEPS[c]:
            if n > c:
                nr, nf = divmod(n, 7)
                lines.append((x, y, nf + 0.5, 6 - nr + 0.5))
    return Layout(
        "alquerque", 7, 7, "point", tuple(cells), tuple(lines), colours=("white", "black")
    )


VIEW: BoardView[alquerque.State] = BoardView(
    _layout(), two_sides, WholePaths(lambda m: tuple(m.path)), forced=compulsory_captures
)
"""The board, built once from the rules' tables."""
