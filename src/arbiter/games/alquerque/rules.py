"""Alquerque rules (CodeCup 2008, 7x7), exactly as the sheet and RULES.md give them.

Points are cells ``7 * rank + file`` with files a..g and ranks 1..7 both 0..6, so
``a1`` is cell 0 and ``g7`` cell 48; contest names appear only in
:mod:`arbiter.games.alquerque.notation`.

- Every point joins its orthogonal neighbours; diagonal lines run only through
  points whose file index + rank index is even (a1, c1, ..., b2, d2, ...).
- White (seat 0, 24 pieces) starts on ranks 1-3 and e4, f4, g4; black (seat 1, 24)
  on ranks 5-7 and a4, b4, c4; d4 is empty. White moves first.
- A normal move steps along a line to an empty adjacent point, in any direction.
  A capture jumps an adjacent enemy piece along a line to the empty point just
  behind it; the captured piece leaves at once. Capturing is compulsory; a capture
  must go on while the capturing piece can capture again, the direction may change,
  and any branch may be chosen. Every distinct path is its own move (the notation
  lists every landing point), so two paths taking the same pieces in another order
  are two moves.
- No going back: a normal move may not be the exact reverse of the same player's
  previous move when that was a normal move; captures are never restricted, and a
  capture clears the restriction.
- A player wins on capturing the last enemy piece, or when the opponent has no valid
  move on its turn. The game is a tie once both players have made 100 moves
  (200 plies), also when black's 100th move leaves white without a move; the last
  enemy piece captured on that move still wins.
- Safety cap: ``max_plies`` (default 1000) draws a game that somehow gets there; the
  100-move tie ends every game long before.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from arbiter import core
from arbiter.bitboard import bits, mask
from arbiter.game import Outcome, Player, Reason
from arbiter.moves import PathMove

WHITE, BLACK = 0, 1
SIZE = 7
TIE_PLIES = 200
"""The sheet: a tie after both players have made 100 moves."""

_ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
_DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def cell(file: int, rank: int) -> int:
    """The cell of a point (file and rank 0..6)."""
    return SIZE * rank + file


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < SIZE and 0 <= rank < SIZE


def _tables() -> tuple[list[tuple[int, ...]], list[tuple[tuple[int, int], ...]]]:
    """Per cell: the adjacent cells along its lines, and the (over, land) jump pairs."""
    steps: list[tuple[int, ...]] = []
    jumps: list[tuple[tuple[int, int], ...]] = []
    for c in range(SIZE * SIZE):
        rank, file = divmod(c, SIZE)
        dirs = _ORTHOGONAL + (_DIAGONAL if (file + rank) % 2 == 0 else ())
        near, far = [], []
        for df, dr in dirs:
            if _on_board(file + df, rank + dr):
                near.append(cell(file + df, rank + dr))
                if _on_board(file + 2 * df, rank + 2 * dr):
                    far.append((cell(file + df, rank + dr), cell(file + 2 * df, rank + 2 * dr)))
        steps.append(tuple(near))
        jumps.append(tuple(far))
    return steps, jumps


STEPS, JUMPS = _tables()
WHITE_START = mask(range(21)) | mask(cell(f, 3) for f in (4, 5, 6))
BLACK_START = mask(range(28, 49)) | mask(cell(f, 3) for f in (0, 1, 2))


Move = PathMove
"""A whole turn: ``path`` the cells visited (start first), ``captures`` the cells jumped,
in order (empty for a normal move)."""


@dataclass(frozen=True, slots=True)
class State:
    """An Alquerque position.

    ``pieces`` are the white and black bitboards; ``back[p]`` is seat ``p``'s last
    move as ``(from, to)`` when it was a normal move (the move it may not reverse),
    else ``None``.
    """

    pieces: tuple[int, int]
    to_move: Player
    ply: int = 0
    back: tuple[tuple[int, int] | None, tuple[int, int] | None] = (None, None)


def _chains(
    start: int,
    at: int,
    own: int,
    enemy: int,
    path: tuple[int, ...],
    taken: tuple[int, ...],
    out: list[Move],
) -> None:
    """Adds every complete capture chain of the piece that left ``start`` and stands on
    ``at`` (``own`` and ``enemy`` as they are now: captured pieces gone at once)."""
    extended = False
    empty_of = ~(own | enemy) | (1 << start)
    for over, land in JUMPS[at]:
        if (enemy >> over) & 1 and (empty_of >> land) & 1 and land != at:
            extended = True
            _chains(start, land, own, enemy & ~(1 << over), (*path, land), (*taken, over), out)
    if not extended and taken:
        out.append(Move(path, taken))


def captures_of(s: State) -> list[Move]:
    """Every capture of the side to move (complete chains)."""
    p = s.to_move
    own, enemy = s.pieces[p], s.pieces[1 - p]
    out: list[Move] = []
    for c in bits(own):
        _chains(c, c, own & ~(1 << c), enemy, (c,), (), out)
    return out


def steps_of(s: State) -> list[Move]:
    """Every normal move of the side to move that does not go back."""
    p = s.to_move
    own = s.pieces[p]
    empty = ~(s.pieces[0] | s.pieces[1])
    back = s.back[p]
    forbidden = None if back is None else (back[1], back[0])
    out = []
    for c in bits(own):
        for n in STEPS[c]:
            if (empty >> n) & 1 and (c, n) != forbidden:
                out.append(Move((c, n)))
    return out


def has_move(s: State) -> bool:
    """True when the side to move has a valid move (without listing the moves)."""
    p = s.to_move
    own, enemy = s.pieces[p], s.pieces[1 - p]
    empty = ~(own | enemy)
    back = s.back[p]
    forbidden = None if back is None else (back[1], back[0])
    for c in bits(own):
        for over, land in JUMPS[c]:
            if (enemy >> over) & 1 and (empty >> land) & 1:
                return True
        for n in STEPS[c]:
            if (empty >> n) & 1 and (c, n) != forbidden:
                return True
    return False


#: the kernel's eight directions, as the step from a cell (file + 7 * rank)
_DELTAS = (1, -1, 7, -7, 8, -6, 6, -8)
_DIRECTION_OF = {delta: d for d, delta in enumerate(_DELTAS)}
_PACKED = struct.Struct("<QQiiibbbb")


def code(m: Move) -> int:
    """``m`` as the compiled kernel's code: its origin, its number of captures (0 for
    a normal move) and the direction of the step or of each jump, three bits each."""
    path = m.path
    if not m.captures:
        return path[0] | _DIRECTION_OF[path[1] - path[0]] << 11
    c = path[0] | len(m.captures) << 6
    for i in range(len(m.captures)):
        c |= _DIRECTION_OF[(path[i + 1] - path[i]) // 2] << (11 + 3 * i)
    return c


def decode(c: int) -> Move:
    """The move of a kernel code (see :func:`code`)."""
    origin, jumps = c & 63, (c >> 6) & 31
    if not jumps:
        return Move((origin, origin + _DELTAS[(c >> 11) & 7]))
    path, caps, at = [origin], [], origin
    for i in range(jumps):
        delta = _DELTAS[(c >> (11 + 3 * i)) & 7]
        caps.append(at + delta)
        at += 2 * delta
        path.append(at)
    return Move(tuple(path), tuple(caps))


class Alquerque:
    """The Alquerque rules engine (see the module docstring for the rules).

    Made where the compiled core is in use (:mod:`arbiter.core`), its move lists come
    from C (``csrc/alquerque.c``) and ``compiled`` lets the search and perft run
    there whole; otherwise every rule is the Python above.
    """

    name = "alquerque"
    num_players = 2

    def __init__(self, max_plies: int = 1000) -> None:
        self.max_plies = max_plies
        self.compiled = core.compiled_rules("alquerque", self.pack, code, self.unpack)
        self._decoded = core.DecodedMoves(decode)

    def pack(self, s: State) -> bytes:
        """``s`` as the compiled kernel's state."""
        w = s.back[0] or (-1, -1)
        b = s.back[1] or (-1, -1)
        cap = core.ply_cap(self.max_plies)
        return _PACKED.pack(s.pieces[0], s.pieces[1], s.to_move, s.ply, cap, *w, *b)

    def unpack(self, data: bytes) -> State:
        """The state :meth:`pack` made ``data`` of.

        :raises struct.error: if ``data`` is not a packed state's size.
        """
        first, second, to_move, ply, _, *back = _PACKED.unpack(data)
        w = (back[0], back[1]) if back[0] >= 0 else None
        b = (back[2], back[3]) if back[2] >= 0 else None
        return State((first, second), to_move, ply, (w, b))

    def initial(self) -> State:
        """Returns the contest's start position, white to move."""
        return State((WHITE_START, BLACK_START), WHITE)

    def to_move(self, s: State) -> Player:
        return s.to_move

    def legal_moves(self, s: State) -> list[Move]:
        """Returns the legal moves sorted by path; captures only, when any exists."""
        if not s.pieces[s.to_move] or s.ply >= min(TIE_PLIES, self.max_plies):
            return []
        return self._moves(s)

    def _moves(self, s: State) -> list[Move]:
        if self.compiled is not None:
            return self._decoded(self.compiled.legal(s))
        moves = captures_of(s) or steps_of(s)
        moves.sort()
        return moves

    def apply(self, s: State, m: Move) -> State:
        """Returns the position after the (trusted) legal move ``m``."""
        p = s.to_move
        own = s.pieces[p] & ~(1 << m.origin) | (1 << m.target)
        enemy = s.pieces[1 - p]
        for c in m.captures:
            enemy &= ~(1 << c)
        pieces = (own, enemy) if p == WHITE else (enemy, own)
        last = None if m.captures else (m.origin, m.target)
        back = (last, s.back[1]) if p == WHITE else (s.back[0], last)
        return State(pieces, 1 - p, s.ply + 1, back)

    def outcome(self, s: State) -> Outcome | None:
        """Returns the result once decided: the last piece captured, the 100-move tie,
        no valid move, or the safety cap."""
        p = s.to_move
        if not s.pieces[p]:
            return Outcome(1 - p, Reason.NO_PIECES)
        if s.ply >= TIE_PLIES:
            return Outcome(None, Reason.MOVE_LIMIT, "both players made 100 moves")
        if s.ply >= self.max_plies:
            return Outcome(None, Reason.MOVE_LIMIT, f"{s.ply} plies")
        if not has_move(s):
            return Outcome(1 - p, Reason.NO_MOVES)
        return None

    def position_key(self, s: State) -> tuple[int, int, int, object, int]:
        """Returns (white, black, side to move, the moves neither side may reverse,
        ply): all that decides the future, the 100-move tie included."""
        return (s.pieces[0], s.pieces[1], s.to_move, s.back, s.ply)
