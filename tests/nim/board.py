"""Nim in the browser: the stones in a row; a move is clicked as the first stone it
takes (taking it and every stone after it)."""

from __future__ import annotations

from arbiter.contract.layout import BoardView, Cell, Layout, WholePaths
from tests.nim.rules import MOST_STONES, State

VIEW: BoardView[State] = BoardView(
    Layout(
        "nim",
        MOST_STONES / 4,
        4,
        "square",
        tuple(
            Cell(i, i % 15 + 0.5, i // 15 + 0.5, str(i + 1), "light") for i in range(MOST_STONES)
        ),
    ),
    lambda s: {str(i): "0" for i in range(s.pile)},
    WholePaths(lambda m: (m,)),
)
