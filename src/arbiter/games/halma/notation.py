"""Halma notation: the contest's ``E``/``J`` move lines, a person's ``x,y x,y`` form, a
one-line position text and the board drawn in the terminal.

Squares are ``x,y``, zero-based, ``x`` the column, 0,0 top left, the same for both
players. A step is one line ``E x,y x,y``; a hop chain is one ``J x,y x,y`` line per
hop, each starting where the last one landed (the contest's ``output.txt``). A person
may also write the squares alone, ``x,y x,y [x,y ...]``: the start, then the end or
every landing. A position is the 16 rows, top first, of ``B``, ``W`` or ``.``, joined
by ``/``, then the side to move (``b`` or ``w``) and the plies played.

>>> format_move(parse_move("J 12,15 10,13", seat=0), seat=1)
'J 12,15 10,13'
>>> print(format_move(parse_move("9,9 11,9 11,11 13,13", seat=0), seat=0))
J 9,9 11,9
J 11,9 11,11
J 11,11 13,13
"""

from __future__ import annotations

import itertools
import re

from arbiter.bitboard import bits
from arbiter.errors import IllegalMove, NotationError
from arbiter.game import Player
from arbiter.games.halma.rules import (
    CAMPS,
    HOPS,
    NEIGHBOURS,
    SIZE,
    Halma,
    Move,
    State,
    cell,
    destinations,
    hops_from,
    steps_from,
    xy,
)

_RULES = Halma(max_plies=1 << 62)  # the referee asks only in a live position
_SQUARE = re.compile(r"([0-9]+)[ \t]*,[ \t]*([0-9]+)")
_LINE = re.compile(r"([EJ])[ \t]+([0-9]+[ \t]*,[ \t]*[0-9]+)[ \t]+([0-9]+[ \t]*,[ \t]*[0-9]+)")
EXPECTED_LINE = "'E x,y x,y' or 'J x,y x,y'"
SEAT_NAMES = ("black", "white")


def square(c: int) -> str:
    """The contest's name of cell ``c``.

    >>> square(cell(15, 0))
    '15,0'
    """
    x, y = xy(c)
    return f"{x},{y}"


def _invalid(text: str, why: str, number: int = 0) -> NotationError:
    """The error for move text ``text``; ``number`` names its line when it has several."""
    lines = _lines(text)
    where = f", line {number} {lines[number - 1]!r}" if number and len(lines) > 1 else ""
    return NotationError(f"invalid halma move {text!r}{where}: {why}", text)


def _square(part: str, text: str, number: int = 0) -> int:
    """The cell of ``x,y`` (``part`` of move text ``text``, on line ``number``).

    :raises NotationError: unless it is ``x,y`` with both in 0..15.
    """
    match = _SQUARE.fullmatch(part)
    if match is None:
        raise _invalid(text, f"{part!r} is not a square x,y", number)
    x, y = int(match[1]), int(match[2])
    if not (0 <= x < SIZE and 0 <= y < SIZE):
        raise _invalid(text, f"{part!r} is off the board (x and y run 0..{SIZE - 1})", number)
    return cell(x, y)


def _is_hop(a: int, b: int) -> bool:
    """True when ``b`` is two squares from ``a`` in a straight or diagonal line."""
    (xa, ya), (xb, yb) = xy(a), xy(b)
    dx, dy = xb - xa, yb - ya
    return (dx, dy) != (0, 0) and abs(dx) in (0, 2) and abs(dy) in (0, 2)


def _lines(text: str) -> list[str]:
    """The non-blank lines of ``text``, stripped."""
    return [line.strip() for line in text.splitlines() if line.strip()]


def parse_move(text: str, *, seat: Player) -> Move:
    """Parses a move: contest lines (``E x,y x,y``, or ``J x,y x,y`` lines chained), or
    squares alone (``x,y x,y [x,y ...]``: the start, then the end of a step or every
    landing of a chain). The seat does not matter: both players use the same
    coordinates.

    :raises NotationError: naming the text, its line and what was expected, if it is
        not a step to a neighbour or a chain of two-square hops each from where the
        last landed.
    """
    m = _parse(text)
    if not m.is_step and not m.hops:
        raise _invalid(
            text,
            f"{square(m.target)} is neither a neighbour of {square(m.origin)} nor a hop "
            "from it (write every landing of a chain)",
        )
    return m


def _parse(text: str) -> Move:
    """:func:`parse_move`, except that two squares alone may be a chain's start and
    end without its landings (the move's ``hops`` are then empty)."""
    lines = _lines(text)
    if not lines:
        raise _invalid(text, f"expected {EXPECTED_LINE}")
    if lines[0][0] in "0123456789":
        return _parse_squares(text)
    kinds: list[str] = []
    path: list[int] = []
    for number, line in enumerate(lines, 1):
        match = _LINE.fullmatch(line)
        if match is None:
            raise _invalid(text, f"expected {EXPECTED_LINE}", number)
        a, b = _square(match[2], text, number), _square(match[3], text, number)
        if path and a != path[-1]:
            raise _invalid(
                text, f"a hop must start where the last one landed, {square(path[-1])}", number
            )
        kinds.append(match[1])
        path.extend((a, b) if not path else (b,))
    if kinds[0] == "E":
        if len(lines) > 1:
            raise _invalid(text, "a step (E) is a move by itself, one line")
        if path[1] not in NEIGHBOURS[path[0]]:
            raise _invalid(text, "a step (E) goes to one of the 8 neighbouring squares")
        return Move(path[0], path[1])
    if "E" in kinds:
        raise _invalid(text, "a hop chain has only J lines", kinds.index("E") + 1)
    return _chain(path, text)


def _parse_squares(text: str) -> Move:
    parts = " ".join(_lines(text)).replace(", ", ",").split()
    squares = [_square(part, text) for part in parts]
    if len(squares) < 2:
        raise _invalid(
            text, "expected the start and end squares, 'x,y x,y' (or every landing of a chain)"
        )
    if len(squares) == 2 and (
        squares[1] in NEIGHBOURS[squares[0]] or not _is_hop(squares[0], squares[1])
    ):
        return Move(squares[0], squares[1])  # a step, or a chain by its two ends
    return _chain(squares, text)


def _chain(path: list[int], text: str) -> Move:
    for a, b in itertools.pairwise(path):
        if not _is_hop(a, b):
            raise _invalid(
                text,
                f"{square(a)} to {square(b)} is not a hop (two squares along a row, "
                "column or diagonal)",
            )
    return Move(path[0], path[-1], tuple(path[1:]))


def resolve_move(text: str, s: State, *, seat: Player) -> Move:
    """Parses ``text`` and checks it in ``s``: every hop of a chain as written (over an
    adjacent piece to an empty square; the moving piece's start counts as empty), then
    the move by its start and end against the camp rules.

    :raises NotationError: if the text is not a move.
    :raises IllegalMove: if it is not legal in ``s``; the message says why.
    """
    m = _parse(text)
    shown = " / ".join(_lines(text))
    p = s.to_move
    if not (s.pieces[p] >> m.origin) & 1:
        raise IllegalMove(f"illegal move {shown!r}: you have no piece on {square(m.origin)}")
    occupied = (s.pieces[0] | s.pieces[1]) & ~(1 << m.origin)
    if not m.is_step and not m.hops:  # a chain by its two ends: the rules find the way
        for legal in _RULES.legal_moves(s):
            if legal == m:
                return legal
        if not ((steps_from(m.origin, occupied) | hops_from(m.origin, occupied)) >> m.target) & 1:
            raise IllegalMove(
                f"illegal move {shown!r}: no step or chain of hops takes the piece on "
                f"{square(m.origin)} to {square(m.target)}"
            )
    elif m.is_step:
        if (occupied >> m.target) & 1:
            raise IllegalMove(f"illegal move {shown!r}: {square(m.target)} is occupied")
    else:
        at = m.origin
        for land in m.hops:
            over = next(o for o, to in HOPS[at] if to == land)
            if not (occupied >> over) & 1:
                raise IllegalMove(
                    f"illegal move {shown!r}: no piece on {square(over)} to hop over "
                    f"from {square(at)} to {square(land)}"
                )
            if (occupied >> land) & 1:
                raise IllegalMove(
                    f"illegal move {shown!r}: {square(land)} is occupied, no hop lands there"
                )
            at = land
    if m.origin == m.target:
        raise IllegalMove(f"illegal move {shown!r}: a move may not end where it started")
    if _RULES.is_legal(s, m):
        return m
    raise IllegalMove(f"illegal move {shown!r}: {_why(m, s)}")


def _why(m: Move, s: State) -> str:
    """Which camp rule ``m`` breaks (it is a step or hop chain the board allows)."""
    p = s.to_move
    own, other = CAMPS[p], CAMPS[1 - p]
    there = square(m.target)
    if outcome := _RULES.outcome(s):
        return f"the game is over ({outcome.result()})"
    if (other >> m.origin) & 1 and not (other >> m.target) & 1:
        return "a piece in the opposing camp may not leave it"
    if not (own >> m.origin) & 1 and (own >> m.target) & 1:
        return f"a piece outside its own camp may not come back into it ({there})"
    ends = destinations(s)
    if any((own >> a) & 1 and e & ~own for a, e in ends.items()):
        why = "while you have pieces in your camp, you must move one out of it if you can"
    else:
        why = (
            "while you have pieces in your camp and none can leave it, you must move one "
            "further from your corner"
        )
    return f"{why} ({_alternatives(ends)})"


def _alternatives(ends: dict[int, int]) -> str:
    """The legal moves in words where they are few (start and ends), else the pieces
    that may move."""
    moves = [(a, b) for a, e in sorted(ends.items()) for b in bits(e)]
    if len(moves) <= 6:
        listed = ", ".join(f"{square(a)} to {square(b)}" for a, b in moves)
        return f"your legal moves: {listed}"
    return "the pieces that may move: " + ", ".join(square(a) for a in sorted(ends))


def format_move(m: Move, *, seat: Player) -> str:
    """Returns the contest's lines for ``m``: one ``E`` line, or one ``J`` line per hop
    (joined by newlines)."""
    if m.is_step:
        return f"E {square(m.origin)} {square(m.target)}"
    path = (m.origin, *m.hops)
    return "\n".join(f"J {square(a)} {square(b)}" for a, b in itertools.pairwise(path))


def board_rows(s: State) -> list[str]:
    """The 16 rows, top first, of ``B`` (black, seat 0), ``W`` (white) or ``.``."""
    rows = []
    for y in range(SIZE):
        row = ""
        for x in range(SIZE):
            c = cell(x, y)
            row += "B" if (s.pieces[0] >> c) & 1 else "W" if (s.pieces[1] >> c) & 1 else "."
        rows.append(row)
    return rows


class BadRow(ValueError):
    """A board row that is not 16 symbols ``B``, ``W`` or ``.``; ``row`` is its number."""

    def __init__(self, row: int, text: str) -> None:
        super().__init__(f"board row {row} {text!r}: expected {SIZE} symbols, each B, W or .")
        self.row = row


def pieces_of(rows: list[str]) -> tuple[int, int]:
    """Black's and white's pieces in 16 rows of ``B``, ``W`` or ``.``.

    :raises BadRow: naming the row, for a row that is not 16 such symbols.
    :raises ValueError: unless there are 16 rows.
    """
    if len(rows) != SIZE:
        raise ValueError(f"expected {SIZE} board rows, found {len(rows)}")
    pieces = [0, 0]
    for y, row in enumerate(rows):
        if len(row) != SIZE or set(row) - set("BW."):
            raise BadRow(y, row)
        for x, mark in enumerate(row):
            if mark != ".":
                pieces["BW".index(mark)] |= 1 << cell(x, y)
    return pieces[0], pieces[1]


def format_position(s: State) -> str:
    """Returns the one-line position text."""
    return f"{'/'.join(board_rows(s))} {'bw'[s.to_move]} {s.ply}"


def parse_position(text: str) -> State:
    """Parses a position text (the ply count may be left out: 0).

    :raises NotationError: unless it is 16 rows of 16 ``B``, ``W`` or ``.`` joined by
        ``/``, then ``b`` or ``w`` to move, then the plies played.
    """
    parts = text.split()
    if (
        len(parts) not in (2, 3)
        or parts[1] not in ("b", "w")
        or (len(parts) == 3 and not (parts[2].isascii() and parts[2].isdigit()))
    ):
        raise NotationError(
            f"invalid halma position {text!r}: expected 16 rows of B, W or . joined by "
            "'/', then b or w to move, then the plies played",
            text,
        )
    try:
        pieces = pieces_of(parts[0].split("/"))
    except ValueError as e:
        raise NotationError(f"invalid halma position {text!r}: {e}", text) from None
    ply = int(parts[2]) if len(parts) == 3 else 0
    return State(pieces, "bw".index(parts[1]), ply)


def _grid(label: dict[int, str], width: int) -> list[str]:
    """The board as text rows, with the columns' and rows' numbers."""
    head = " " * 3 + "".join(f"{x:>{width}}" for x in range(SIZE))
    lines = [head]
    for y in range(SIZE):
        lines.append(f"{y:>2} " + "".join(f"{label[cell(x, y)]:>{width}}" for x in range(SIZE)))
    return lines


def draw_board(s: State, last: Move | None = None) -> str:
    """Returns the board with x across the top and y down the side: ``B`` black's
    pieces, ``W`` white's, ``.`` an empty square, ``:`` an empty camp square; the piece
    that moved last in lower case, ``*`` where it came from.

    >>> from arbiter.games.halma.rules import Halma
    >>> draw_board(Halma().initial()).splitlines()[1]
    ' 0   B  B  B  B  B  .  .  .  .  .  .  .  .  .  .  .'
    """
    label = {}
    camps = CAMPS[0] | CAMPS[1]
    for c in range(SIZE * SIZE):
        mark = (
            "B"
            if (s.pieces[0] >> c) & 1
            else "W"
            if (s.pieces[1] >> c) & 1
            else ":"
            if (camps >> c) & 1
            else "."
        )
        if last is not None and c == last.target:
            mark = mark.lower()
        elif last is not None and c == last.origin:
            mark = "*"
        label[c] = mark
    side = SEAT_NAMES[s.to_move]
    return "\n".join([*_grid(label, 3), f"{side} ({'BW'[s.to_move]}) to move, ply {s.ply}"])


def draw_numbers(*, seat: Player) -> str:
    """Returns the board as :func:`draw_board` draws it, every square labelled ``x,y``."""
    return "\n".join(_grid({c: square(c) for c in range(SIZE * SIZE)}, 6))
