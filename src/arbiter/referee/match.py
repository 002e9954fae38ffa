"""The referee loop: one game between seats, under a contest's protocol and clock.

Faults become outcomes in exactly one place, :func:`forfeit`: the offender loses,
and the reason and offending text are recorded (cutechess ``forfeit``). The
contest's clock rulings go through one hook, the protocol's ``adjudicate``, which
the loop calls after every move and when the rules end the game.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

from arbiter.clock import Clock, TimeControl
from arbiter.contract import GameSpec, Seat
from arbiter.errors import AgentFault, IllegalMove, NotationError, Reason, visible
from arbiter.game import Game, Outcome, Player
from arbiter.record import GameRecord
from arbiter.referee.events import (
    EventSink,
    GameEnded,
    GameStarted,
    MovePlayed,
    Played,
    ignore,
)
from arbiter.referee.seat import TakeBack

S = TypeVar("S")
M = TypeVar("M")


def forfeit(offender: Player, error: Exception) -> Outcome:
    """Returns the Outcome of a fault by ``offender``: the opponent wins.

    An :class:`AgentFault` carries its own reason; a NotationError is malformed
    output; an IllegalMove is an illegal move. The detail is made safe to show
    (control characters escaped, at most a thousand characters).

    :raises TypeError: if ``error`` is not a fault.
    """
    if isinstance(error, AgentFault):
        return Outcome(1 - offender, error.reason, visible(error.detail))
    if isinstance(error, NotationError):
        return Outcome(1 - offender, Reason.MALFORMED, visible(str(error)))
    if isinstance(error, IllegalMove):
        return Outcome(1 - offender, Reason.ILLEGAL_MOVE, visible(str(error)))
    raise TypeError(f"not a fault: {error!r}")


MAX_OFFENDING = 4096
"""The most characters of an offending reply a record keeps."""

FAULTS = (AgentFault, NotationError, IllegalMove)
"""The errors :func:`forfeit` turns into a loss."""


@dataclass(frozen=True, slots=True)
class _Ply(Generic[S]):
    """A position reached in the game, with the clock and record length at that point."""

    state: S
    clock: Clock
    moves: int


async def play_game(
    spec: GameSpec[S, M],
    game: Game[S, M],
    seats: Sequence[Seat[S, M]],
    tc: TimeControl,
    *,
    seed: int = 0,
    start: S | None = None,
    events: EventSink = ignore,
    options: dict[str, Any] | None = None,
    number: int = 1,
    takebacks: bool = False,
    untimed: frozenset[Player] = frozenset(),
) -> GameRecord:
    """Plays one game and returns its record; every seat is stopped before returning.

    ``start`` is a position to begin from (default: the game's start position);
    ``number`` is the game's number in its series, for the events. With
    ``takebacks`` a seat may take back its last move (casual play against engines);
    without, a request to take back is ignored and the seat is asked again. The
    seats in ``untimed`` play without a clock (:class:`~arbiter.clock.Clock`).

    :raises ValueError: for an untimed seat that is not one of ``seats``.
    """
    clock = Clock.start(tc, n=len(seats), untimed=untimed)
    played = _Game(spec, game, seats, clock, events, number, takebacks, start)
    events(GameStarted(number, tuple(seat.name for seat in seats), str(tc)))
    try:
        await played.start()
        while played.out is None:
            await played.turn()
    finally:
        final = played.out or Outcome(None, Reason.ABORTED, "interrupted")
        # together: each may wait a grace period for its program to exit
        await asyncio.gather(*(seat.stop(final) for seat in seats), return_exceptions=True)
    record = played.record(seed, options, start)
    events(GameEnded(number, record))
    return record


class _Game(Generic[S, M]):
    """One game under way: its position and clock, the moves as the record keeps
    them, the positions a take-back returns to, and its outcome once there is one."""

    def __init__(
        self,
        spec: GameSpec[S, M],
        game: Game[S, M],
        seats: Sequence[Seat[S, M]],
        clock: Clock,
        events: EventSink,
        number: int,
        takebacks: bool,
        start: S | None,
    ) -> None:
        self.spec, self.game, self.seats, self.tc = spec, game, seats, clock.tc
        self.events, self.number, self.takebacks = events, number, takebacks
        self.s = game.initial() if start is None else start
        self.clock = clock
        self.texts: list[str] = []
        self.times: list[float] = []
        self.history: list[_Ply[S]] = []
        self.out: Outcome | None = None
        self.offending: str | None = None
        self.date = datetime.now(UTC).isoformat(timespec="seconds")

    async def start(self) -> None:
        """Starts every seat (one that cannot start forfeits), then rules on the start."""
        for i, seat in enumerate(self.seats):
            try:
                await seat.start(i, self.clock)
            except AgentFault as e:
                self.out = forfeit(i, e)
                return
        self.out = self.spec.contest.adjudicate(
            self.game, self.s, self.clock, self.game.outcome(self.s)
        )

    async def turn(self) -> None:
        """Asks the seat whose turn it is for its move and plays it; a take-back goes back; a
        fault ends the game."""
        game, referee, s = self.game, self.spec.contest, self.s
        p = game.to_move(s)
        text: str | None = None
        try:
            reply = await self.seats[p].ask(s, self.clock)
            text = reply.text
            self.clock = self.clock.charge(p, reply.seconds)
            m = referee.judge(game, s, text, seat=p)
        except TakeBack:
            await self._take_back(p)
            return
        except FAULTS as e:
            self.out = forfeit(p, e)
            offending = text if text is not None or not isinstance(e, AgentFault) else e.offending
            self.offending = None if offending is None else offending[:MAX_OFFENDING]
            return
        self.history.append(_Ply(s, self.clock, len(self.texts)))
        seen = tuple(referee.move_text(game, s, m, seat=q) for q in range(len(self.seats)))
        self.texts.append(seen[0])
        self.times.append(reply.seconds)
        self.s = game.apply(s, m)
        self.out = referee.adjudicate(game, self.s, self.clock, game.outcome(self.s))
        if self.events is not ignore:
            position = self.spec.notation.format_position(self.s)
            played = Played(s, m, self.s, self.clock)
            moved = MovePlayed(
                self.number, len(self.texts), p, seen, reply.seconds, reply.note, position, played
            )
            self.events(moved)
        await self._tell_others(p, s, m)

    async def _take_back(self, p: Player) -> None:
        back = _take_back(self.game, self.history, p) if self.takebacks else None
        if back is not None and all([await q.rewind(back.state) for q in self.seats]):
            self.s, self.clock = back.state, back.clock
            del self.texts[back.moves :], self.times[back.moves :], self.history[back.moves :]

    async def _tell_others(self, p: Player, before: S, m: M) -> None:
        """Passes seat ``p``'s move on; one that cannot be told forfeits, unless the
        game is over (telling it then is a courtesy)."""
        for q, other in enumerate(self.seats):
            if q == p:
                continue
            try:
                await other.tell(before, m, self.s)
            except AgentFault as e:
                if self.out is None:
                    self.out = forfeit(q, e)
                    return

    def record(self, seed: int, options: dict[str, Any] | None, start: S | None) -> GameRecord:
        """The record of the finished game."""
        out = self.out
        assert out is not None, "the game is not over"
        spec = self.spec
        return GameRecord(
            game=spec.name,
            players=tuple(seat.name for seat in self.seats),
            moves=tuple(self.texts),
            times=tuple(self.times),
            winner=out.winner,
            reason=out.reason,
            detail=out.detail,
            offending=self.offending,
            time_control=str(self.tc),
            seed=seed,
            options=dict(options or {}),
            start=None if start is None else spec.notation.format_position(start),
            date=self.date,
            round=self.number,
            score=spec.score(self.game, self.s, out),
        )


def _take_back(game: Game[S, M], history: list[_Ply[S]], p: Player) -> _Ply[S] | None:
    """The position before seat ``p``'s last move, or None if it has made none."""
    for ply in reversed(history):
        if game.to_move(ply.state) == p:
            return ply
    return None
