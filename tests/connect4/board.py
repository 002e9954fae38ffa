"""Connect Four in the browser: the seven columns of six cells, the bottom row at the
bottom; a move is clicked as the cell it fills (a drop)."""

from __future__ import annotations

from arbiter.contract.layout import BoardView, Cell, Drops, Layout, two_sides
from tests.connect4.rules import COLUMNS, ROWS, State, landing

VIEW: BoardView[State] = BoardView(
    Layout(
        "connect4",
        COLUMNS,
        ROWS,
        "hole",
        tuple(
            Cell(r * COLUMNS + c, c + 0.5, ROWS - r - 0.5, f"{c + 1}{r + 1}", "light")
            for r in range(ROWS)
            for c in range(COLUMNS)
        ),
        colours=("red", "yellow"),
    ),
    two_sides,
    Drops(landing),
)
