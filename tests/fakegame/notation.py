"""Race texts: each seat numbers the cells 1..10 from its own start (the Chinese
checkers mediator's translation in miniature). A move is ``F-T``; a position is the
ten cells (``a`` first seat, ``b`` second, ``.`` empty) in the first seat's order,
then ``1`` or ``2`` for the side to move."""

from __future__ import annotations

import re

from arbiter.errors import IllegalMove, NotationError
from arbiter.game import Player
from tests.fakegame.rules import CELLS, Move, Race, State

_MOVE = re.compile(r"(10|[1-9])-(10|[1-9])")
_RULES = Race(max_plies=1 << 62)


def own_number(cell: int, seat: int) -> int:
    """The number ``seat`` gives ``cell``."""
    return cell + 1 if seat == 0 else CELLS - cell


def cell_of(number: int, seat: int) -> int:
    """The cell ``seat`` calls ``number``."""
    return number - 1 if seat == 0 else CELLS - number


def parse_move(text: str, *, seat: int) -> Move:
    m = _MOVE.fullmatch(text.strip())
    if m is None:
        raise NotationError(f"invalid race move {text!r}: expected F-T over cells 1..10", text)
    return Move(cell_of(int(m.group(1)), seat), cell_of(int(m.group(2)), seat))


def resolve_move(text: str, s: State, *, seat: int) -> Move:
    m = parse_move(text, seat=seat)
    if m not in _RULES.legal_moves(s):
        raise IllegalMove(f"illegal race move {text.strip()!r} for seat {seat + 1}")
    return m


def format_move(m: Move, *, seat: int) -> str:
    return f"{own_number(m.origin, seat)}-{own_number(m.target, seat)}"


def format_position(s: State) -> str:
    row = "".join(
        "a" if (s.pieces[0] >> c) & 1 else "b" if (s.pieces[1] >> c) & 1 else "."
        for c in range(CELLS)
    )
    return f"{row} {s.to_move + 1}"


def parse_position(text: str) -> State:
    parts = text.split()
    if (
        len(parts) != 2
        or len(parts[0]) != CELLS
        or set(parts[0]) - set("ab.")
        or parts[1] not in ("1", "2")
    ):
        raise NotationError(f"invalid race position {text!r}", text)
    a = sum(1 << c for c, ch in enumerate(parts[0]) if ch == "a")
    b = sum(1 << c for c, ch in enumerate(parts[0]) if ch == "b")
    return State((a, b), int(parts[1]) - 1)


def draw_board(s: State, last: Move | None = None) -> str:
    return format_position(s)


def draw_numbers(*, seat: Player) -> str:
    return " ".join(str(c + 1 if seat == 0 else CELLS - c) for c in range(CELLS))
