"""Alquerque notation: the CodeCup jury's move texts and a one-line position text.

Points are ``a1``..``g7`` (files a..g left to right, ranks 1..7 from white's side).
A normal move is ``c3-d4``; a capture lists every landing point: ``e5*c3`` or
``a1*c1*c3``. Both players name the points alike. A position is the seven ranks,
rank 7 first, of ``w``, ``b`` or ``.``, joined by ``/``, then the side to move
(``w`` or ``b``), the plies played, and each side's last normal move (``-`` for
none), for the no-going-back rule:

>>> from arbiter.games.alquerque.rules import Alquerque
>>> format_position(Alquerque().initial())
'bbbbbbb/bbbbbbb/bbbbbbb/bbb.www/wwwwwww/wwwwwww/wwwwwww w 0 - -'
>>> str(parse_move("a1*c1*c3", seat=0).path)
'(0, 2, 16)'
"""

from __future__ import annotations

import re

from arbiter.errors import IllegalMove, NotationError
from arbiter.game import Player
from arbiter.games.alquerque.rules import SIZE, Alquerque, Move, State, cell

_POINT = r"[a-g][1-7]"
_STEP = re.compile(rf"({_POINT})-({_POINT})")
_JUMP = re.compile(rf"{_POINT}(?:\*{_POINT})+")
# no ply cap: the referee asks only in a live position, whatever cap the game has
_RULES = Alquerque(max_plies=1 << 62)


def point(name: str) -> int:
    """The cell of a point name such as ``c3``."""
    return cell(ord(name[0]) - ord("a"), int(name[1]) - 1)


def name(c: int) -> str:
    """The name of a cell, such as ``c3``."""
    rank, file = divmod(c, SIZE)
    return f"{'abcdefg'[file]}{rank + 1}"


def parse_move(text: str, *, seat: Player) -> Move:
    """Parses ``c3-d4`` or ``e5*c3*c1``; needs no position, so the pieces a capture
    takes are not yet known.

    :raises NotationError: if the text is not a move over points a1..g7.
    """
    t = text.strip()
    if m := _STEP.fullmatch(t):
        return Move((point(m.group(1)), point(m.group(2))))
    if _JUMP.fullmatch(t):
        return Move(tuple(point(p) for p in t.split("*")), captures=(-1,))
    raise NotationError(
        f"invalid alquerque move {text!r}: expected 'c3-d4' for a move or 'e5*c3*c1' "
        "for a capture, over points a1..g7",
        text,
    )


def resolve_move(text: str, s: State, *, seat: Player) -> Move:
    """Parses ``text`` and finds the legal move of ``s`` with that path.

    :raises NotationError: if the text does not parse.
    :raises IllegalMove: if no legal move has that path; the message says why, as a
        jury would (a compulsory capture, an incomplete chain, going back).
    """
    wanted = parse_move(text, seat=seat)
    legal = _RULES.legal_moves(s)
    for m in legal:
        if m.path == wanted.path and bool(m.captures) == bool(wanted.captures):
            return m
    raise IllegalMove(f"illegal alquerque move {text.strip()!r}: {_why(wanted, s, legal)}")


def _why(wanted: Move, s: State, legal: list[Move]) -> str:
    side = "white" if s.to_move == 0 else "black"
    shown = ", ".join(format_move(m, seat=0) for m in legal[:3])
    if not (s.pieces[s.to_move] >> wanted.origin) & 1:
        return f"{side} has no piece on {name(wanted.origin)}"
    if legal and legal[0].captures and not wanted.captures:
        return f"a capture is compulsory: {shown} is available"
    if wanted.captures:
        longer = [m for m in legal if m.path[: len(wanted.path)] == wanted.path]
        if longer:
            return f"incomplete capture: must continue from {name(wanted.target)}"
        return f"{'-'.join(name(c) for c in wanted.path)} is not a capture here"
    back = s.back[s.to_move]
    if back is not None and (back[1], back[0]) == wanted.path:
        return (
            f"{format_move(wanted, seat=0)} goes back to where {name(back[1])} came from last move"
        )
    mine = [format_move(m, seat=0) for m in legal if m.origin == wanted.origin]
    if mine:
        return f"the piece on {name(wanted.origin)} has no such move (its moves: {', '.join(mine)})"
    movable = sorted({name(m.origin) for m in legal})
    return f"the piece on {name(wanted.origin)} cannot move (pieces that can: {', '.join(movable)})"


def format_move(m: Move, *, seat: Player) -> str:
    """Returns the jury's text of ``m``."""
    sep = "*" if m.captures else "-"
    return sep.join(name(c) for c in m.path)


def _piece(s: State, c: int, empty: str) -> str:
    white, black = s.pieces
    return "w" if (white >> c) & 1 else "b" if (black >> c) & 1 else empty


def format_position(s: State) -> str:
    """Returns the one-line position text."""
    white, black = s.pieces
    ranks = []
    for rank in range(SIZE - 1, -1, -1):
        ranks.append(
            "".join(
                "w"
                if (white >> cell(f, rank)) & 1
                else "b"
                if (black >> cell(f, rank)) & 1
                else "."
                for f in range(SIZE)
            )
        )
    backs = ["-" if b is None else f"{name(b[0])}-{name(b[1])}" for b in s.back]
    return f"{'/'.join(ranks)} {'wb'[s.to_move]} {s.ply} {backs[0]} {backs[1]}"


def parse_position(text: str) -> State:
    """Parses a position text (the last three fields may be left out: ply 0, no
    restriction).

    :raises NotationError: if it is not seven ranks of ``w``, ``b``, ``.``, the side
        to move, a ply count and each side's last normal move or ``-``.
    """
    parts = text.split()
    bad = NotationError(
        f"invalid alquerque position {text!r}: expected 7 ranks of w, b or . joined by '/', "
        "then w or b, the plies played, and each side's last normal move or '-'",
        text,
    )
    if len(parts) not in (2, 5) or parts[1] not in ("w", "b"):
        raise bad
    ranks = parts[0].split("/")
    if len(ranks) != SIZE or any(len(r) != SIZE or set(r) - set("wb.") for r in ranks):
        raise bad
    white = black = 0
    for i, row in enumerate(ranks):
        for f, ch in enumerate(row):
            bit = 1 << cell(f, SIZE - 1 - i)
            if ch == "w":
                white |= bit
            elif ch == "b":
                black |= bit
    ply = 0
    backs: list[tuple[int, int] | None] = [None, None]
    if len(parts) == 5:
        if not parts[2].isdigit():
            raise bad
        ply = int(parts[2])
        for i, text_back in enumerate(parts[3:]):
            if text_back != "-":
                step = _STEP.fullmatch(text_back)
                if step is None:
                    raise bad
                backs[i] = (point(step.group(1)), point(step.group(2)))
    return State((white, black), 0 if parts[1] == "w" else 1, ply, (backs[0], backs[1]))


def draw_numbers(*, seat: Player) -> str:
    """Returns the points' names, rank 7 at the top (the same for both players)."""
    return "\n".join(
        "  " + "  ".join(name(cell(f, rank)) for f in range(SIZE))
        for rank in range(SIZE - 1, -1, -1)
    )


def draw_board(s: State, last: Move | None = None) -> str:
    """Returns the board with its lines, rank 7 at the top: ``w`` and ``b`` pieces,
    ``+`` an empty point, the last move's landing point in brackets and its start
    marked ``*``.

    >>> from arbiter.games.alquerque.rules import Alquerque
    >>> print(draw_board(Alquerque().initial()).splitlines()[6])
    4  b---b---b---+---w---w---w
    """
    lines = []
    for rank in range(SIZE - 1, -1, -1):
        row = ""
        for f in range(SIZE):
            c = cell(f, rank)
            piece = _piece(s, c, "+")
            if last is not None and c == last.target:
                piece = f"[{piece}]"
            elif last is not None and c == last.origin:
                piece = "*"
            row += piece if f == 0 else ("---" if len(piece) == 1 else "--") + piece
        lines.append(f"{rank + 1}  {row}")
        if rank:
            # the lines between this rank and the one below: diagonals where they run
            link = "   "
            for f in range(SIZE):
                link += "|"
                if f < SIZE - 1:
                    link += " \\ " if (f + rank) % 2 == 0 else " / "
            lines.append(link)
    lines.append("   " + "   ".join("abcdefg"))
    side = "white" if s.to_move == 0 else "black"
    lines.append(f"   {side} to move, ply {s.ply}")
    return "\n".join(lines)
