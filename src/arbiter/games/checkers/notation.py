"""Checkers notation: standard move text over squares 1..32, and the contest's board text.

Moves: ``9-13`` for a step, ``22x15`` or ``22x15x6`` for captures, every landing
square listed. A board is the contest's 8 rows of 8 digits (row 1 first): ``0`` empty
(and every light square), ``1`` red man, ``2`` white man, ``3`` red king, ``4`` white
king. A position text is the 8 rows joined by ``/``, a space and the side to move
(``1`` or ``2``):

>>> from arbiter.games.checkers.rules import Checkers
>>> format_position(Checkers().initial()).split("/")[0]
'01010101'
>>> str(parse_move("22x15x6", seat=0))
'22x15x6'
"""

from __future__ import annotations

import re

from arbiter.errors import IllegalMove, NotationError
from arbiter.game import Player
from arbiter.games.checkers.rules import Checkers, Move, State, cell_row_col

_STEP = re.compile(r"([1-9]|[12][0-9]|3[0-2])-([1-9]|[12][0-9]|3[0-2])")
_JUMP = re.compile(r"([1-9]|[12][0-9]|3[0-2])(?:x([1-9]|[12][0-9]|3[0-2]))+")
_SQUARE_OF = {cell_row_col(c): c for c in range(32)}
# no ply cap: the referee asks only in a live position, whatever cap the game has
_RULES = Checkers(max_plies=1 << 62)


def parse_move(text: str, *, seat: Player) -> Move:
    """Parses ``9-13`` or ``22x15x6``; needs no position, so captures are not filled in.
    Both seats number the squares alike.

    :raises NotationError: if the text is not a move over squares 1..32.
    """
    t = text.strip()
    if _STEP.fullmatch(t):
        a, b = (int(x) - 1 for x in t.split("-"))
        return Move((a, b))
    if _JUMP.fullmatch(t):
        return Move(tuple(int(x) - 1 for x in t.split("x")), captures=(-1,))
    raise NotationError(
        f"invalid checkers move {text!r}: expected 'FROM-TO' or 'FROM' then 'xTO' for "
        "each jump, over squares 1..32",
        text,
    )


def resolve_move(text: str, s: State, *, seat: Player) -> Move:
    """Parses ``text`` and finds the legal move of ``s`` with that path.

    :raises NotationError: if the text does not parse.
    :raises IllegalMove: if no legal move has that path (the message says why when
        a capture was due, or when a capture was written with too few squares).
    """
    wanted = parse_move(text, seat=seat)
    legal = _RULES.legal_moves(s)
    for m in legal:
        if m.path == wanted.path and bool(m.captures) == bool(wanted.captures):
            return m
    side = "red (1)" if s.to_move == 0 else "white (2)"
    why = ""
    if any(m.path == wanted.path for m in legal):
        why = ": write captures with 'x' and steps with '-'"
    elif legal and legal[0].captures and not wanted.captures:
        shown = ", ".join(format_move(m, seat=seat) for m in legal[:4])
        why = f": a capture is compulsory ({shown})"
    elif wanted.captures and (
        longer := sorted(
            {m.path[len(wanted.path)] for m in legal if m.path[: len(wanted.path)] == wanted.path}
        )
    ):
        to = " or ".join(str(c + 1) for c in longer)
        why = f": incomplete jump: must continue to {to}"
    elif wanted.captures and any(
        m.origin == wanted.path[0] and m.target == wanted.path[-1] for m in legal
    ):
        why = ": list every landing square of the jump"
    else:
        why = ": " + _no_such_move(s, wanted.path[0], legal, seat)
    raise IllegalMove(f"illegal checkers move {text.strip()!r} for {side}{why}")


def _no_such_move(s: State, origin: int, legal: list[Move], seat: Player) -> str:
    """Why a move from ``origin`` is none of ``legal``: no piece of the mover's there,
    or that piece's own moves (or that it has none, and which pieces can move)."""
    own, other = s.pieces[s.to_move], s.pieces[1 - s.to_move]
    square = origin + 1
    if not (own >> origin) & 1:
        there = " (the opponent has one there)" if (other >> origin) & 1 else ""
        return f"no piece of yours on {square}{there}"
    mine = [format_move(m, seat=seat) for m in legal if m.origin == origin]
    if mine:
        shown = ", ".join(mine[:6]) + (", ..." if len(mine) > 6 else "")
        return f"the piece on {square} has no such move (its moves: {shown})"
    movable = sorted({m.origin + 1 for m in legal})
    return f"the piece on {square} cannot move (pieces that can: {', '.join(map(str, movable))})"


def format_move(m: Move, *, seat: Player) -> str:
    """Returns the standard text of ``m``."""
    return str(m)


def board_rows(s: State) -> list[str]:
    """Returns the contest's 8 board rows of digits 0-4, row 1 first."""
    red, white = s.pieces
    rows = []
    for r in range(8):
        row = ""
        for c in range(8):
            cell = _SQUARE_OF.get((r, c))
            if cell is None:
                row += "0"
                continue
            bit = 1 << cell
            king = 2 if s.kings & bit else 0
            row += str(1 + king) if red & bit else str(2 + king) if white & bit else "0"
        rows.append(row)
    return rows


def parse_board(rows: list[str], to_move: Player) -> State:
    """Builds the position of the contest's 8 rows of digits with ``to_move`` to play.

    :raises NotationError: for a wrong row count or length, a digit other than 0-4,
        a piece on a light square, or a man standing on its own crowning row.
    """
    text = "/".join(rows)
    if len(rows) != 8:
        raise NotationError(f"invalid checkers board {text!r}: expected 8 rows", text)
    red = white = kings = 0
    for r, row in enumerate(rows):
        if len(row) != 8 or set(row) - set("01234"):
            raise NotationError(
                f"invalid checkers board row {r + 1} {row!r}: expected 8 digits 0-4", text
            )
        for c, ch in enumerate(row):
            if ch == "0":
                continue
            cell = _SQUARE_OF.get((r, c))
            if cell is None:
                raise NotationError(
                    f"invalid checkers board row {r + 1} {row!r}: a piece on a light square",
                    text,
                )
            piece = int(ch)
            if piece in (1, 3):
                red |= 1 << cell
            else:
                white |= 1 << cell
            if piece >= 3:
                kings |= 1 << cell
            elif (piece == 1 and r == 7) or (piece == 2 and r == 0):
                raise NotationError(
                    f"invalid checkers board row {r + 1} {row!r}: an uncrowned man on its "
                    "crowning row",
                    text,
                )
    return State((red, white), kings, to_move)


def format_position(s: State) -> str:
    """Returns the position text: the 8 board rows joined by '/', then '1' or '2'."""
    return "/".join(board_rows(s)) + f" {s.to_move + 1}"


def parse_position(text: str) -> State:
    """Parses a position text.

    :raises NotationError: if it is not 8 rows joined by '/' and then '1' or '2'.
    """
    parts = text.split()
    if len(parts) != 2 or parts[1] not in ("1", "2"):
        raise NotationError(
            f"invalid checkers position {text!r}: expected 8 rows joined by '/' and '1' or '2'",
            text,
        )
    return parse_board(parts[0].split("/"), int(parts[1]) - 1)


def draw_numbers(*, seat: Player) -> str:
    """Returns the board with its dark squares numbered 1..32 (the same for both)."""
    lines = []
    for r in range(8):
        row = "  "
        for c in range(8):
            cell = _SQUARE_OF.get((r, c))
            row += "    " if cell is None else f"{cell + 1:>3d} "
        lines.append(row.rstrip())
    return "\n".join(lines)


def draw_board(s: State, last: Move | None = None) -> str:
    """Returns the board with squares numbered 1..32: ``r``/``w`` men, ``R``/``W`` kings.

    Each dark square shows its number and piece; the last move's landing square is
    bracketed and its start square marked ``*``.
    """
    lines = []
    for r, digits in enumerate(board_rows(s)):
        row = "  "
        for c, digit in enumerate(digits):
            cell = _SQUARE_OF.get((r, c))
            if cell is None:
                row += "      "
                continue
            piece = ".rwRW"[int(digit)]
            if last is not None and cell == last.target:
                shown = f"[{piece}]"
            elif last is not None and cell == last.origin:
                shown = " * "
            else:
                shown = f" {piece} "
            row += f"{cell + 1:>2d}{shown} "
        lines.append(row.rstrip())
    side = "red (1)" if s.to_move == 0 else "white (2)"
    lines.append(f"  {side} to move, ply {s.ply}")
    return "\n".join(lines)


_FEN_SQUARES = re.compile(r"K?([1-9]|[12][0-9]|3[0-2])(?:-K?([1-9]|[12][0-9]|3[0-2]))?")


def format_fen(s: State) -> str:
    """The position as PDN's FEN tag writes it: ``B:W21,22,K5:B1,2``, B (the first mover,
    red here) or W to move, then each side's squares, kings marked ``K``.

    >>> format_fen(Checkers().initial())[:14]
    'B:W21,22,23,24'
    """

    def side(bb: int) -> str:
        return ",".join(
            ("K" if s.kings >> c & 1 else "") + str(c + 1) for c in range(32) if bb >> c & 1
        )

    return f"{'BW'[s.to_move]}:W{side(s.pieces[1])}:B{side(s.pieces[0])}"


def parse_fen(text: str) -> State:
    """Parses a PDN FEN (``B:W18,24,K10:B12,16``; squares may be ranges ``1-12``).

    :raises NotationError: if it is not a side to move and two lists of squares, or
        places a piece where the board cannot have one.
    """
    fields = text.strip().rstrip(".").split(":")
    if len(fields) != 3 or fields[0] not in ("B", "W"):
        raise NotationError(
            f"invalid PDN FEN {text!r}: expected 'B' or 'W', then ':W' and ':B' square lists",
            text,
        )
    rows = [["0"] * 8 for _ in range(8)]
    for field_ in fields[1:]:
        colour, squares = field_[:1], field_[1:]
        if colour not in ("B", "W"):
            raise NotationError(f"invalid PDN FEN {text!r}: {field_!r} is not B... or W...", text)
        for item in filter(None, squares.split(",")):
            found = _FEN_SQUARES.fullmatch(item.strip())
            if found is None:
                raise NotationError(f"invalid PDN FEN {text!r}: {item!r} is not a square", text)
            first, last = int(found[1]), int(found[2] or found[1])
            for square in range(first, last + 1):
                r, c = cell_row_col(square - 1)
                piece = (1 if colour == "B" else 2) + (2 if item.startswith("K") else 0)
                rows[r][c] = str(piece)
    return parse_board(["".join(row) for row in rows], "BW".index(fields[0]))
