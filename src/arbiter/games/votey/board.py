"""The Votey board in the browser: its geometry, pieces and how a move is clicked
(see :mod:`arbiter.contract.layout`)."""

from __future__ import annotations

from arbiter.contract.layout import BoardView, Cell, Layout, WholePaths, two_sides
from arbiter.games.votey.rules import State


def _layout() -> Layout:
    """8x8, square ``RC`` at row R (1 at the top) and column C (1 at the left); black
    holds rows 1 and 8, white columns 1 and 8."""
    cells = [
        Cell(8 * r + c, c + 0.5, r + 0.5, f"{r + 1}{c + 1}", "dark" if (r + c) % 2 else "light")
        for r in range(8)
        for c in range(8)
    ]
    return Layout("votey", 8, 8, "square", tuple(cells))


VIEW: BoardView[State] = BoardView(_layout(), two_sides, WholePaths(lambda m: (m.origin, m.target)))
"""The board, built once from the rules' tables."""
