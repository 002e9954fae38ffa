"""Connect Four, the toy game of drops that proves a game of another shape is one
folder: seven columns of six cells; each player in turn drops a piece into a column
that is not full, where it falls to the lowest empty cell; four of one's own in a
row, across, up or along a diagonal, wins; a full board is a draw, which the game
names itself (:data:`BOARD_FULL`: the platform has no such reason).

A move is the column, 0 to 6: the cell it fills depends on the position, so the
board's clicks are drops (:class:`arbiter.contract.layout.Drops`)."""

from __future__ import annotations

from dataclasses import dataclass

from arbiter.game import Outcome, Player, Reason, RuleEnd

COLUMNS, ROWS = 7, 6
CELLS = COLUMNS * ROWS
"""Cell ``row * COLUMNS + column``, row 0 at the bottom."""

LINES: tuple[int, ...] = tuple(
    sum(1 << ((r + i * dr) * COLUMNS + c + i * dc) for i in range(4))
    for r in range(ROWS)
    for c in range(COLUMNS)
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1))
    if 0 <= r + 3 * dr < ROWS and 0 <= c + 3 * dc < COLUMNS
)
"""Every four cells in a row, as bits: 69 of them."""

BOARD_FULL = RuleEnd("board full", "every cell is filled and no one has four in a row")
"""The game's own ending: a draw."""


@dataclass(frozen=True, slots=True)
class State:
    """``pieces[p]``: seat ``p``'s cells as bits; ``to_move`` the seat to drop next."""

    pieces: tuple[int, int]
    to_move: Player
    ply: int = 0


def height(s: State, column: int) -> int:
    """How many pieces the column holds."""
    taken = s.pieces[0] | s.pieces[1]
    return sum(1 for r in range(ROWS) if taken >> (r * COLUMNS + column) & 1)


def landing(s: State, column: int) -> int:
    """The cell a drop into ``column`` fills (the column must not be full)."""
    return height(s, column) * COLUMNS + column


class ConnectFour:
    """The rules engine."""

    name = "connect4"
    num_players = 2

    def __init__(self, max_plies: int = 1000) -> None:
        self.max_plies = max_plies

    def initial(self) -> State:
        return State((0, 0), 0)

    def to_move(self, s: State) -> Player:
        return s.to_move

    def legal_moves(self, s: State) -> list[int]:
        if self.outcome(s) is not None:
            return []
        return [c for c in range(COLUMNS) if height(s, c) < ROWS]

    def apply(self, s: State, m: int) -> State:
        p = s.to_move
        pieces = list(s.pieces)
        pieces[p] |= 1 << landing(s, m)
        return State((pieces[0], pieces[1]), 1 - p, s.ply + 1)

    def outcome(self, s: State) -> Outcome | None:
        mover = 1 - s.to_move
        if any(line & s.pieces[mover] == line for line in LINES):
            return Outcome(mover, Reason.CONNECTED, "four in a row")
        if s.ply >= CELLS:
            return Outcome(None, BOARD_FULL)
        if s.ply >= self.max_plies:
            return Outcome(None, Reason.MOVE_LIMIT)
        return None

    def position_key(self, s: State) -> tuple[int, int, int]:
        return s.pieces[0], s.pieces[1], s.to_move
