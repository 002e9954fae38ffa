"""A game's board as the browser shows it and a person enters moves on it: the
geometry one renderer draws for every game, the pieces of a position, and how a
move is clicked (its piece, then each landing point).

Each game's ``board`` module builds its :class:`BoardView` from its rules' tables;
the web app asks the game's spec for it and knows nothing of any game. Coordinates
are in cell units, the board as the contest's diagrams and the terminal show it;
``bottom`` is the seat whose side is at the bottom there, so the page can turn the
board to put the person's side nearest them. Pieces are given per cell as ``"0"`` or
``"1"`` (the seat that owns it), with ``"K"`` added for a checkers king.

The page never decides legality: it asks the server which cells may be clicked next
after the ones clicked so far (:meth:`Clicks.continuations`), and sends the whole
path when the server says it is a move. Two kinds of game:

- *Whole paths* (Votey, checkers, Alquerque): every legal move has one path, its
  start and each landing (a capture chain's every landing), and the continuations
  are the next cells of the legal paths that begin with the clicks.
- *Hop chains* (Halma, Chinese checkers): a move is its start and end, and any
  chain of single hops between them is a way of entering it; after each landing the
  continuations are the single hops from there that can still end the move legally,
  and the clicks are a move when their last cell is a legal end. A step to a
  neighbour is a move of two clicks.
- *Drops* (Connect Four, a game of placing): a move is the one cell it puts a piece
  on; the continuations of no click are the cells the legal moves fill.

Each kind also says a move's *legs* (:meth:`Clicks.legs`), the (from, to) cell pairs
a learning environment numbers its actions by: a whole path's every step, a hop
chain's start and end, a drop's one cell as ``(cell, cell)``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Generic, Protocol, TypeVar

from arbiter.bitboard import bits
from arbiter.errors import ConfigError

S = TypeVar("S")
M = TypeVar("M", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Cell:
    """A place a piece can stand: its id (the rules' cell number), its centre, the
    contest's name for it, and its shading (``light``, ``dark``, ``camp0``, ``home1``,
    ``neutral``, ``point``)."""

    id: int
    x: float
    y: float
    label: str
    shade: str


PIECE_COLOURS = ("black", "white", "red", "blue", "yellow", "green")
"""The colours the board draws pieces in (each a class of the web app's stylesheet)."""


@dataclass(frozen=True, slots=True)
class Layout:
    """A board: its cells, the lines drawn between points, its size in cell units, how
    cells are drawn (``square`` tiles, or ``point`` and ``hole`` circles), and the seat
    whose side is at the bottom, and each seat's piece colour (as its contest names
    the sides)."""

    game: str
    width: float
    height: float
    shape: str
    cells: tuple[Cell, ...]
    lines: tuple[tuple[float, float, float, float], ...] = ()
    bottom: int = 0
    colours: tuple[str, str] = ("black", "white")

    def __post_init__(self) -> None:
        """:raises ConfigError: naming a piece colour the board does not draw."""
        for colour in self.colours:
            if colour not in PIECE_COLOURS:
                raise ConfigError(
                    f"{self.game}: the board draws no {colour!r} pieces "
                    f"(colours: {', '.join(PIECE_COLOURS)})"
                )

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def two_sides(s: Any) -> dict[str, str]:
    """The pieces of a position whose ``pieces[p]`` are seat ``p``'s pieces as bits,
    by cell id (as text, for JSON)."""
    return {str(c): str(p) for p in (0, 1) for c in bits(s.pieces[p])}


@dataclass(frozen=True, slots=True)
class Continuation(Generic[M]):
    """What may follow the clicks: the cells that continue them, and the move they
    make if they are one already (a hop chain may stop or go on)."""

    next: tuple[int, ...]
    move: M | None


class WholePaths:
    """Games whose every move has one path of clicks."""

    def __init__(self, path: Callable[[Any], tuple[int, ...]]) -> None:
        self.path = path

    def continuations(self, game: Any, s: Any, clicks: Sequence[int]) -> Continuation[Any]:
        n = len(clicks)
        following: set[int] = set()
        move = None
        for m in game.legal_moves(s):
            p = self.path(m)
            if tuple(p[:n]) != tuple(clicks):
                continue
            if len(p) == n:
                move = m
            else:
                following.add(p[n])
        return Continuation(tuple(sorted(following)), move)

    def move_path(self, s: Any, m: Any) -> tuple[int, ...]:
        """The cells of the legal move ``m``: its one path."""
        return self.path(m)

    def legs(self, s: Any, m: Any) -> tuple[tuple[int, int], ...]:
        """Each step of the legal move ``m``'s path (one cell: a leg onto itself)."""
        path = self.path(m)
        return tuple(itertools.pairwise(path)) if len(path) > 1 else ((path[0], path[0]),)


class HopChains:
    """Games whose moves are a start and an end, reached by a step or a chain of hops.

    ``hops(s, start, at)`` lists the single hops from ``at`` for the piece that left
    ``start`` (its start counting as empty); ``make(s, start, clicks)`` builds the move.
    """

    def __init__(
        self,
        hops: Callable[[Any, int, int], set[int]],
        make: Callable[[int, Sequence[int]], Any],
        neighbours: Sequence[Sequence[int]],
    ) -> None:
        self.hops = hops
        self.make = make
        self.neighbours = neighbours

    def move_path(self, s: Any, m: Any) -> tuple[int, ...]:
        """The cells of the legal move ``m``: the chain it was made by where it has
        one (Halma's ``hops``), else a shortest chain of clicks to its end."""
        if getattr(m, "hops", ()):
            return (m.origin, *m.hops)
        return self.path(s, m)

    def legs(self, s: Any, m: Any) -> tuple[tuple[int, int], ...]:
        """The legal move ``m`` as one leg, its start to its end (two chains to one
        end are one move)."""
        return ((m.origin, m.target),)

    def path(self, s: Any, m: Any) -> tuple[int, ...]:
        """A shortest chain of clicks for the legal move ``m`` (for showing it)."""
        if m.target in self.neighbours[m.origin]:
            return (m.origin, m.target)
        chains: dict[int, tuple[int, ...]] = {m.origin: (m.origin,)}
        frontier = [m.origin]
        while frontier and m.target not in chains:
            following = []
            for at in frontier:
                for land in sorted(self.hops(s, m.origin, at)):
                    if land not in chains:
                        chains[land] = (*chains[at], land)
                        following.append(land)
            frontier = following
        return chains.get(m.target, (m.origin, m.target))

    def continuations(self, game: Any, s: Any, clicks: Sequence[int]) -> Continuation[Any]:
        legal = game.legal_moves(s)
        if not clicks:
            return Continuation(tuple(sorted({m.origin for m in legal})), None)
        start = clicks[0]
        ends = {m.target: m for m in legal if m.origin == start}
        if not ends:
            return Continuation((), None)
        at = clicks[-1]
        if len(clicks) == 2 and at in self.neighbours[start]:
            return Continuation((), self._move(ends, start, clicks))
        if len(clicks) > 1 and not self._chained(s, clicks):
            return Continuation((), None)
        following = {
            land
            for land in self.hops(s, start, at)
            if land not in clicks and self._leads_to(s, start, land, clicks, ends)
        }
        if len(clicks) == 1:
            following |= {n for n in self.neighbours[start] if n in ends}
        move = self._move(ends, start, clicks) if len(clicks) > 1 else None
        return Continuation(tuple(sorted(following)), move)

    def _chained(self, s: Any, clicks: Sequence[int]) -> bool:
        """True when every click after the first is one hop on from the one before."""
        return all(b in self.hops(s, clicks[0], a) for a, b in itertools.pairwise(clicks))

    def _leads_to(
        self, s: Any, start: int, land: int, clicks: Sequence[int], ends: dict[int, Any]
    ) -> bool:
        """True when a chain going on from ``land`` can still end the move legally."""
        seen = {*clicks, land}
        frontier = [land]
        while frontier:
            at = frontier.pop()
            if at in ends:
                return True
            for nxt in self.hops(s, start, at):
                if nxt not in seen:
                    seen.add(nxt)
                    frontier.append(nxt)
        return False

    def _move(self, ends: dict[int, Any], start: int, clicks: Sequence[int]) -> Any:
        return self.make(start, clicks) if clicks[-1] in ends else None


class Drops:
    """Games whose every move fills one cell, which depends on the position (a
    Connect Four column fills its lowest empty cell): ``cell(s, m)`` is that cell."""

    def __init__(self, cell: Callable[[Any, Any], int]) -> None:
        self.cell = cell

    def continuations(self, game: Any, s: Any, clicks: Sequence[int]) -> Continuation[Any]:
        filled = {self.cell(s, m): m for m in game.legal_moves(s)}
        if not clicks:
            return Continuation(tuple(sorted(filled)), None)
        move = filled.get(clicks[0]) if len(clicks) == 1 else None
        return Continuation((), move)

    def move_path(self, s: Any, m: Any) -> tuple[int, ...]:
        """The one cell the legal move ``m`` fills."""
        return (self.cell(s, m),)

    def legs(self, s: Any, m: Any) -> tuple[tuple[int, int], ...]:
        """The legal move ``m`` as a leg onto the cell it fills."""
        cell = self.cell(s, m)
        return ((cell, cell),)


class Clicks(Protocol):
    """How a game's moves are clicked (:class:`WholePaths`, :class:`HopChains`,
    :class:`Drops`)."""

    def continuations(self, game: Any, s: Any, clicks: Sequence[int]) -> Continuation[Any]:
        """The cells that may follow ``clicks`` in ``s``, and the move they make if any."""
        ...

    def move_path(self, s: Any, m: Any) -> tuple[int, ...]:
        """The cells of the legal move ``m`` in ``s``, start first (for showing it)."""
        ...

    def legs(self, s: Any, m: Any) -> tuple[tuple[int, int], ...]:
        """The legal move ``m`` in ``s`` as the (from, to) cell pairs a learning
        environment numbers its actions by, in the order they are played."""
        ...


@dataclass(frozen=True, slots=True)
class BoardView(Generic[S]):
    """A game's board for the browser: its layout, its pieces in a position (by cell
    id), how its moves are clicked (the cells a move starts from are the
    continuations of no click), and ``forced``, for a game with compulsory moves:
    what compels the side to move in a position, said to the person (``None`` when
    it is free to choose)."""

    layout: Layout
    pieces: Callable[[S], dict[str, str]]
    clicks: Clicks
    forced: Callable[[Any, S], str | None] | None = None


def compulsory_captures(game: Any, s: Any) -> str | None:
    """``forced`` for a game whose moves say what they capture (``captures``) and
    where a capture, when there is one, must be played (checkers, Alquerque)."""
    legal = game.legal_moves(s)
    return "a capture is compulsory" if legal and all(m.captures for m in legal) else None
