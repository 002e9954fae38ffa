"""Moves that walk a path of cells, capturing by jumping: a whole turn of checkers or
Alquerque, a capture chain included. The two games share the shape, not their
rules; each game's notation writes them its own way."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, order=True)
class PathMove:
    """A whole turn: ``path`` the cells visited (start first), ``captures`` the cells
    jumped, in order (empty for a move that captures nothing)."""

    path: tuple[int, ...]
    captures: tuple[int, ...] = ()

    @property
    def origin(self) -> int:
        return self.path[0]

    @property
    def target(self) -> int:
        return self.path[-1]
