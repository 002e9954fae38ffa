"""The Halma board in the browser: its geometry, pieces and how a move is clicked
(see :mod:`arbiter.contract.layout`)."""

from __future__ import annotations

from collections.abc import Sequence

from arbiter.bitboard import bits
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


def camp_rule(game: halma.Halma, s: halma.State) -> str | None:
    """What camp rule 1(b) asks of the side to move, where it rules moves out: a piece
    must leave the camp, or (none can) one must move further from its corner."""
    p = s.to_move
    camp = halma.CAMPS[p]
    if not s.pieces[p] & camp or game.outcome(s) is not None:
        return None
    occupied = s.pieces[0] | s.pieces[1]
    free = {a: halma.reach(p, a, occupied) for a in bits(s.pieces[p])}
    narrowed = halma.narrow(s, free)  # what destinations() gives, reach not found again
    if narrowed == {a: e for a, e in free.items() if e}:
        return None
    if any(e & ~camp for a, e in narrowed.items() if camp >> a & 1):
        return "rule 1(b): while pieces are in your camp, one must leave it"
    return "rule 1(b): no piece can leave your camp, so one must move further from your corner"


VIEW: BoardView[halma.State] = BoardView(
    _layout(), two_sides, HopChains(_halma_hops, _halma_move, halma.NEIGHBOURS), camp_rule
)
"""The board, built once from the rules' tables."""
