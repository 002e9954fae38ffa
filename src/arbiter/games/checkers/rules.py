"""American checkers rules (AI Wars 2011), exactly as the sheet and RULES.md give them.

Cells are ``square - 1`` for the standard squares 1..32: row 1 (top) holds squares
1-4 in columns 2, 4, 6, 8; row 2 holds 5-8 in columns 1, 3, 5, 7; and so on. Player 1
(red, seat 0) starts on 1-12, moves first and moves down the board towards 32;
player 2 (white, seat 1) starts on 21-32.

- Men step one square diagonally forward; kings one square in all four diagonal
  directions. A move goes to a vacant square.
- Captures jump an adjacent enemy piece to the vacant square just behind it; men
  capture forward only, kings in all four directions. Capturing is compulsory, a
  multiple jump must be completed, and the player may choose any capture, short or
  long. Captured pieces stay on the board until the move ends, so none is jumped
  twice; the moving piece's own start square counts as vacant.
- A man reaching the far row is crowned and its move ends there.
- A player with no pieces, or no legal move, loses.
- "Draw if no player can force a win; remaining pieces taken into account" (ruling):
  the game ends when 40 moves by each side (80 plies) pass with no capture and no man
  moved, or when a position repeats for the third time with the same side to move;
  then the side with more pieces wins (a king counts as one piece), and equal counts
  draw. ``plain_draws=True`` scores every such end as a draw instead.
- Safety cap: a game reaching ``max_plies`` (default 1000) is drawn, reason "move
  limit" (the 80-ply rule ends every real game long before).

Every complete jump path is its own move; two paths between the same squares that
capture different pieces are distinct moves, told apart by their landing squares.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from arbiter import core
from arbiter.bitboard import bits, mask
from arbiter.game import Outcome, Player, Reason
from arbiter.moves import PathMove

RED, WHITE = 0, 1
NO_PROGRESS_PLIES = 80


def cell_row_col(cell: int) -> tuple[int, int]:
    """Returns the 0-based (row, column) of a cell; row 0 is the top row."""
    row, pos = divmod(cell, 4)
    return row, 2 * pos + (1 if row % 2 == 0 else 0)


def _cell_at(row: int, col: int) -> int:
    if not (0 <= row < 8 and 0 <= col < 8) or (row + col) % 2 == 0:
        return -1
    return 4 * row + col // 2


# directions as (row step, column step); red's forward is +1 row, white's is -1
DIRECTIONS = ((1, -1), (1, 1), (-1, -1), (-1, 1))
FORWARD = ((0, 1), (2, 3))  # per side: the indices of its forward directions
ALL_DIRS = (0, 1, 2, 3)


def _tables() -> tuple[list[list[int]], list[list[tuple[int, int] | None]]]:
    step: list[list[int]] = []
    jump: list[list[tuple[int, int] | None]] = []
    for cell in range(32):
        r, c = cell_row_col(cell)
        step.append([_cell_at(r + dr, c + dc) for dr, dc in DIRECTIONS])
        row_jumps: list[tuple[int, int] | None] = []
        for dr, dc in DIRECTIONS:
            over, land = _cell_at(r + dr, c + dc), _cell_at(r + 2 * dr, c + 2 * dc)
            row_jumps.append((over, land) if over >= 0 and land >= 0 else None)
        jump.append(row_jumps)
    return step, jump


STEP, JUMP = _tables()
CROWN_ROW = (mask(range(28, 32)), mask(range(0, 4)))  # where each side's men are crowned
RED_START = mask(range(0, 12))
WHITE_START = mask(range(20, 32))


class Move(PathMove):
    """A whole turn: ``path`` the squares visited (start first), ``captures`` the squares
    jumped; shown as the contest writes it (``9-14``, ``9x18x27``)."""

    __slots__ = ()

    def __str__(self) -> str:
        sep = "x" if self.captures else "-"
        return sep.join(str(c + 1) for c in self.path)


@dataclass(frozen=True, slots=True)
class State:
    """A checkers position.

    ``pieces`` are the red and white bitboards, ``kings`` the crowned pieces of both;
    ``quiet`` counts plies since the last capture or man move, and ``history`` holds
    the position keys since then (for repetition).
    """

    pieces: tuple[int, int]
    kings: int
    to_move: Player
    ply: int = 0
    quiet: int = 0
    history: tuple[tuple[int, int, int, int], ...] = ()

    @property
    def key(self) -> tuple[int, int, int, int]:
        """(red, white, kings, side to move): what repetition compares."""
        return (self.pieces[0], self.pieces[1], self.kings, self.to_move)


def _jumps(
    cell: int,
    dirs: tuple[int, ...],
    crown: int,
    enemy: int,
    empty: int,
    taken: int,
    path: tuple[int, ...],
    caps: tuple[int, ...],
    out: list[Move],
) -> None:
    """Extends a jump path from ``cell`` by depth-first search; appends complete moves."""
    extended = False
    for d in dirs:
        j = JUMP[cell][d]
        if j is None:
            continue
        over, land = j
        if (enemy >> over) & 1 and not (taken >> over) & 1 and (empty >> land) & 1:
            extended = True
            if (crown >> land) & 1:
                out.append(Move((*path, land), (*caps, over)))  # crowned: the move ends
            else:
                _jumps(
                    land,
                    dirs,
                    crown,
                    enemy,
                    empty,
                    taken | (1 << over),
                    (*path, land),
                    (*caps, over),
                    out,
                )
    if not extended and caps:
        out.append(Move(path, caps))


def _shift_tables() -> list[tuple[int, int, int, int]]:
    """Per direction: (mask of cells with a neighbour there on even rows, its shift,
    the same for odd rows); a neighbour set is then two masked shifts."""
    tables = []
    for d in range(4):
        parts: list[int] = []
        for parity in (0, 1):
            cells = [c for c in range(32) if (c // 4) % 2 == parity and STEP[c][d] >= 0]
            shifts = {STEP[c][d] - c for c in cells}
            assert len(shifts) <= 1
            parts.extend((mask(cells), shifts.pop() if shifts else 0))
        tables.append((parts[0], parts[1], parts[2], parts[3]))
    return tables


_SHIFTS = _shift_tables()
_OPPOSITE = (3, 2, 1, 0)  # down-left <-> up-right, down-right <-> up-left


def neighbours(d: int, bb: int) -> int:
    """Returns the cells one step in direction ``d`` from the cells of ``bb``."""
    even_mask, even_shift, odd_mask, odd_shift = _SHIFTS[d]
    e, o = bb & even_mask, bb & odd_mask
    a = e << even_shift if even_shift >= 0 else e >> -even_shift
    b = o << odd_shift if odd_shift >= 0 else o >> -odd_shift
    return a | b


def capturers(s: State) -> int:
    """Returns the pieces of the side to move that can make at least one capture."""
    p = s.to_move
    own, enemy = s.pieces[p], s.pieces[1 - p]
    empty = ~(own | enemy) & 0xFFFFFFFF
    kings = own & s.kings
    found = 0
    for d in ALL_DIRS:
        movers = own if d in FORWARD[p] else kings
        if not movers:
            continue
        landing = neighbours(d, neighbours(d, movers) & enemy) & empty
        if landing:
            back = _OPPOSITE[d]
            found |= neighbours(back, neighbours(back, landing)) & movers
    return found


def captures_of(s: State) -> list[Move]:
    """Returns every complete capture of the side to move (unsorted)."""
    starts = capturers(s)
    if not starts:
        return []
    p = s.to_move
    own, enemy = s.pieces[p], s.pieces[1 - p]
    empty = ~(own | enemy) & 0xFFFFFFFF
    out: list[Move] = []
    for cell in bits(starts):
        if (s.kings >> cell) & 1:
            _jumps(cell, ALL_DIRS, 0, enemy, empty | (1 << cell), 0, (cell,), (), out)
        else:
            _jumps(cell, FORWARD[p], CROWN_ROW[p], enemy, empty | (1 << cell), 0, (cell,), (), out)
    return out


def steps_of(s: State) -> list[Move]:
    """Returns every non-capturing move of the side to move (unsorted)."""
    p = s.to_move
    own = s.pieces[p]
    empty = ~(own | s.pieces[1 - p]) & 0xFFFFFFFF
    kings = own & s.kings
    out: list[Move] = []
    for d in ALL_DIRS:
        movers = own if d in FORWARD[p] else kings
        if not movers:
            continue
        origins = neighbours(_OPPOSITE[d], neighbours(d, movers) & empty) & movers
        for cell in bits(origins):
            out.append(_STEP_MOVES[cell][STEP[cell][d]])
    return out


_STEP_MOVES = [[Move((a, b)) for b in range(32)] for a in range(32)]


def has_step(s: State) -> bool:
    """True when the side to move has a non-capturing move (without listing them)."""
    p = s.to_move
    own = s.pieces[p]
    empty = ~(own | s.pieces[1 - p]) & 0xFFFFFFFF
    kings = own & s.kings
    for d in ALL_DIRS:
        movers = own if d in FORWARD[p] else kings
        if movers and neighbours(d, movers) & empty:
            return True
    return False


_HEADER = struct.Struct("<IIIiiiiii")
_KEY = struct.Struct("<IIII")
_HISTORY = 80
_DIRECTION_OF = {(a, b): d for a in range(32) for d in range(4) for b in (STEP[a][d],) if b >= 0}
_JUMP_DIRECTION_OF = {
    (a, j[1]): d for a in range(32) for d in range(4) for j in (JUMP[a][d],) if j is not None
}


def code(m: Move) -> int:
    """``m`` as the compiled kernel's code: its origin, its number of jumps (0 for a
    step) and the direction of the step or of each jump, two bits each."""
    path = m.path
    if not m.captures:
        return path[0] | _DIRECTION_OF[path[0], path[1]] << 9
    c = path[0] | len(m.captures) << 5
    for i in range(len(m.captures)):
        c |= _JUMP_DIRECTION_OF[path[i], path[i + 1]] << (9 + 2 * i)
    return c


def decode(c: int) -> Move:
    """The move of a kernel code (see :func:`code`)."""
    origin, jumps = c & 31, (c >> 5) & 15
    if not jumps:
        return _STEP_MOVES[origin][STEP[origin][(c >> 9) & 3]]
    path, caps, cell = [origin], [], origin
    for i in range(jumps):
        j = JUMP[cell][(c >> (9 + 2 * i)) & 3]
        assert j is not None
        caps.append(j[0])
        cell = j[1]
        path.append(cell)
    return Move(tuple(path), tuple(caps))


class Checkers:
    """The American checkers rules engine (see the module docstring for the rules).

    Made where the compiled core is in use (:mod:`arbiter.core`), its move lists come
    from C (``csrc/checkers.c``) and ``compiled`` lets the search and perft run there
    whole; otherwise every rule is the Python above.
    """

    name = "checkers"
    num_players = 2

    def __init__(self, max_plies: int = 1000, plain_draws: bool = False) -> None:
        self.max_plies = max_plies
        self.plain_draws = plain_draws
        self.compiled = core.compiled_rules("checkers", self.pack, code, self.unpack)
        self._decoded = core.DecodedMoves(decode)

    def pack(self, s: State) -> bytes:
        """``s`` as the compiled kernel's state (the repetition list padded to its
        fixed length)."""
        header = _HEADER.pack(
            s.pieces[0],
            s.pieces[1],
            s.kings,
            s.to_move,
            s.ply,
            s.quiet,
            core.ply_cap(self.max_plies),
            self.plain_draws,
            len(s.history),
        )
        keys = b"".join(_KEY.pack(*k) for k in s.history[-_HISTORY:])
        return header + keys + bytes(_KEY.size * (_HISTORY - len(s.history)))

    def unpack(self, data: bytes) -> State:
        """The state :meth:`pack` made ``data`` of (its last ``_HISTORY`` keys: 80
        quiet plies end a game before it has more).

        :raises struct.error: if ``data`` is not a packed state's size.
        """
        red, white, kings, to_move, ply, quiet, _, _, n = _HEADER.unpack_from(data)
        keys = tuple(_KEY.unpack_from(data, _HEADER.size + _KEY.size * i) for i in range(n))
        return State((red, white), kings, to_move, ply, quiet, keys)

    def initial(self) -> State:
        """Returns the start position, red (player 1) to move."""
        return State((RED_START, WHITE_START), 0, RED)

    def to_move(self, s: State) -> Player:
        return s.to_move

    def _ended(self, s: State) -> bool:
        return (
            s.ply >= self.max_plies or s.quiet >= NO_PROGRESS_PLIES or s.history.count(s.key) >= 2
        )

    def legal_moves(self, s: State) -> list[Move]:
        """Returns the legal moves sorted by path; captures only, when any exists."""
        if self._ended(s):
            return []
        if self.compiled is not None:
            return self._decoded(self.compiled.legal(s))
        moves = captures_of(s) or steps_of(s)
        moves.sort()
        return moves

    def apply(self, s: State, m: Move) -> State:
        """Returns the position after the (trusted) legal move ``m``."""
        p = s.to_move
        origin, target = m.path[0], m.path[-1]
        own = s.pieces[p] & ~(1 << origin) | (1 << target)
        taken = 0
        for c in m.captures:
            taken |= 1 << c
        enemy = s.pieces[1 - p] & ~taken
        kings = s.kings & ~taken
        was_king = (kings >> origin) & 1
        if was_king:
            kings = kings & ~(1 << origin) | (1 << target)
        elif (CROWN_ROW[p] >> target) & 1:
            kings |= 1 << target
        pieces = (own, enemy) if p == RED else (enemy, own)
        history: tuple[tuple[int, int, int, int], ...] = ()
        if m.captures or not was_king:
            quiet = 0
        else:
            quiet, history = s.quiet + 1, (*s.history, s.key)
        return State(pieces, kings, 1 - p, s.ply + 1, quiet, history)

    def outcome(self, s: State) -> Outcome | None:
        """Returns the result once decided, else None."""
        p = s.to_move
        if not s.pieces[p]:
            return Outcome(1 - p, Reason.NO_PIECES)
        if s.ply >= self.max_plies:
            return Outcome(None, Reason.MOVE_LIMIT, f"{s.ply} plies")
        if s.history.count(s.key) >= 2:
            return self._by_count(s, Reason.REPETITION)
        if s.quiet >= NO_PROGRESS_PLIES:
            return self._by_count(s, Reason.NO_PROGRESS)
        if not capturers(s) and not has_step(s):
            return Outcome(1 - p, Reason.NO_MOVES)
        return None

    def _by_count(self, s: State, reason: Reason) -> Outcome:
        red, white = s.pieces[0].bit_count(), s.pieces[1].bit_count()
        detail = f"{red} red pieces to {white} white"
        if self.plain_draws or red == white:
            return Outcome(None, reason, detail)
        return Outcome(RED if red > white else WHITE, reason, detail)

    def position_key(self, s: State) -> tuple[int, int, int, int]:
        """Returns (red, white, kings, side to move)."""
        return s.key
