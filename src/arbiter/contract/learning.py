"""What a learning environment asks of a game: its positions as arrays, its moves as
numbered actions.

Every game with a board has one without writing anything: the board's encoding
(:class:`arbiter.envs.encoding.BoardEncoding`) lays the board's cells on a grid and
numbers a move's legs from cell to cell, reading only what the board declares. A
game may give its own instead, as pgx lets each game own its observation and
actions: an ``encoding`` module in its folder whose ``encoding(rules)`` returns an
:class:`Encoding` for the rules engine it is given (one-pile Nim's is three actions,
"take one, two or three", and the pile as one plane). The environments use only
what this protocol declares, whichever encoding a game has.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Protocol, TypeVar

from arbiter.game import Game, Player

if TYPE_CHECKING:  # the contract loads no array library; a game's encoding does
    import numpy as np
    import numpy.typing as npt

S = TypeVar("S")
M = TypeVar("M", bound=Hashable)
S_in = TypeVar("S_in", contravariant=True)
M_in = TypeVar("M_in", bound=Hashable, contravariant=True)


class Encoding(Protocol[S_in, M_in]):
    """One game's observations and actions.

    A move is played as one or more actions by the same agent (a capture chain one
    jump at a time); no legal move's actions may be the start of another's, so a move
    is complete exactly when its actions are a legal move's.
    """

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape of every observation."""
        ...

    @property
    def actions(self) -> int:
        """How many actions there are: they are numbered ``0 .. actions - 1``."""
        ...

    def actions_of(self, s: S_in, m: M_in) -> tuple[int, ...]:
        """The actions that play the legal move ``m`` in ``s``, in order (at least one)."""
        ...

    def observation(self, s: S_in, seat: Player, played: Sequence[int]) -> npt.NDArray[np.int8]:
        """``s`` from ``seat``'s side as 0s and 1s of :attr:`shape`; ``played`` the
        actions of the move being made so far (empty between moves)."""
        ...

    def action_text(self, action: int) -> str:
        """What ``action`` stands for, in the game's words (``e2 to e4``, ``take 2``).

        :raises ValueError: if ``action`` is not one of the game's actions.
        """
        ...


EncodingOf = Callable[[Game[S, M]], Encoding[S, M]]
"""A game's ``encoding`` function: its encoding for a rules engine with given options."""
