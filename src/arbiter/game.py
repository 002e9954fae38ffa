"""The contract every rules engine meets, and the values shared by all games.

A game is a set of pure functions over immutable states (as in pgx): nothing is
mutated, so states can be shared between threads, processes and search trees.
``apply`` is the trusted fast path (it assumes the move came from
``legal_moves``); :func:`play` is the checked path, written once here.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Protocol, TypeVar

from arbiter.errors import IllegalMove, Reason

__all__ = ["Ending", "Game", "Outcome", "Player", "Reason", "RuleEnd", "play"]

Player = int
"""A seat: 0 moves first, 1 moves second. Not a colour name."""

S = TypeVar("S")
M = TypeVar("M", bound=Hashable)


_END_NAME = re.compile(r"[a-z][a-z0-9 '-]{0,39}")
_PLATFORM_NAMES = frozenset(r.value for r in Reason)


@dataclass(frozen=True, slots=True)
class RuleEnd:
    """A way to end that a game's own rules name, beside the platform's
    :class:`Reason` (Connect Four's ``board full``): recorded by its ``name`` as a
    reason is, shown with its ``text`` where a result is explained, and never a fault.
    A game declares the ones it has (:attr:`arbiter.contract.GameSpec.endings`).

    Two are the same ending when their names are: a record read back knows the name
    only.

    >>> full = RuleEnd("board full", "every cell is filled and no one has four in a row")
    >>> str(full), full.is_fault, full == RuleEnd("board full")
    ('board full', False, True)
    >>> RuleEnd("time")
    Traceback (most recent call last):
    ...
    ValueError: ending 'time' is one of the platform's reasons: a game names its own
    """

    name: str
    text: str = field(default="", compare=False)

    is_fault: ClassVar[bool] = False
    judged_from_text: ClassVar[bool] = False

    def __post_init__(self) -> None:
        """:raises ValueError: for a name a record could not carry, or the platform's."""
        if not _END_NAME.fullmatch(self.name):
            raise ValueError(
                f"ending {self.name!r} is not a name: up to 40 lowercase letters, "
                "digits, spaces, hyphens and apostrophes, from a letter"
            )
        if self.name in _PLATFORM_NAMES:
            raise ValueError(
                f"ending {self.name!r} is one of the platform's reasons: a game names its own"
            )

    def __str__(self) -> str:
        return self.name

    @property
    def value(self) -> str:
        """The name, as :attr:`Reason.value` is the platform's."""
        return self.name


Ending = Reason | RuleEnd
"""Why a game ended: one of the platform's reasons or one its rules name."""


def ending_of(name: str) -> Ending:
    """The ending a record's ``reason`` names: the platform's reason of that name, or
    else a game's own (which the game's rules confirm when the record is replayed).

    :raises ValueError: when ``name`` could be neither.
    """
    try:
        return Reason(name)
    except ValueError:
        return RuleEnd(name)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the winner (``None`` for a draw), why, and any detail.

    >>> Outcome(0, Reason.CONNECTED).points(0)
    1.0
    >>> Outcome(None, Reason.MOVE_LIMIT).points(1)
    0.5
    """

    winner: Player | None
    reason: Ending
    detail: str = ""

    def points(self, p: Player) -> float:
        """Returns 1, 0.5 or 0: what seat ``p`` scores from this outcome."""
        return 0.5 if self.winner is None else float(self.winner == p)

    def result(self) -> str:
        """Returns ``1-0``, ``0-1`` or ``1/2-1/2`` from the first mover's side."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == 0 else "0-1"

    def explained(self) -> str:
        """The result in words: ``1/2-1/2 by board full (every cell is filled ...)``,
        with the detail, or a game's own ending's text when there is no detail."""
        why = self.detail or (self.reason.text if isinstance(self.reason, RuleEnd) else "")
        return f"{self.result()} by {self.reason}" + (f" ({why})" if why else "")


class Game(Protocol[S, M]):
    """A two-player game as pure functions over immutable states ``S`` and moves ``M``."""

    name: str
    num_players: int

    def initial(self) -> S:
        """Returns the start position."""
        ...

    def to_move(self, s: S) -> Player:
        """Returns the seat whose turn it is in ``s``."""
        ...

    def legal_moves(self, s: S) -> Sequence[M]:
        """Returns the legal moves in ``s`` in a deterministic (sorted) order."""
        ...

    def apply(self, s: S, m: M) -> S:
        """Returns the position after ``m``; ``m`` must come from ``legal_moves(s)``."""
        ...

    def outcome(self, s: S) -> Outcome | None:
        """Returns how the game ended in ``s``, or ``None`` while it goes on."""
        ...

    def position_key(self, s: S) -> Hashable:
        """Returns a compact key of the position (pieces and side to move) for tables."""
        ...


def play(game: Game[S, M], s: S, m: M) -> S:
    """Returns the position after ``m``, checking it first.

    :raises IllegalMove: if the game is over or ``m`` is not among the legal moves.
    """
    if game.outcome(s) is not None:
        raise IllegalMove(f"{m} cannot be played in {game.name}: the game is over")
    if m not in game.legal_moves(s):
        raise IllegalMove(f"{m} is not legal in this {game.name} position")
    return game.apply(s, m)
