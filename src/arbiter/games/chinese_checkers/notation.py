"""Chinese checkers notation: the mediator's ``FROM TO`` lines in each player's own
numbering, a one-line position text and the star drawn in the terminal.

Holes are numbered 1..121 from the bottom tip, bottom to top, left to right, and
every player sees its own home as 1-10: the first player (seat 0) numbers holes as
the rules do, the second sees hole ``p`` as ``122 - p`` (the board turned round).
A move is one line of two integers in 1..127 separated by white space, the start
hole and the end hole. A position is the 17 rows, bottom first, of ``1`` (seat 0's
marble), ``2`` (seat 1's) or ``.``, joined by ``/``, then the side to move (``1`` or
``2``) and the plies played:

>>> from arbiter.games.chinese_checkers.rules import ChineseCheckers
>>> format_position(ChineseCheckers().initial()).split("/")[:5]
['1', '11', '111', '1111', '.............']
>>> format_move(parse_move("4 15", seat=1), seat=0)
'118 107'
"""

from __future__ import annotations

from arbiter.errors import IllegalMove, NotationError
from arbiter.game import Player
from arbiter.games.chinese_checkers.rules import (
    CELLS,
    COORDS,
    NEUTRAL,
    ROW_LENGTHS,
    ChineseCheckers,
    Move,
    State,
    targets_from,
)

MAX_NUMBER = 127
"""The sheet's range for the numbers of a move line (holes are 1..121)."""
_RULES = ChineseCheckers(max_plies=1 << 62)  # the referee asks only in a live position


def hole(c: int, *, seat: Player) -> int:
    """The number ``seat`` gives cell ``c``.

    >>> hole(0, seat=0), hole(0, seat=1)
    (1, 121)
    """
    return c + 1 if seat == 0 else CELLS - c


def cell_of(number: int, *, seat: Player) -> int:
    """The cell ``seat`` calls ``number`` (which must be 1..121)."""
    return number - 1 if seat == 0 else CELLS - number


def _numbers(text: str) -> tuple[int, int]:
    """The two numbers of a move line.

    :raises NotationError: unless the line is two integers in 1..127.
    """
    parts = text.split()
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() for p in parts):
        raise NotationError(
            f"invalid chinese-checkers move {text!r}: expected two hole numbers "
            "'FROM TO' separated by a space",
            text,
        )
    a, b = int(parts[0]), int(parts[1])
    for n in (a, b):
        if not 1 <= n <= MAX_NUMBER:
            raise NotationError(
                f"invalid chinese-checkers move {text!r}: {n} is outside 1..{MAX_NUMBER}",
                text,
            )
    return a, b


def parse_move(text: str, *, seat: Player) -> Move:
    """Parses ``FROM TO`` written in ``seat``'s own numbering.

    :raises NotationError: unless the line is two hole numbers (1..121).
    """
    a, b = _numbers(text)
    for n in (a, b):
        if n > CELLS:
            raise NotationError(
                f"invalid chinese-checkers move {text!r}: there is no hole {n} "
                f"(holes are 1..{CELLS})",
                text,
            )
    return Move(cell_of(a, seat=seat), cell_of(b, seat=seat))


def resolve_move(text: str, s: State, *, seat: Player) -> Move:
    """Parses ``text`` in ``seat``'s numbering and finds that legal move of ``s``.

    :raises NotationError: unless the line is two integers in 1..127.
    :raises IllegalMove: for a number that is no hole, or a move that is not legal in
        ``s``; the message says why.
    """
    a, b = _numbers(text)
    shown = f"{a} {b}"
    for n in (a, b):
        if n > CELLS:
            raise IllegalMove(f"illegal move {shown!r}: there is no hole {n} (holes are 1..121)")
    m = Move(cell_of(a, seat=seat), cell_of(b, seat=seat))
    if _RULES.is_legal(s, m):
        return m
    raise IllegalMove(f"illegal move {shown!r}: {_why(m, s, seat)}")


def _why(m: Move, s: State, seat: Player) -> str:
    p = s.to_move
    here = hole(m.origin, seat=seat)
    there = hole(m.target, seat=seat)
    if not (s.pieces[p] >> m.origin) & 1:
        return f"you have no marble on {here}"
    if m.origin == m.target:
        return "a move may not end where it started"
    if (NEUTRAL >> m.target) & 1:
        return f"{there} is in a neutral triangle, where no move may end"
    if ((s.pieces[0] | s.pieces[1]) >> m.target) & 1:
        return f"{there} is occupied"
    reach = [
        hole(c, seat=seat)
        for c in range(CELLS)
        if (targets_from(m.origin, s.pieces[0] | s.pieces[1]) >> c) & 1 and not (NEUTRAL >> c) & 1
    ]
    if not reach:
        return f"the marble on {here} cannot move at all"
    shown = ", ".join(map(str, sorted(reach)[:10])) + (", ..." if len(reach) > 10 else "")
    return f"the marble on {here} cannot reach {there} by a step or hops (it can reach {shown})"


def format_move(m: Move, *, seat: Player) -> str:
    """Returns ``FROM TO`` in ``seat``'s numbering."""
    return f"{hole(m.origin, seat=seat)} {hole(m.target, seat=seat)}"


def _rows() -> list[list[int]]:
    """The cells of each row, bottom row first, left to right."""
    rows, c = [], 0
    for length in ROW_LENGTHS:
        rows.append(list(range(c, c + length)))
        c += length
    return rows


ROWS = _rows()


def format_position(s: State) -> str:
    """Returns the one-line position text."""
    marks = []
    for row in ROWS:
        marks.append(
            "".join(
                "1" if (s.pieces[0] >> c) & 1 else "2" if (s.pieces[1] >> c) & 1 else "."
                for c in row
            )
        )
    return f"{'/'.join(marks)} {s.to_move + 1} {s.ply}"


def parse_position(text: str) -> State:
    """Parses a position text (the ply count may be left out: 0).

    :raises NotationError: unless it is 17 rows of ``1``, ``2`` or ``.`` of the star's
        lengths joined by ``/``, then ``1`` or ``2`` to move, then the plies played.
    """
    parts = text.split()
    bad = NotationError(
        f"invalid chinese-checkers position {text!r}: expected 17 rows (bottom first, "
        f"{'/'.join(str(n) for n in ROW_LENGTHS)} holes) of 1, 2 or . joined by '/', "
        "then 1 or 2 to move, then the plies played",
        text,
    )
    if len(parts) not in (2, 3) or parts[1] not in ("1", "2"):
        raise bad
    if len(parts) == 3 and not (parts[2].isascii() and parts[2].isdigit()):
        raise bad
    rows = parts[0].split("/")
    if [len(r) for r in rows] != list(ROW_LENGTHS) or set("".join(rows)) - set("12."):
        raise bad
    pieces = [0, 0]
    for cells, marks in zip(ROWS, rows, strict=True):
        for c, mark in zip(cells, marks, strict=True):
            if mark != ".":
                pieces[int(mark) - 1] |= 1 << c
    if any(p.bit_count() != 10 for p in pieces):
        raise NotationError(f"invalid chinese-checkers position {text!r}: each side has 10 marbles")
    ply = int(parts[2]) if len(parts) == 3 else 0
    return State((pieces[0], pieces[1]), int(parts[1]) - 1, ply)


def _star(label: dict[int, str], width: int) -> list[str]:
    """The star as text rows, top row first: each cell's label centred on its column,
    ``width`` characters per half-step."""
    lines = []
    for row in reversed(ROWS):
        chars = [" "] * (width * 26)
        for c in row:
            x = (COORDS[c][0] + 12) * width
            text = label[c]
            start = x + width // 2 - len(text) // 2
            chars[start : start + len(text)] = text
        lines.append("".join(chars).rstrip())
    return lines


def draw_board(s: State, last: Move | None = None) -> str:
    """Returns the star as the first player sees it (its home at the bottom): ``x``
    the first player's marbles, ``o`` the second's, ``.`` an empty hole and ``,`` an
    empty neutral one; the marble that moved last in capitals, ``*`` where it came
    from.

    >>> from arbiter.games.chinese_checkers.rules import ChineseCheckers
    >>> [line.strip() for line in draw_board(ChineseCheckers().initial()).splitlines()[-3:]]
    ['x x', 'x', 'first (x) to move, ply 0']
    """
    label = {}
    for c in range(CELLS):
        mark = (
            "x"
            if (s.pieces[0] >> c) & 1
            else "o"
            if (s.pieces[1] >> c) & 1
            else ","
            if (NEUTRAL >> c) & 1
            else "."
        )
        if last is not None and c == last.target:
            mark = mark.upper()
        elif last is not None and c == last.origin:
            mark = "*"
        label[c] = mark
    side = "first (x)" if s.to_move == 0 else "second (o)"
    return "\n".join([*_star(label, 1), f"{side} to move, ply {s.ply}"])


def draw_numbers(*, seat: Player) -> str:
    """Returns the star as :func:`draw_board` draws it, every hole labelled with its
    number as ``seat`` numbers it (the second player's 1-10 are at the top)."""
    return "\n".join(_star({c: str(hole(c, seat=seat)) for c in range(CELLS)}, 2))
