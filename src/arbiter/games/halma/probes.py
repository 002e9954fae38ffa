"""What ``arbiter check-agent`` exercises in Halma beyond whole games: its timing,
and prepared positions (see :mod:`arbiter.contract.probes`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from arbiter.bitboard import mask, popcount
from arbiter.contract import Check, GameSpec
from arbiter.contract.probes import prepared
from arbiter.games.halma import rules as halma
from arbiter.games.halma.notation import format_position

TIMING = Check("little time", "a move with 2 s left", 0, clock="2 kill=10", stop_at=1)
"""The contest's timing, checked on its clock's shape."""


def probes(spec: GameSpec[Any, Any]) -> list[Check]:
    """The game's checks beyond whole games against random: its timing first."""
    return [TIMING, *_probes(spec)]


def _probes(spec: GameSpec[Any, Any]) -> list[Check]:
    def chain(game: halma.Halma, s: halma.State) -> bool:
        return any(len(m.hops) >= 3 for m in game.legal_moves(s))

    def midgame(game: halma.Halma, s: halma.State) -> bool:
        return s.ply >= 60

    late = [
        replace(check, clock="0.3 kill=10")
        for check in prepared(
            spec, [("very little time", "a move deep in a game with 0.3 s left", midgame, 5, 80)]
        )
    ]
    return [
        *late,
        *camp_checks(),
        *prepared(
            spec, [("hop chain", "a chain of three hops or more, one J line each", chain, 4, 120)]
        ),
    ]


_CAMP = "while pieces are in the camp, one must leave it (rule 1(b))"
_BLOCK = [(1, 7), (2, 7), (3, 7), (1, 8), (2, 8), (3, 8), (1, 9), (2, 9), (3, 9), (8, 2), (9, 2)]
_BLOCK += [(10, 2), (8, 3), (9, 3)]
_LADDER = [(5, 5), (6, 6), (8, 8), (10, 10)]
"""Black's pieces outside its camp in the camp checks: a block, and a piece on 5,5
that hops 6,6, 8,8 and 10,10 to 11,11 (twelve squares nearer white's camp)."""


def _turned(squares: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The squares turned half round (black's side as white's)."""
    return [(15 - x, 15 - y) for x, y in squares]


def _position(black: list[tuple[int, int]], white: list[tuple[int, int]], to_move: int) -> str:
    pieces = (mask(halma.cell(x, y) for x, y in black), mask(halma.cell(x, y) for x, y in white))
    assert popcount(pieces[0]) == popcount(pieces[1]) == 19 and not pieces[0] & pieces[1]
    return format_position(halma.State(pieces, to_move, 40 + to_move))


def camp_positions() -> list[tuple[str, str, int]]:
    """Positions where rule 1(b) forbids the move that looks best: the side to move has
    pieces in its own camp, whose only legal moves gain a square or two, while a piece
    outside it could hop twelve squares nearer the goal by rule 1(a), and nine in ten
    of the moves the board allows are forbidden. A program that ignores the rule plays
    the long hop (or, at random, one of the forbidden moves). Each is ``(about, position
    text, seat to move)``: a piece that must step out; one that cannot leave and must
    move further from its corner within the camp; white's piece that must hop out over
    the one piece beside it; two pieces of which one must leave."""
    white_home = _turned([(x, y) for y, n in enumerate(halma.CAMP_ROWS) for x in range(n)])
    black_home = _turned(white_home)
    outside = _BLOCK + _LADDER
    return [
        (
            f"{_CAMP}: its piece on 4,0 must step out",
            _position([(4, 0), *outside], white_home, 0),
            0,
        ),
        (
            "rule 1(b) when no piece can leave the camp: its piece on 1,1 moves further "
            "from its corner",
            _position([(1, 1), *outside], white_home, 0),
            0,
        ),
        (
            f"{_CAMP}, as white: its piece on 13,13 must hop out over 12,12",
            _position(black_home, [(13, 13), (12, 12), *_turned(_BLOCK[:13] + _LADDER)], 1),
            1,
        ),
        (
            f"{_CAMP}: one of its pieces on 4,1 and 2,3 must step out",
            _position([(4, 1), (2, 3), *_BLOCK[:13], *_LADDER], white_home, 0),
            0,
        ),
    ]


def camp_checks() -> list[Check]:
    """The camp checks (:func:`camp_positions`): the program's one move from each."""
    return [
        Check("camp first" + (f" ({i + 1})" if i else ""), about, seat, start, stop_at=41 + seat)
        for i, (about, start, seat) in enumerate(camp_positions())
    ]
