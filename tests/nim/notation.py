"""Nim's notation: a move is written as the stones it leaves (``18`` after taking 3
of 21), the same for both seats; a position as ``PILE SEAT`` (``21 1``: 21 stones,
the first seat to take)."""

from __future__ import annotations

from arbiter.errors import IllegalMove, NotationError
from arbiter.game import Player
from tests.nim.rules import MOST_STONES, State


def parse_move(text: str, *, seat: Player) -> int:
    """The move ``text`` names.

    :raises NotationError: unless it is a whole number of stones.
    """
    word = text.strip()
    if not (word.isascii() and word.isdigit()):
        raise NotationError(f"{word!r} is not a number of stones left", text)
    return int(word)


def resolve_move(text: str, s: State, *, seat: Player) -> int:
    """The legal move ``text`` names in ``s``.

    :raises NotationError: unless it is a number.
    :raises IllegalMove: if it does not take one, two or three stones.
    """
    m = parse_move(text, seat=seat)
    if not max(0, s.pile - 3) <= m < s.pile:
        raise IllegalMove(f"{m} stones left: from {s.pile} a move takes 1, 2 or 3 stones")
    return m


def format_move(m: int, *, seat: Player) -> str:
    return str(m)


def parse_position(text: str) -> State:
    """:raises NotationError: unless ``text`` is ``PILE SEAT`` with seat 1 or 2."""
    words = text.split()
    number = len(words) == 2 and words[0].isascii() and words[0].isdigit()
    if not number or words[1] not in ("1", "2"):
        raise NotationError(f"{text.strip()!r} is not a Nim position (PILE SEAT, as 21 1)")
    pile = int(words[0])
    if pile > MOST_STONES:
        raise NotationError(f"a pile of {pile} stones: at most {MOST_STONES}")
    return State(pile, int(words[1]) - 1)


def format_position(s: State) -> str:
    return f"{s.pile} {s.to_move + 1}"


def draw_board(s: State, last: int | None = None) -> str:
    return f"{'o' * s.pile} ({s.pile} stones)"


def draw_numbers(*, seat: Player) -> str:
    return "a move is the number of stones it leaves: one, two or three fewer"
