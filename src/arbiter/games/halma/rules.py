"""Halma on a 16x16 board with 19-piece camps, exactly as the sheet and RULES.md give it.

Squares are cells 0..255, cell = 16 * y + x with ``x`` the column and ``y`` the row,
0,0 top left (the contest's own coordinates, which :mod:`arbiter.games.halma.notation`
writes as ``x,y``).

- Seat 0 is black and moves first (the sheet leaves the first mover to chance; the
  board is symmetric under the half turn, so white first is the same game seen from
  the other side). Black's camp is the 19 squares by 0,0: y=0 and y=1 x 0-4, y=2 x
  0-3, y=3 x 0-2, y=4 x 0-1; white's is the same turned half round (15-x, 15-y).
  Each starts with its camp full.
- A move is a step to an empty 8-neighbour, or a chain of one or more hops by one
  piece, each over an adjacent piece of either colour to the empty square just
  behind it. The piece's start square counts as empty during its chain; a chain may
  come back over the same piece. A move may not end where it started. Moves are
  identified by (start, end); a hop chain's landings are kept for the notation.
- Camp rules: (a) a piece outside its own camp may not end in it; a piece in the
  opposing camp may not leave it; (b) while a side has a piece in its own camp, it
  must move one out if it can, else move one within the camp further from its
  corner (no closer in either direction, further in at least one), and only if
  neither is possible may it move freely.
- The mover wins when every square of the opposing camp not held by the opponent
  holds one of its pieces, and it holds at least one of them (a side cannot win by
  filling a camp its opponent never left). A side with no legal move on its turn
  loses (RULES.md), and ``max_plies`` (default 1000) ends the game as a draw for the
  rules; the referee then gives it to the side with more time left (RULES.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from arbiter.bitboard import bits, mask
from arbiter.crossing import CrossingRules
from arbiter.game import Outcome, Player, Reason

SIZE = 16
CELLS = SIZE * SIZE
FULL = (1 << CELLS) - 1
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def cell(x: int, y: int) -> int:
    """The cell of column ``x``, row ``y``."""
    return SIZE * y + x


def xy(c: int) -> tuple[int, int]:
    """The (column, row) of cell ``c``."""
    return c % SIZE, c // SIZE


CAMP_ROWS = (5, 5, 4, 3, 2)
"""Black's camp, row by row from y=0: how many squares from x=0."""
BLACK_CAMP = mask(cell(x, y) for y, n in enumerate(CAMP_ROWS) for x in range(n))
WHITE_CAMP = mask(CELLS - 1 - c for c in bits(BLACK_CAMP))
CAMPS = (BLACK_CAMP, WHITE_CAMP)
"""Each seat's own camp (where it starts); it crosses to the other's."""
CORNERS = (cell(0, 0), cell(SIZE - 1, SIZE - 1))


def _on_board(x: int, y: int) -> bool:
    return 0 <= x < SIZE and 0 <= y < SIZE


NEIGHBOURS = tuple(
    tuple(cell(x + dx, y + dy) for dx, dy in DIRECTIONS if _on_board(x + dx, y + dy))
    for x, y in map(xy, range(CELLS))
)
HOPS = tuple(
    tuple(
        (cell(x + dx, y + dy), cell(x + 2 * dx, y + 2 * dy))
        for dx, dy in DIRECTIONS
        if _on_board(x + 2 * dx, y + 2 * dy)
    )
    for x, y in map(xy, range(CELLS))
)
"""Per cell, its (jumped-over cell, landing cell) pairs."""


COLUMNS_FROM = tuple(
    mask(cell(x, y) for x in range(a, SIZE) for y in range(SIZE)) for a in range(SIZE)
)
ROWS_FROM = tuple(
    mask(cell(x, y) for x in range(SIZE) for y in range(b, SIZE)) for b in range(SIZE)
)
"""The squares with x >= a, and those with y >= b."""


def _further(p: Player, c: int) -> int:
    """The squares further from seat ``p``'s corner than ``c``: no closer in either
    direction, and not ``c`` itself."""
    x, y = xy(c)
    if p == 0:
        squares = COLUMNS_FROM[x] & ROWS_FROM[y]
    else:
        squares = FULL & ~(COLUMNS_FROM[x + 1] if x + 1 < SIZE else 0)
        squares &= ~(ROWS_FROM[y + 1] if y + 1 < SIZE else 0)
    return squares & ~(1 << c)


FURTHER = tuple(tuple(_further(p, c) for c in range(CELLS)) for p in (0, 1))


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """A move by its start and end cells. ``hops`` are a hop chain's landings, the
    last being ``target`` (empty for a step); they are how the contest writes the
    move, not part of what it is, so two chains to one square are one move."""

    origin: int
    target: int
    hops: tuple[int, ...] = field(default=(), compare=False)

    @property
    def is_step(self) -> bool:
        """True for a step to a neighbour (else a hop chain)."""
        return self.target in NEIGHBOURS[self.origin]


@dataclass(frozen=True, slots=True)
class State:
    """A position: ``pieces[p]`` are seat ``p``'s pieces as bits of cells."""

    pieces: tuple[int, int]
    to_move: Player
    ply: int = 0


def hop_paths(start: int, occupied: int) -> dict[int, tuple[int, ...]]:
    """Returns every square a piece on ``start`` can reach by one or more hops, each
    with a shortest chain of landings to it (``start`` included when a chain comes
    back to it); ``occupied`` holds every piece, the moving one's start counting as
    empty."""
    occupied &= ~(1 << start)
    paths: dict[int, tuple[int, ...]] = {}
    frontier: list[tuple[int, tuple[int, ...]]] = [(start, ())]
    while frontier:
        following = []
        for at, path in frontier:
            for over, land in HOPS[at]:
                if (occupied >> over) & 1 and not (occupied >> land) & 1 and land not in paths:
                    landed = (*path, land)
                    paths[land] = landed
                    following.append((land, landed))
        frontier = following
    return paths


def hops_from(start: int, occupied: int) -> int:
    """Returns, as bits, the squares a piece on ``start`` can reach by hops (as
    :func:`hop_paths`, without the chains)."""
    occupied &= ~(1 << start)
    reached = 0
    frontier = [start]
    while frontier:
        at = frontier.pop()
        for over, land in HOPS[at]:
            if (occupied >> over) & 1 and not ((occupied | reached) >> land) & 1:
                reached |= 1 << land
                frontier.append(land)
    return reached


def reach(p: Player, start: int, occupied: int) -> int:
    """Returns, as bits, where seat ``p``'s piece on ``start`` may end a move by the
    board and camp rule 1(a) and the opposing camp's (not yet 1(b))."""
    ends = steps_from(start, occupied) | hops_from(start, occupied)
    return allowed(p, start, ends & ~(1 << start))


def steps_from(start: int, occupied: int) -> int:
    """Returns, as bits, the empty neighbours of ``start``."""
    steps = 0
    for n in NEIGHBOURS[start]:
        if not (occupied >> n) & 1:
            steps |= 1 << n
    return steps


def allowed(p: Player, start: int, ends: int) -> int:
    """Narrows ``ends`` by camp rule 1(a) and the opposing camp's: a piece outside its
    own camp may not end in it, and a piece in the opposing camp may not leave it."""
    if not (CAMPS[p] >> start) & 1:
        ends &= ~CAMPS[p]
    if (CAMPS[1 - p] >> start) & 1:
        ends &= CAMPS[1 - p]
    return ends


Paths = dict[int, tuple[int, ...]]


def _candidates(s: State) -> dict[int, tuple[int, Paths]]:
    """For each of the mover's pieces: the bits of the squares it may end on, after
    camp rule 1(a) and the opposing camp's, and its hop chains."""
    p = s.to_move
    occupied = s.pieces[0] | s.pieces[1]
    every = {}
    for a in bits(s.pieces[p]):
        paths = hop_paths(a, occupied)
        ends = steps_from(a, occupied) | mask(paths)
        every[a] = (allowed(p, a, ends & ~(1 << a)), paths)
    return every


def narrow(s: State, every: dict[int, int]) -> dict[int, int]:
    """Applies camp rule 1(b) to the pieces' ends, keeping only pieces that may move."""
    camp = CAMPS[s.to_move]
    at_home = [a for a in every if (camp >> a) & 1]
    if at_home:
        out = {a: every[a] & ~camp for a in at_home}
        if any(out.values()):
            every = out
        else:
            further = FURTHER[s.to_move]
            within = {a: every[a] & camp & further[a] for a in at_home}
            if any(within.values()):
                every = within
    return {a: e for a, e in every.items() if e}


def destinations(s: State) -> dict[int, int]:
    """Returns, for each of the mover's pieces that may move, the bits of the squares it
    may end on, after every camp rule."""
    p = s.to_move
    occupied = s.pieces[0] | s.pieces[1]
    return narrow(s, {a: reach(p, a, occupied) for a in bits(s.pieces[p])})


def can_move(s: State) -> bool:
    """True when the side to move has a legal move. Camp rule 1(b) only ever narrows a
    side's moves to some that exist, so this asks whether any piece may step or hop
    somewhere by rule 1(a) and the opposing camp's; steps first, as they are cheap."""
    p = s.to_move
    occupied = s.pieces[0] | s.pieces[1]
    mine = list(bits(s.pieces[p]))
    return any(allowed(p, a, steps_from(a, occupied)) for a in mine) or any(
        reach(p, a, occupied) for a in mine
    )


def has_crossed(s: State, p: Player) -> bool:
    """True when seat ``p`` holds every square of the opposing camp its opponent does
    not, and at least one."""
    target = CAMPS[1 - p]
    mine = s.pieces[p] & target
    return mine != 0 and target & ~s.pieces[1 - p] & ~mine == 0


def code(m: Move) -> int:
    """``m`` as the compiled kernel's code."""
    return 256 * m.origin + m.target


class Halma(CrossingRules[State, Move]):
    """The rules engine (see the module docstring for the rules); what it shares with
    Chinese checkers' is :class:`~arbiter.crossing.CrossingRules`, its compiled kernel
    (move lists with their hop chains) ``csrc/halma.c``."""

    name = "halma"
    BOARD_BYTES = 32
    position = State
    code = staticmethod(code)

    def initial(self) -> State:
        """Returns the start: each camp full, black (seat 0) to move."""
        return State(CAMPS, 0)

    def legal_moves(self, s: State) -> list[Move]:
        """Returns the legal moves sorted by (start, end), each hop chain with a
        shortest chain of landings; none once the game is over."""
        if self._decided(s) is not None:
            return []
        if self.compiled is not None:
            found = self.compiled.core.halma_moves(self.pack(s))
            return [Move(a, b, hops) for a, b, hops in found]
        candidates = _candidates(s)
        narrowed = narrow(s, {a: ends for a, (ends, _) in candidates.items()})
        moves: list[Move] = []
        for a, ends in sorted(narrowed.items()):
            paths = candidates[a][1]
            moves.extend(Move(a, b, paths.get(b, ())) for b in bits(ends))
        return moves

    def is_legal(self, s: State, m: Move) -> bool:
        """True when ``m`` (by start and end) is among ``legal_moves(s)``, searching the
        other pieces' moves only as far as camp rule 1(b) needs."""
        p, a, b = s.to_move, m.origin, m.target
        if not (s.pieces[p] >> a) & 1 or self._decided(s) is not None:
            return False
        occupied = s.pieces[0] | s.pieces[1]
        if not (reach(p, a, occupied) >> b) & 1:
            return False
        camp = CAMPS[p]
        at_home = s.pieces[p] & camp
        if not at_home or ((camp >> a) & 1 and not (camp >> b) & 1):
            return True  # free, or leaving the camp as rule 1(b) asks first
        if any(reach(p, c, occupied) & ~camp for c in bits(at_home)):
            return False  # some piece could have left the camp
        further = FURTHER[p]
        if (camp >> a) & 1 and (further[a] >> b) & 1:
            return True  # further from the corner, as rule 1(b) asks next
        return not any(reach(p, c, occupied) & further[c] & camp for c in bits(at_home))

    def _decided(self, s: State) -> Outcome | None:
        """The result by the camps and the ply cap, before the no-move test."""
        last = 1 - s.to_move
        if has_crossed(s, last):
            return Outcome(last, Reason.ALL_HOME)
        if has_crossed(s, s.to_move):  # only in a position set up so
            return Outcome(s.to_move, Reason.ALL_HOME)
        if s.ply >= self.max_plies:
            return Outcome(None, Reason.MOVE_LIMIT, f"{s.ply} plies")
        return None

    def _can_move(self, s: State) -> bool:
        return can_move(s)
