"""Votey Checkers rules (Lines of Action on an 8x8 board), exactly as the contest sheet.

Cells are bit indices ``8 * (row - 1) + (column - 1)``, rows and columns 1..8, so the
contest's square ``11`` (top left) is cell 0 and ``88`` is cell 63. Contest numbers
appear only in :mod:`arbiter.games.votey.notation`.

Rules (sheet and platform rulings):

- Black starts on 12-17 and 82-87, white on 21, 31, ..., 71 and 28, 38, ..., 78;
  black (seat 0) moves first.
- A piece moves in a straight line, in any of the 8 directions, exactly as many
  squares as there are pieces of both colours on that whole line (both directions,
  the mover included). It may pass over its own pieces, never over an opponent's;
  it may not land on its own piece; landing on an opponent's piece captures it.
- A player is connected when all its pieces form one group under 8-neighbour
  adjacency; one piece is connected.
- After a move: if the mover is connected, the mover wins, even when a capture has
  connected the opponent too. Otherwise, if the opponent is connected, the
  opponent wins.
- Rulings where the sheet is silent: a player with no legal move loses; a game that
  reaches the ply cap (default 1000, ``max_plies``) is drawn, reason "move limit".
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from arbiter import core
from arbiter.bitboard import bits, mask
from arbiter.game import Outcome, Player, Reason

FULL = (1 << 64) - 1
COL1 = mask(8 * r for r in range(8))
COL8 = mask(8 * r + 7 for r in range(8))

#: the 8 directions as (row step, column step); index d and 7 - d are opposite
DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
#: which of a cell's 4 lines (see LINES) each direction runs along
_LINE_OF = (0, 1, 2, 3, 3, 2, 1, 0)

BLACK_START = mask(c for c in range(1, 7)) | mask(56 + c for c in range(1, 7))
WHITE_START = mask(8 * r for r in range(1, 7)) | mask(8 * r + 7 for r in range(1, 7))


def _on_board(r: int, c: int) -> bool:
    return 0 <= r < 8 and 0 <= c < 8


def _build_tables() -> tuple[
    list[tuple[int, int, int, int]], list[list[list[int]]], list[list[list[int]]]
]:
    """Builds, per cell: the 4 line masks (diagonal with row - column constant, column,
    anti-diagonal with row + column constant, row, so that direction d and 7 - d share
    line ``_LINE_OF[d]``); per cell, direction and distance 0..8:
    the target cell (-1 off board) and the mask of cells strictly between."""
    lines: list[tuple[int, int, int, int]] = []
    target: list[list[list[int]]] = []
    between: list[list[list[int]]] = []
    for cell in range(64):
        r, c = divmod(cell, 8)
        col = mask(8 * i + c for i in range(8))
        row = mask(8 * r + j for j in range(8))
        diag = mask(8 * i + j for i in range(8) for j in range(8) if i - j == r - c)
        anti = mask(8 * i + j for i in range(8) for j in range(8) if i + j == r + c)
        lines.append((diag, col, anti, row))
        t_cell: list[list[int]] = []
        b_cell: list[list[int]] = []
        for dr, dc in DIRECTIONS:
            t_dir = [-1] * 9
            b_dir = [0] * 9
            for n in range(1, 9):
                if _on_board(r + dr * n, c + dc * n):
                    t_dir[n] = 8 * (r + dr * n) + c + dc * n
                    b_dir[n] = mask(8 * (r + dr * k) + c + dc * k for k in range(1, n))
            t_cell.append(t_dir)
            b_cell.append(b_dir)
        target.append(t_cell)
        between.append(b_cell)
    return lines, target, between


LINES, TARGET, BETWEEN = _build_tables()


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """A Votey move from cell ``origin`` to cell ``target`` (internal cell ids 0..63)."""

    origin: int
    target: int

    def __str__(self) -> str:
        r1, c1 = divmod(self.origin, 8)
        r2, c2 = divmod(self.target, 8)
        return f"{r1 + 1}{c1 + 1}{r2 + 1}{c2 + 1}"


#: every (origin, target) pair as a Move, indexed by 64 * origin + target
MOVES: tuple[Move, ...] = tuple(Move(o, t) for o in range(64) for t in range(64))


@dataclass(frozen=True, slots=True)
class State:
    """A Votey position. ``pieces[0]`` is black's bitboard, ``pieces[1]`` white's.

    ``winner`` holds the connection result of the move that led here (``None`` if
    that move connected nobody); it is derived, and set by :func:`make_state`.
    """

    pieces: tuple[int, int]
    to_move: Player
    ply: int = 0
    winner: Player | None = None


def spread(b: int) -> int:
    """Returns ``b`` together with every cell 8-adjacent to a cell of ``b``."""
    h = (b | ((b >> 1) & ~COL8) | ((b << 1) & ~COL1)) & FULL  # no bit past cell 63
    return (h | (h << 8) | (h >> 8)) & FULL


def connected(b: int) -> bool:
    """True when the cells of ``b`` form one 8-connected group (an empty set is not).

    >>> connected(0b11), connected(0b101), connected(1 << 9 | 1)
    (True, False, True)
    """
    if not b:
        return False
    group = b & -b
    while True:
        grown = spread(group) & b
        if grown == group:
            return group == b
        group = grown


def groups(b: int) -> int:
    """Returns the number of 8-connected groups of the cells of ``b``."""
    n = 0
    while b:
        group = b & -b
        while True:
            grown = spread(group) & b
            if grown == group:
                break
            group = grown
        b &= ~group
        n += 1
    return n


def make_state(pieces: tuple[int, int], to_move: Player, ply: int = 0) -> State:
    """Returns a State, judging connections as if ``1 - to_move`` has just moved."""
    mover = 1 - to_move
    winner: Player | None = None
    if connected(pieces[mover]):
        winner = mover
    elif connected(pieces[to_move]):
        winner = to_move
    return State(pieces, to_move, ply, winner)


def moves_from(own: int, enemy: int) -> list[int]:
    """Returns the legal moves of the side owning ``own`` as codes ``64 * origin + target``."""
    occupied = own | enemy
    codes: list[int] = []
    append = codes.append
    for cell in bits(own):
        diag, col, anti, row = LINES[cell]
        counts = (
            (occupied & diag).bit_count(),
            (occupied & col).bit_count(),
            (occupied & anti).bit_count(),
            (occupied & row).bit_count(),
        )
        targets = TARGET[cell]
        betweens = BETWEEN[cell]
        base = cell << 6
        for d in range(8):
            n = counts[_LINE_OF[d]]
            t = targets[d][n]
            if t >= 0 and not (own >> t) & 1 and not betweens[d][n] & enemy:
                append(base | t)
    return codes


def count_moves(own: int, enemy: int) -> tuple[int, int]:
    """Returns (moves, captures) of the side owning ``own``: mobility without a move list."""
    occupied = own | enemy
    moves = captures = 0
    for cell in bits(own):
        diag, col, anti, row = LINES[cell]
        counts = (
            (occupied & diag).bit_count(),
            (occupied & col).bit_count(),
            (occupied & anti).bit_count(),
            (occupied & row).bit_count(),
        )
        targets = TARGET[cell]
        betweens = BETWEEN[cell]
        for d in range(8):
            n = counts[_LINE_OF[d]]
            t = targets[d][n]
            if t >= 0 and not (own >> t) & 1 and not betweens[d][n] & enemy:
                moves += 1
                captures += (enemy >> t) & 1
    return moves, captures


def has_move(own: int, enemy: int) -> bool:
    """True when the side owning ``own`` has at least one legal move."""
    occupied = own | enemy
    for cell in bits(own):
        lines = LINES[cell]
        targets = TARGET[cell]
        betweens = BETWEEN[cell]
        for d in range(8):
            n = (occupied & lines[_LINE_OF[d]]).bit_count()
            t = targets[d][n]
            if t >= 0 and not (own >> t) & 1 and not betweens[d][n] & enemy:
                return True
    return False


_PACKED = struct.Struct("<QQiiii")


class Votey:
    """The Votey Checkers rules engine (see the module docstring for the rules).

    Made where the compiled core is in use (:mod:`arbiter.core`), its move
    generation, connection and no-move tests run in C (``csrc/votey.c``), and
    ``compiled`` lets the search and perft run there whole; otherwise every rule is
    the Python above.
    """

    name = "votey"
    num_players = 2

    def __init__(self, max_plies: int = 1000) -> None:
        self.max_plies = max_plies
        self.compiled = core.compiled_rules("votey", self.pack, _code, self.unpack)
        self._moves_from = moves_from
        self._connected = connected
        self._has_move = has_move
        if self.compiled is not None:
            kernel = self.compiled.core
            self._moves_from = kernel.votey_moves_from
            self._connected = kernel.votey_connected
            self._has_move = kernel.votey_has_move

    def pack(self, s: State) -> bytes:
        """``s`` as the compiled kernel's state."""
        winner = -1 if s.winner is None else s.winner
        cap = core.ply_cap(self.max_plies)
        return _PACKED.pack(s.pieces[0], s.pieces[1], s.to_move, s.ply, winner, cap)

    def unpack(self, data: bytes) -> State:
        """The state :meth:`pack` made ``data`` of.

        :raises struct.error: if ``data`` is not a packed state's size.
        """
        first, second, to_move, ply, winner, _ = _PACKED.unpack(data)
        return State((first, second), to_move, ply, None if winner < 0 else winner)

    def initial(self) -> State:
        """Returns the contest's start position, black to move."""
        return State((BLACK_START, WHITE_START), 0)

    def to_move(self, s: State) -> Player:
        """Returns the seat to move."""
        return s.to_move

    def legal_moves(self, s: State) -> list[Move]:
        """Returns the legal moves sorted by (origin, target); empty once the game is over."""
        if s.winner is not None or s.ply >= self.max_plies:
            return []
        p = s.to_move
        codes = self._moves_from(s.pieces[p], s.pieces[1 - p])
        codes.sort()  # the compiled kernel's are sorted already: a cheap pass
        return [MOVES[c] for c in codes]

    def apply(self, s: State, m: Move) -> State:
        """Returns the position after the (trusted) legal move ``m``."""
        p = s.to_move
        o = 1 - p
        own = s.pieces[p] ^ (1 << m.origin) ^ (1 << m.target)
        enemy = s.pieces[o] & ~(1 << m.target)
        pieces = (own, enemy) if p == 0 else (enemy, own)
        winner: Player | None = None
        if self._connected(own):
            winner = p
        elif enemy != s.pieces[o] and self._connected(enemy):
            winner = o
        return State(pieces, o, s.ply + 1, winner)

    def outcome(self, s: State) -> Outcome | None:
        """Returns the result once decided: connection, no legal move, or the ply cap."""
        if s.winner is not None:
            return Outcome(s.winner, Reason.CONNECTED)
        if s.ply >= self.max_plies:
            return Outcome(None, Reason.MOVE_LIMIT, f"{s.ply} plies")
        p = s.to_move
        if not self._has_move(s.pieces[p], s.pieces[1 - p]):
            return Outcome(1 - p, Reason.NO_MOVES)
        return None

    def position_key(self, s: State) -> tuple[int, int, int]:
        """Returns (black, white, side to move): equal keys, equal futures up to the ply cap."""
        return (s.pieces[0], s.pieces[1], s.to_move)


def _code(m: Move) -> int:
    """``m`` as the compiled kernel's move code."""
    return 64 * m.origin + m.target
