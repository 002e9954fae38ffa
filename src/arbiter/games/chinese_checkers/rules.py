"""Two-player Chinese checkers on the 121-hole star (1997 ACM Hong Kong), exactly as
the sheet and RULES.md give it.

Holes are cells 0..120, cell = hole number - 1 in the first player's numbering:
bottom to top, left to right, the rows holding 1, 2, 3, 4, 13, 12, 11, 10, 9, 10,
11, 12, 13, 4, 3, 2, 1 holes. Contest numbers, and the second player's own
numbering (hole p seen as 122 - p), appear only in
:mod:`arbiter.games.chinese_checkers.notation`.

- Seat 0 moves first; its ten marbles start in its home, holes 1-10 (the bottom
  triangle), seat 1's in holes 112-121 (the top one). Each crosses to the other's
  home. The four other triangles are neutral (RULES.md: 108 is the tenth hole of the
  last one, which the sheet misprints as 109-111).
- A move is a step to an empty neighbour (six hex directions), or a chain of long
  hops by one marble: along a line from A, B is the first occupied hole at some
  distance k, and the marble lands on C at distance 2k, every hole from B to C on
  the board and, apart from B, empty. The marble's own start hole counts as empty
  during its chain. A move may pass through a neutral triangle but not end in one,
  and may not end where it started. Moves are identified by (start, end).
- Seat 0 wins by filling seat 1's home with its ten marbles, unless seat 1 fills
  seat 0's home on the very next move: that is a draw. Seat 1 wins by filling seat
  0's home first. A player with no legal move on its turn loses (RULES.md), and
  ``max_plies`` (default 1000) draws the game.
"""

from __future__ import annotations

from dataclasses import dataclass

from arbiter.bitboard import bits, mask
from arbiter.crossing import CrossingRules
from arbiter.game import Outcome, Player, Reason

ROW_LENGTHS = (1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1)
CELLS = sum(ROW_LENGTHS)
DIRECTIONS = ((2, 0), (-2, 0), (1, 1), (-1, 1), (1, -1), (-1, -1))
"""The six lines through a hole, in doubled coordinates (x in half-steps, row)."""


def _coordinates() -> list[tuple[int, int]]:
    """Per cell, (x, row): x in half-steps from the centre line, row 0 at the bottom."""
    out: list[tuple[int, int]] = []
    for row, length in enumerate(ROW_LENGTHS):
        out.extend((2 * i - (length - 1), row) for i in range(length))
    return out


COORDS = _coordinates()
_INDEX = {xy: c for c, xy in enumerate(COORDS)}


def _ray(c: int, dx: int, dy: int) -> tuple[int, ...]:
    """The holes along one line from ``c``, nearest first, up to the board's edge."""
    x, y = COORDS[c]
    out = []
    while (x + dx, y + dy) in _INDEX:
        x, y = x + dx, y + dy
        out.append(_INDEX[(x, y)])
    return tuple(out)


RAYS = [tuple(r for r in (_ray(c, dx, dy) for dx, dy in DIRECTIONS) if r) for c in range(CELLS)]
NEIGHBOURS = [tuple(r[0] for r in rays) for rays in RAYS]
HOMES = (mask(range(10)), mask(range(CELLS - 10, CELLS)))
"""Each seat's home triangle; seat ``p`` crosses to ``HOMES[1 - p]``."""
NEUTRAL = mask(
    h - 1
    for h in (
        *(11, 12, 13, 14, 24, 25, 26, 36, 37, 47),
        *(20, 21, 22, 23, 33, 34, 35, 45, 46, 56),
        *(66, 76, 77, 87, 88, 89, 99, 100, 101, 102),
        *(75, 85, 86, 96, 97, 98, 108, 109, 110, 111),
    )
)
"""The four neutral triangles, where no move may end."""
FULL = (1 << CELLS) - 1


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """A move by its start and end cells (a step or a whole hop chain)."""

    origin: int
    target: int


@dataclass(frozen=True, slots=True)
class State:
    """A position: ``pieces[p]`` are seat ``p``'s marbles as bits of cells."""

    pieces: tuple[int, int]
    to_move: Player
    ply: int = 0


def _hop_table(c: int) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Per line from ``c``, per distance k that fits on the board: (the bit of the hole
    k away, the holes that must then be empty: from just past it to the landing hole
    2k away, the landing cell)."""
    lines = []
    for ray in RAYS[c]:
        line = []
        for k in range(1, len(ray) // 2 + 1):
            line.append((1 << ray[k - 1], mask(ray[k : 2 * k]), ray[2 * k - 1]))
        if line:
            lines.append(tuple(line))
    return tuple(lines)


HOPS = [_hop_table(c) for c in range(CELLS)]


def hops_from(start: int, occupied: int) -> int:
    """Returns the cells a marble on ``start`` can reach by a chain of one or more long
    hops (``start`` included when a chain comes back), as bits; ``occupied`` holds
    every marble, the moving one's start counting as empty."""
    occupied &= ~(1 << start)
    reached = 0
    frontier = [start]
    while frontier:
        for line in HOPS[frontier.pop()]:
            for over, clear, land in line:
                if occupied & over:  # the first marble along the line
                    if not occupied & clear and not (reached >> land) & 1:
                        reached |= 1 << land
                        frontier.append(land)
                    break
    return reached


def steps_from(start: int, occupied: int) -> int:
    """The empty holes next to ``start`` a move may end on (never a neutral hole)."""
    steps = 0
    for n in NEIGHBOURS[start]:
        if not (occupied >> n) & 1:
            steps |= 1 << n
    return steps & ~NEUTRAL


def targets_from(start: int, occupied: int) -> int:
    """The cells a marble on ``start`` may end a move on: steps and hop chains, never a
    neutral hole and never its start."""
    return (steps_from(start, occupied) | hops_from(start, occupied)) & ~NEUTRAL & ~(1 << start)


def complete(s: State, p: Player) -> bool:
    """True when all of seat ``p``'s marbles stand in the other seat's home."""
    return s.pieces[p] == HOMES[1 - p]


#: every (start, end) as a Move, indexed by the kernel's code 128 * start + end
_MOVES = tuple(Move(c >> 7, c & 127) for c in range(128 * CELLS))


def code(m: Move) -> int:
    """``m`` as the compiled kernel's code."""
    return 128 * m.origin + m.target


class ChineseCheckers(CrossingRules[State, Move]):
    """The rules engine (see the module docstring for the rules); what it shares with
    Halma's is :class:`~arbiter.crossing.CrossingRules`, its compiled kernel
    ``csrc/chinese_checkers.c``."""

    name = "chinese-checkers"
    BOARD_BYTES = 16
    position = State
    code = staticmethod(code)

    def initial(self) -> State:
        """Returns the start: each seat's marbles at home, seat 0 to move."""
        return State(HOMES, 0)

    def legal_moves(self, s: State) -> list[Move]:
        """Returns the legal moves sorted by (start, end); none once the game is over."""
        if self._decided(s) is not None:
            return []
        return self._moves(s)

    def _moves(self, s: State) -> list[Move]:
        if self.compiled is not None:
            return [_MOVES[c] for c in self.compiled.legal(s)]
        occupied = s.pieces[0] | s.pieces[1]
        return [
            Move(a, b) for a in bits(s.pieces[s.to_move]) for b in bits(targets_from(a, occupied))
        ]

    def is_legal(self, s: State, m: Move) -> bool:
        """True when ``m`` is among ``legal_moves(s)``, without listing them all."""
        occupied = s.pieces[0] | s.pieces[1]
        return (
            (s.pieces[s.to_move] >> m.origin) & 1 == 1
            and (targets_from(m.origin, occupied) >> m.target) & 1 == 1
            and self._decided(s) is None
        )

    def _decided(self, s: State) -> Outcome | None:
        """The result by the crossing rules and the ply cap, before the no-move test."""
        first_done, second_done = complete(s, 0), complete(s, 1)
        if s.to_move == 0:  # seat 1 has just moved
            if first_done and second_done:
                return Outcome(None, Reason.BOTH_HOME, "the second crossed right after the first")
            if first_done:
                return Outcome(0, Reason.ALL_HOME)
            if second_done:
                return Outcome(1, Reason.ALL_HOME)
        elif second_done:  # only in a position set up so: seat 0 did not follow at once
            return Outcome(1, Reason.ALL_HOME)
        if s.ply >= self.max_plies:
            return Outcome(None, Reason.MOVE_LIMIT, f"{s.ply} plies")
        return None

    def _can_move(self, s: State) -> bool:
        occupied = s.pieces[0] | s.pieces[1]
        mine = list(bits(s.pieces[s.to_move]))
        # any move will do: a step is found without a hop search, so steps first
        if any(steps_from(a, occupied) for a in mine):
            return True
        return any(targets_from(a, occupied) for a in mine)
