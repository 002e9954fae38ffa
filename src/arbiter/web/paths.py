"""Moves as the cells a person clicks: the piece, then each landing point.

The page never decides legality: it asks the server which cells may be clicked next
after the ones clicked so far (:func:`continuations`), and sends the whole path when
the server says it is a move. Two kinds of game:

- *Whole paths* (Votey, checkers, Alquerque): every legal move has one path, its
  start and each landing (a capture chain's every landing), and the continuations
  are the next cells of the legal paths that begin with the clicks.
- *Hop chains* (Halma, Chinese checkers): a move is its start and end, and any
  chain of single hops between them is a way of entering it; after each landing the
  continuations are the single hops from there that can still end the move legally,
  and the clicks are a move when their last cell is a legal end. A step to a
  neighbour is a move of two clicks.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from arbiter.games.chinese_checkers import rules as cc
from arbiter.games.halma import rules as halma

S = TypeVar("S")
M = TypeVar("M", bound=Hashable)


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


def _halma_hops(s: halma.State, start: int, at: int) -> set[int]:
    occupied = (s.pieces[0] | s.pieces[1]) & ~(1 << start)
    return {
        land
        for over, land in halma.HOPS[at]
        if (occupied >> over) & 1 and not (occupied >> land) & 1
    }


def _cc_hops(s: cc.State, start: int, at: int) -> set[int]:
    occupied = (s.pieces[0] | s.pieces[1]) & ~(1 << start)
    out = set()
    for line in cc.HOPS[at]:
        for over, clear, land in line:
            if occupied & over:
                if not occupied & clear:
                    out.add(land)
                break
    return out


def _halma_move(start: int, clicks: Sequence[int]) -> halma.Move:
    hops = () if clicks[-1] in halma.NEIGHBOURS[start] else tuple(clicks[1:])
    return halma.Move(start, clicks[-1], hops)


ENTRY: dict[str, WholePaths | HopChains] = {
    "votey": WholePaths(lambda m: (m.origin, m.target)),
    "checkers": WholePaths(lambda m: tuple(m.path)),
    "alquerque": WholePaths(lambda m: tuple(m.path)),
    "halma": HopChains(_halma_hops, _halma_move, halma.NEIGHBOURS),
    "chinese-checkers": HopChains(
        _cc_hops, lambda start, clicks: cc.Move(start, clicks[-1]), cc.NEIGHBOURS
    ),
}
"""How each game's moves are clicked."""


def continuations(game_name: str, game: Any, s: Any, clicks: Sequence[int]) -> Continuation[Any]:
    """The cells that may follow ``clicks`` in ``s``, and the move they make if any."""
    return ENTRY[game_name].continuations(game, s, clicks)


def move_path(game_name: str, s: Any, m: Any) -> tuple[int, ...]:
    """The cells of the legal move ``m`` in ``s``, start first (for showing it)."""
    entry = ENTRY[game_name]
    if isinstance(entry, HopChains):
        if getattr(m, "hops", ()):
            return (m.origin, *m.hops)
        return entry.path(s, m)
    return entry.path(m)


def origins(game: Any, s: Any) -> list[int]:
    """The cells whose piece has a legal move."""
    return sorted({m.origin for m in game.legal_moves(s)})
