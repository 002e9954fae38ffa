"""A game's positions as tensors and its moves as numbered actions, for learning: the
game's own encoding where its folder has one (:mod:`arbiter.contract.learning`), else
the board's.

The board's encoding is built from the game's board
(:class:`~arbiter.contract.layout.BoardView`), so every game with a board in the browser
has it, and nothing here knows one game from another:

- **The grid**: the board's cells laid on a rectangle by their drawn centres (8x8 for
  Votey and checkers, 7x7 points for Alquerque, 16x16 for Halma, 17 rows by 25 half-steps
  for the Chinese checkers star, where a channel marks the holes that exist).
- **Actions**: ``a * N + b`` (``N`` cells) moves "from cell ``a`` to cell ``b``". A move
  is one or more such *legs*, as the board's way of clicking declares them
  (:meth:`~arbiter.contract.layout.Clicks.legs`): a Votey move, a Halma or Chinese
  checkers step or whole hop chain is one leg from its start to its end (two chains to
  one square are one move); a checkers or Alquerque capture chain is one leg per jump,
  and the player who is in the middle of a chain acts again until it is complete (as
  OpenSpiel does for checkers); a drop (Connect Four's) is the leg ``(c, c)`` onto the
  cell it fills. In these games no move's path is the start of another's, so a chain
  is complete exactly when its legs are a legal move's.
- **Observations**: ``(rows, columns, CHANNELS)`` of 0/1, from the observing seat's
  side: its pieces, the opponent's, kings (checkers), the path of the move being made
  (a chain's start and landings so far), the cells that exist, and a plane of ones
  when the observer is the second seat (so one network can play both seats). The
  pieces are the board's (:attr:`~arbiter.contract.layout.BoardView.pieces`): nothing
  here reads a position's or a move's insides.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt

from arbiter.contract import GameSpec
from arbiter.contract.layout import BoardView
from arbiter.contract.learning import Encoding
from arbiter.errors import ConfigError
from arbiter.game import Game, Player

S = TypeVar("S")
M = TypeVar("M", bound=Hashable)

CHANNELS = ("mine", "theirs", "kings", "path", "board", "second")
"""What each plane of an observation holds, in order."""

Leg = tuple[int, int]
"""One step of a move: from a cell to a cell."""


def _axis(values: Sequence[float]) -> dict[float, int]:
    """Each distinct coordinate with its index, smallest first."""
    return {v: i for i, v in enumerate(sorted(set(values)))}


@dataclass(frozen=True, slots=True)
class Grid:
    """Where each cell lies on the observation's rectangle."""

    rows: int
    columns: int
    row_of: tuple[int, ...]
    column_of: tuple[int, ...]

    @classmethod
    def of(cls, view: BoardView[Any]) -> Grid:
        """The grid of a board: rows by the cells' drawn heights (top first), columns by
        their drawn positions across."""
        cells = sorted(view.layout.cells, key=lambda c: c.id)
        ys = _axis([c.y for c in cells])
        xs = _axis([c.x for c in cells])
        return cls(len(ys), len(xs), tuple(ys[c.y] for c in cells), tuple(xs[c.x] for c in cells))


def encoding_of(spec: GameSpec[S, M], rules: Game[S, M]) -> Encoding[S, M]:
    """The encoding the environments use for ``rules``: the game's own, or its board's.

    :raises ConfigError: if the game has neither its own encoding nor a board.
    """
    own = spec.own_encoding(rules)
    if own is not None:
        return own
    if spec.board is None:
        raise ConfigError(
            f"{spec.name} has neither a board nor an encoding of its own to learn it by"
        )
    return BoardEncoding(spec)


class BoardEncoding(Generic[S, M]):
    """One game's tensors and action numbers from its board (see the module docstring)."""

    def __init__(self, spec: GameSpec[S, M]) -> None:
        """:raises ConfigError: if the game has no board to lay out."""
        self.spec = spec
        self.view = spec.board_view()
        self.grid = Grid.of(self.view)
        self.cells = len(self.grid.row_of)
        self.actions = self.cells * self.cells
        rows, columns = np.array(self.grid.row_of), np.array(self.grid.column_of)
        self._rows, self._columns = rows, columns
        board = np.zeros((self.grid.rows, self.grid.columns), np.int8)
        board[rows, columns] = 1
        self._board = board
        self._labels = [c.label for c in sorted(self.view.layout.cells, key=lambda c: c.id)]

    @property
    def shape(self) -> tuple[int, int, int]:
        """The shape of an observation: rows, columns, channels."""
        return (self.grid.rows, self.grid.columns, len(CHANNELS))

    def legs(self, s: S, m: M) -> tuple[Leg, ...]:
        """The legs of the legal move ``m`` in ``s``, in the order they are played, as
        the board's way of clicking moves declares them."""
        return self.view.clicks.legs(s, m)

    def actions_of(self, s: S, m: M) -> tuple[int, ...]:
        """The actions of the legal move ``m`` in ``s``: one per leg."""
        return tuple(self.action(leg) for leg in self.legs(s, m))

    def action_text(self, action: int) -> str:
        """The leg in the board's labels: ``c3 to d4``.

        :raises ValueError: if ``action`` is not one of this game's actions.
        """
        a, b = self.leg(action)
        return f"{self._labels[a]} to {self._labels[b]}"

    def action(self, leg: Leg) -> int:
        """The action number of ``leg``."""
        return leg[0] * self.cells + leg[1]

    def leg(self, action: int) -> Leg:
        """The leg an action number stands for.

        :raises ValueError: if ``action`` is not one of this game's actions.
        """
        if not 0 <= action < self.actions:
            raise ValueError(f"action {action} is outside 0..{self.actions - 1}")
        return divmod(action, self.cells)

    def observation(self, s: S, seat: Player, played: Sequence[int]) -> npt.NDArray[np.int8]:
        """The observation of ``s`` from ``seat``'s side, its pieces as the board shows
        them (``"0"``, ``"1"``, a king with ``"K"``); ``played`` the actions of the move
        being made, whose cells (its start and landings so far) are the path plane."""
        legs = [self.leg(a) for a in played]
        path = [legs[0][0], *(b for _, b in legs)] if legs else []
        out = np.zeros(self.shape, np.int8)
        mine, theirs = str(seat), str(1 - seat)
        for cell, piece in self.view.pieces(s).items():
            c = int(cell)
            at = self._rows[c], self._columns[c]
            if piece.startswith(mine):
                out[at[0], at[1], 0] = 1
            elif piece.startswith(theirs):
                out[at[0], at[1], 1] = 1
            if piece.endswith("K"):
                out[at[0], at[1], 2] = 1
        for c in path:
            out[self._rows[c], self._columns[c], 3] = 1
        out[:, :, 4] = self._board
        if seat == 1:
            out[:, :, 5] = 1
        return out
