"""The five boards as geometry the browser draws: where each cell is, what it is called
in the contest, how it is shaded, and which lines join the points.

One SVG renderer (``static/board.js``) draws every game from a :class:`Layout`; it
knows nothing of any game. Coordinates are in cell units, the board as the contest's
diagrams and the terminal show it; ``bottom`` is the seat whose side is at the bottom
there, so the page can turn the board to put the person's side nearest them. Pieces
are given per cell as ``"0"`` or ``"1"`` (the seat that owns it), with ``"K"`` added
for a checkers king.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from arbiter.bitboard import bits
from arbiter.games.alquerque import rules as alquerque
from arbiter.games.checkers import rules as checkers
from arbiter.games.chinese_checkers import rules as cc
from arbiter.games.halma import rules as halma


@dataclass(frozen=True, slots=True)
class Cell:
    """A place a piece can stand: its id (the rules' cell number), its centre, the
    contest's name for it, and its shading (``light``, ``dark``, ``camp0``, ``home1``,
    ``neutral``, ``point``)."""

    id: int
    x: float
    y: float
    label: str
    shade: str


@dataclass(frozen=True, slots=True)
class Layout:
    """A board: its cells, the lines drawn between points, its size in cell units, how
    cells are drawn (``square`` tiles, or ``point`` and ``hole`` circles), and the seat
    whose side is at the bottom, and each seat's piece colour (as its contest names
    the sides)."""

    game: str
    width: float
    height: float
    shape: str
    cells: tuple[Cell, ...]
    lines: tuple[tuple[float, float, float, float], ...] = ()
    bottom: int = 0
    colours: tuple[str, str] = ("black", "white")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _votey() -> Layout:
    """8x8, square ``RC`` at row R (1 at the top) and column C (1 at the left); black
    holds rows 1 and 8, white columns 1 and 8."""
    cells = [
        Cell(8 * r + c, c + 0.5, r + 0.5, f"{r + 1}{c + 1}", "dark" if (r + c) % 2 else "light")
        for r in range(8)
        for c in range(8)
    ]
    return Layout("votey", 8, 8, "square", tuple(cells))


def _checkers() -> Layout:
    """8x8; the 32 dark squares numbered 1..32 from the top left, red's side at the
    top."""
    cells = []
    for cell in range(32):
        row, col = checkers.cell_row_col(cell)
        cells.append(Cell(cell, col + 0.5, row + 0.5, str(cell + 1), "dark"))
    return Layout("checkers", 8, 8, "square", tuple(cells), bottom=1, colours=("red", "white"))


def _alquerque() -> Layout:
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


def _halma() -> Layout:
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


def _chinese_checkers() -> Layout:
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


LAYOUTS: dict[str, Layout] = {
    layout.game: layout
    for layout in (_votey(), _checkers(), _alquerque(), _halma(), _chinese_checkers())
}
"""Each game's board, built once from its rules' tables."""


def _two_sides(s: Any) -> dict[str, str]:
    return {str(c): str(p) for p in (0, 1) for c in bits(s.pieces[p])}


def _checkers_pieces(s: checkers.State) -> dict[str, str]:
    out = _two_sides(s)
    for c in bits(s.kings):
        out[str(c)] += "K"
    return out


PIECES: dict[str, Callable[[Any], dict[str, str]]] = {
    "votey": _two_sides,
    "checkers": _checkers_pieces,
    "alquerque": _two_sides,
    "halma": _two_sides,
    "chinese-checkers": _two_sides,
}
"""Each game's pieces in a position, by cell id: the owning seat, ``K`` for a king."""


def pieces(game: str, s: Any) -> dict[str, str]:
    """The pieces of position ``s`` of ``game``, by cell id (as text, for JSON)."""
    return PIECES[game](s)
