"""The Chinese checkers board in the browser: its geometry, pieces and how a move is clicked
(see :mod:`arbiter.contract.layout`)."""

from __future__ import annotations

from arbiter.contract.layout import BoardView, Cell, HopChains, Layout, two_sides
from arbiter.games.chinese_checkers import rules as cc


def _layout() -> Layout:
    """The 121-hole star: holes numbered bottom to top in the first player's numbering,
    its home triangle at the bottom; rows are sqrt(3)/2 apart, holes one apart."""
    xs = [x for x, _ in cc.COORDS]
    left, right = min(xs), max(xs)
    rows = max(y for _, y in cc.COORDS)
    step = 3**0.5 / 2
    cells = []
    for c, (x, row) in enumerate(cc.COORDS):
        shade = (
            "home0"
            if (cc.HOMES[0] >> c) & 1
            else "home1"
            if (cc.HOMES[1] >> c) & 1
            else "neutral"
            if (cc.NEUTRAL >> c) & 1
            else "hole"
        )
        cells.append(Cell(c, (x - left) / 2 + 0.5, (rows - row) * step + 0.5, str(c + 1), shade))
    return Layout(
        "chinese-checkers",
        (right - left) / 2 + 1,
        rows * step + 1,
        "hole",
        tuple(cells),
        colours=("blue", "red"),  # as the homes are shaded
    )


def _cc_hops(s: cc.State, start: int, at: int) -> set[int]:
    occupied = (s.pieces[0] | s.pieces[1]) & ~(1 << start)
    out = set()
    for line in cc.HOPS[at]:
        for over, clear, land in line:
            if occupied & over:
                if not occupied & clear:
                    out.add(land)
                break
    return out


VIEW: BoardView[cc.State] = BoardView(
    _layout(),
    two_sides,
    HopChains(_cc_hops, lambda start, clicks: cc.Move(start, clicks[-1]), cc.NEIGHBOURS),
)
"""The board, built once from the rules' tables."""
