"""Connect Four's notation: a move is its column, ``1`` to ``7`` from the left, the
same for both seats; a position is its six rows, top first, of ``x`` (the first
seat), ``o`` and ``.``, joined by ``/``, then the seat to move (``1`` or ``2``)."""

from __future__ import annotations

from arbiter.errors import IllegalMove, NotationError
from arbiter.game import Player
from tests.connect4.rules import COLUMNS, ROWS, State, height

MARKS = "xo"


def parse_move(text: str, *, seat: Player) -> int:
    """The column ``text`` names.

    :raises NotationError: unless it is a column from 1 to 7.
    """
    word = text.strip()
    if not (len(word) == 1 and "1" <= word <= str(COLUMNS)):
        raise NotationError(f"{word!r} is not a column from 1 to {COLUMNS}", text)
    return int(word) - 1


def resolve_move(text: str, s: State, *, seat: Player) -> int:
    """The legal move ``text`` names in ``s``.

    :raises NotationError: unless it is a column.
    :raises IllegalMove: if that column is full.
    """
    m = parse_move(text, seat=seat)
    if height(s, m) >= ROWS:
        raise IllegalMove(f"column {m + 1} is full")
    return m


def format_move(m: int, *, seat: Player) -> str:
    return str(m + 1)


def parse_position(text: str) -> State:
    """:raises NotationError: unless ``text`` is six rows and a seat, pieces resting
    on pieces, and the seat to move the one whose turn it is."""
    words = text.split()
    rows = words[0].split("/") if len(words) == 2 else []
    if (
        len(rows) != ROWS
        or any(len(r) != COLUMNS or set(r) - set("xo.") for r in rows)
        or words[1] not in ("1", "2")
    ):
        raise NotationError(f"{text.strip()!r} is not a Connect Four position", text)
    pieces = [0, 0]
    for top, row in enumerate(rows):
        for c, mark in enumerate(row):
            if mark != ".":
                pieces[MARKS.index(mark)] |= 1 << ((ROWS - 1 - top) * COLUMNS + c)
    s = State((pieces[0], pieces[1]), int(words[1]) - 1, bin(pieces[0] | pieces[1]).count("1"))
    taken = pieces[0] | pieces[1]
    if any(taken >> (cell + COLUMNS) & 1 and not taken >> cell & 1 for cell in range(35)):
        raise NotationError(f"{text.strip()!r}: a piece stands over an empty cell", text)
    if bin(pieces[0]).count("1") - bin(pieces[1]).count("1") != s.to_move:
        raise NotationError(f"{text.strip()!r}: it is the other seat's turn", text)
    return s


def format_position(s: State) -> str:
    rows = []
    for r in reversed(range(ROWS)):
        row = ""
        for c in range(COLUMNS):
            bit = 1 << (r * COLUMNS + c)
            row += "x" if s.pieces[0] & bit else "o" if s.pieces[1] & bit else "."
        rows.append(row)
    return f"{'/'.join(rows)} {s.to_move + 1}"


def draw_board(s: State, last: int | None = None) -> str:
    return "\n".join(format_position(s).split()[0].split("/")) + "\n1234567"


def draw_numbers(*, seat: Player) -> str:
    return "a move is its column: 1 to 7 from the left"
