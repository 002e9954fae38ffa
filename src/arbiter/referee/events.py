"""What a game reports while it is played: plain values, so they cross process boundaries
(all but a move's in-process :class:`Played`, dropped before they do).

The referee loop sends :class:`GameStarted`, one :class:`MovePlayed` per move and
:class:`GameEnded` to an event sink, a callable. In a worker process the sink sends
the events over the worker's pipe (:mod:`arbiter.play.pool`); the referee hands
them to its own sink, so a match played several games at a time still shows every
move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from arbiter.clock import Clock
from arbiter.game import Player
from arbiter.record import GameRecord


@dataclass(frozen=True, slots=True)
class GameStarted:
    """A game has begun: its number in the series, the players in seat order, the clock."""

    game: int
    players: tuple[str, ...]
    time_control: str


@dataclass(frozen=True, slots=True)
class Played:
    """A move as the referee judged it, for a listener in the referee's own process
    (the browser's session): the position before it, the move, the position after
    it and the clocks after it was charged, so no listener judges or clocks it again."""

    before: Any
    move: Any
    after: Any
    clock: Clock


@dataclass(frozen=True, slots=True)
class MovePlayed:
    """One accepted move. ``texts[q]`` is the move as seat ``q`` writes it (the first is
    the record's), ``position`` the position text after it; ``played`` the move itself
    with its positions and clocks, only in the referee's process (:meth:`portable`
    drops it before the event crosses to another)."""

    game: int
    ply: int
    seat: Player
    texts: tuple[str, ...]
    seconds: float
    note: str
    position: str
    played: Played | None = None

    def portable(self) -> MovePlayed:
        """The event without its in-process :class:`Played` (plain values only)."""
        return replace(self, played=None) if self.played is not None else self

    @property
    def text(self) -> str:
        """The move in the record's numbering (the first player's)."""
        return self.texts[0]

    def shown(self, seat: Player = 0) -> str:
        """The move as ``seat`` writes it, on one line (a Halma hop chain's lines
        joined by `` / ``)."""
        return one_line(self.texts[seat])


def one_line(text: str) -> str:
    """``text`` on one line: a move written over several lines (a Halma hop chain, one
    line per hop) with its lines joined by `` / ``.

    >>> one_line("J 5,5 7,5\\nJ 7,5 9,5\\n"), one_line("1434")
    ('J 5,5 7,5 / J 7,5 9,5', '1434')
    """
    return " / ".join(line.strip() for line in text.splitlines()) if "\n" in text else text


@dataclass(frozen=True, slots=True)
class GameEnded:
    """A game is over; its record holds the result."""

    game: int
    record: GameRecord


Event = GameStarted | MovePlayed | GameEnded
EventSink = Callable[[Event], None]


def ignore(event: Event) -> None:
    """The sink that drops every event."""
