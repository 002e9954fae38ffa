"""Votey Checkers notation: the contest's 4-digit integers and a one-line position text.

A move is the integer ``FFTT``: ``FF`` the square it leaves, ``TT`` the square it
reaches, each square ``10 * row + column`` with rows and columns 1..8 (``11`` top
left). A move that wins is written negated: ``-2454``. The sign is a claim the
referee checks (see :mod:`arbiter.games.votey.contest`); parsing only reads it.

A position is eight rows of ``b`` (black), ``w`` (white) or ``.``, row 1 first,
separated by ``/``, then a space and the side to move (``b`` or ``w``):

>>> from arbiter.games.votey.rules import Votey
>>> format_position(Votey().initial())
'.bbbbbb./w......w/w......w/w......w/w......w/w......w/w......w/.bbbbbb. b'
>>> str(parse_move("1434", seat=0))
'1434'
>>> claims_win("-2454")
True
"""

from __future__ import annotations

import re

from arbiter.errors import IllegalMove, NotationError
from arbiter.game import Player
from arbiter.games.votey.rules import MOVES, Move, State, Votey, make_state

_MOVE = re.compile(r"-?([1-8])([1-8])([1-8])([1-8])")
# no ply cap: the referee asks only in a live position, whatever cap the game has
_RULES = Votey(max_plies=1 << 62)


def cell_to_square(cell: int) -> int:
    """Returns the contest square number of cell id ``cell``."""
    row, col = divmod(cell, 8)
    return 10 * (row + 1) + col + 1


def parse_move(text: str, *, seat: Player) -> Move:
    """Parses ``FFTT`` or ``-FFTT`` (surrounding whitespace allowed); needs no position.
    Both seats number the board alike.

    :raises NotationError: if the text is not a 4-digit move over squares 11..88.
    """
    m = _MOVE.fullmatch(text.strip())
    if m is None:
        raise NotationError(
            f"invalid votey move {text!r}: expected a 4-digit integer FFTT over squares "
            "11..88, negated to claim a win",
            text,
        )
    r1, c1, r2, c2 = (int(g) - 1 for g in m.groups())
    # a move that starts and ends on one square (``1111``) is well written and never
    # legal: the referee judges it an illegal move, not a malformed line
    return MOVES[64 * (8 * r1 + c1) + 8 * r2 + c2]


def claims_win(text: str) -> bool:
    """True when the move text is negated, i.e. declares a winning move."""
    return text.strip().startswith("-")


def resolve_move(text: str, s: State, *, seat: Player) -> Move:
    """Parses ``text`` and checks it against the legal moves of ``s``.

    :raises NotationError: if the text does not parse.
    :raises IllegalMove: if the move is not legal in ``s``.
    """
    m = parse_move(text, seat=seat)
    legal = _RULES.legal_moves(s)
    if m not in legal:
        side = "black" if s.to_move == 0 else "white"
        raise IllegalMove(
            f"illegal votey move {text.strip()!r} for {side}: {why_illegal(s, m, legal)}"
        )
    return m


def why_illegal(s: State, m: Move, legal: list[Move]) -> str:
    """Why ``m`` is not a legal move of ``s``, in the contest's squares, and where the
    piece can go when it has few moves.

    >>> from arbiter.games.votey.rules import Votey
    >>> s = Votey().initial()
    >>> why_illegal(s, parse_move("2131", seat=0), Votey().legal_moves(s))
    'no piece of yours on 21 (white has one there)'
    >>> why_illegal(s, parse_move("1242", seat=0), Votey().legal_moves(s))[:60]
    'the column through 12 holds 2 pieces, so a piece on it moves'
    """
    own, enemy = s.pieces[s.to_move], s.pieces[1 - s.to_move]
    o, t = m.origin, m.target
    if o == t:
        return "it starts and ends on one square"
    if not (own >> o) & 1:
        there = " (white has one there)" if s.to_move == 0 else " (black has one there)"
        return f"no piece of yours on {cell_to_square(o)}" + (there if (enemy >> o) & 1 else "")
    (ro, co), (rt, ct) = divmod(o, 8), divmod(t, 8)
    dr, dc = rt - ro, ct - co
    go = [cell_to_square(x.target) for x in legal if x.origin == o]
    can = (
        f" ({cell_to_square(o)} can go to {', '.join(map(str, sorted(go)))})"
        if 0 < len(go) <= 8
        else f" (the piece on {cell_to_square(o)} cannot move)"
        if not go
        else ""
    )
    if not (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
        where = f"{cell_to_square(o)} and {cell_to_square(t)}"
        return f"{where} are not on one row, column or diagonal{can}"
    sr, sc = (dr > 0) - (dr < 0), (dc > 0) - (dc < 0)
    line = {(0, 1): "row", (1, 0): "column"}.get((abs(sr), abs(sc)), "diagonal")
    count = 1
    for k in (1, -1):
        r, c = ro + k * sr, co + k * sc
        while 0 <= r < 8 and 0 <= c < 8:
            count += ((own | enemy) >> (8 * r + c)) & 1
            r, c = r + k * sr, c + k * sc
    distance = max(abs(dr), abs(dc))
    if distance != count:
        return (
            f"the {line} through {cell_to_square(o)} holds {count} pieces, so a piece on it "
            f"moves exactly {count} squares{can}"
        )
    for k in range(1, distance):
        cell = 8 * (ro + k * sr) + co + k * sc
        if (enemy >> cell) & 1:
            return f"it would jump the opponent's piece on {cell_to_square(cell)}{can}"
    if (own >> t) & 1:
        return f"it would land on your own piece on {cell_to_square(t)}{can}"
    return f"it is not a legal move{can}"


def format_move(m: Move, *, seat: Player, win: bool = False) -> str:
    """Returns the contest text of ``m``, negated when ``win`` is set."""
    text = f"{cell_to_square(m.origin)}{cell_to_square(m.target):02d}"
    return "-" + text if win else text


def format_position(s: State) -> str:
    """Returns the one-line position text (rows 1..8, then the side to move)."""
    black, white = s.pieces
    rows = []
    for r in range(8):
        row = ""
        for c in range(8):
            cell = 8 * r + c
            row += "b" if (black >> cell) & 1 else "w" if (white >> cell) & 1 else "."
        rows.append(row)
    return "/".join(rows) + (" b" if s.to_move == 0 else " w")


def parse_position(text: str) -> State:
    """Parses the one-line position text; the move count starts at 0.

    :raises NotationError: if the text is not eight rows of eight ``b``/``w``/``.``
        followed by ``b`` or ``w``.
    """
    parts = text.split()
    rows = parts[0].split("/") if parts else []
    if len(parts) != 2 or parts[1] not in ("b", "w") or len(rows) != 8:
        raise NotationError(
            f"invalid votey position {text!r}: expected 8 rows joined by '/' and 'b' or 'w'",
            text,
        )
    black = white = 0
    for r, row in enumerate(rows):
        if len(row) != 8 or set(row) - set("bw."):
            raise NotationError(
                f"invalid votey position {text!r}: row {r + 1} {row!r} is not 8 of b, w or .",
                text,
            )
        for c, ch in enumerate(row):
            if ch == "b":
                black |= 1 << (8 * r + c)
            elif ch == "w":
                white |= 1 << (8 * r + c)
    return make_state((black, white), 0 if parts[1] == "b" else 1)


def draw_numbers(*, seat: Player) -> str:
    """Returns the 8x8 board with each square's ``RC`` digits (the same for both)."""
    return "\n".join("  " + " ".join(f"{r}{c}" for c in range(1, 9)) for r in range(1, 9))


def draw_board(s: State, last: Move | None = None) -> str:
    """Returns the board as text with the contest's row and column digits.

    Square ``RC`` is row ``R``, column ``C``; ``b`` black, ``w`` white. The last
    move's destination is bracketed and its origin shown as ``*``.

    >>> from arbiter.games.votey.rules import Votey
    >>> print(draw_board(Votey().initial()).splitlines()[1])
      1   .  b  b  b  b  b  b  .
    """
    black, white = s.pieces
    lines = ["      " + "  ".join(str(c) for c in range(1, 9))]
    for r in range(8):
        row = f"  {r + 1}  "
        for c in range(8):
            cell = 8 * r + c
            ch = "b" if (black >> cell) & 1 else "w" if (white >> cell) & 1 else "."
            if last is not None and cell == last.target:
                row += f"[{ch}]"
            elif last is not None and cell == last.origin:
                row += " * "
            else:
                row += f" {ch} "
        lines.append(row.rstrip())
    side = "black" if s.to_move == 0 else "white"
    lines.append(f"  {side} to move, ply {s.ply}")
    return "\n".join(lines)
