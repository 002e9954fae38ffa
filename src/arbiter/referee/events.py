"""What a game reports while it is played: plain values, so they cross process boundaries.

The referee loop sends :class:`GameStarted`, one :class:`MovePlayed` per move and
:class:`GameEnded` to an event sink, a callable. In a worker process the sink sends
the events over the worker's pipe (:mod:`arbiter.play.pool`); the referee hands
them to its own sink, so a match played several games at a time still shows every
move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from arbiter.game import Player
from arbiter.record import GameRecord


@dataclass(frozen=True, slots=True)
class GameStarted:
    """A game has begun: its number in the series, the players in seat order, the clock."""

    game: int
    players: tuple[str, ...]
    time_control: str


@dataclass(frozen=True, slots=True)
class MovePlayed:
    """One accepted move. ``texts[q]`` is the move as seat ``q`` writes it (the first is
    the record's), ``position`` the position text after it."""

    game: int
    ply: int
    seat: Player
    texts: tuple[str, ...]
    seconds: float
    note: str
    position: str

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
    line per hop) with its lines joined by `` / ``."""
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
