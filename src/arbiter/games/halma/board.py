"""The Halma board in the browser: its geometry, pieces and how a move is clicked
(see :mod:`arbiter.contract.layout`)."""

from __future__ import annotations

from collections.abc import Sequence

from arbiter.contract.layout import BoardView, Cell, HopChains, Layout, two_sides
from arbiter.games.halma import rules as halma


def _layout() -> Layout:
    """16x16, square ``x,y`` with x across and y down from black's corner (top left)."""
    cells = []
    for c in range(halma.CELLS):
        x, y = halma.xy(c)
        shade = (
            "camp0"
            if (halma.CAMPS[0] >> c) & 1
            else "camp1"
            if (halma.CAMPS[1] >> c) & 1
            else ("dark" if (x + y) % 2 else "light")
        )
        cells.append(Cell(c, x + 0.5, y + 0.5, f"{x},{y}", shade))
    return Layout("halma", 16, 16, "square", tuple(cells), bottom=1)


def _halma_hops(s: halma.State, start: int, at: int) -> set[int]:
    occupied = (s.pieces[0] | s.pieces[1]) & ~(1 << start)
    return {
        land
        for over, land in halma.HOPS[at]
        if (occupied >> over) & 1 and not (occupied >> land) & 1
    }


def _halma_move(start: int, clicks: Sequence[int]) -> halma.Move:
    hops = () if clicks[-1] in halma.NEIGHBOURS[start] else tuple(clicks[1:])
    return halma.Move(start, clicks[-1], hops)


VIEW: BoardView[halma.State] = BoardView(
    _layout(), two_sides, HopChains(_halma_hops, _halma_move, halma.NEIGHBOURS)
)
"""The board, built once from the rules' tables."""
