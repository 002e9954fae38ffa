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
) -> GameRecord:
    """Plays one game and returns its record; every seat is stopped before returning.

    ``start`` is a position to begin from (default: the game's start position);
    ``number`` is the game's number in its series, for the events. With
    ``takebacks`` a seat may take back its last move (casual play against engines);
    without, a request to take back is ignored and the seat is asked again.
    """
    s = game.initial() if start is None else start
    clock = Clock.start(tc, n=len(seats))
    referee = spec.contest
    texts: list[str] = []
    times: list[float] = []
    out: Outcome | None = None
    offending: str | None = None
    history: list[_Ply[S]] = []
    date = datetime.now(UTC).isoformat(timespec="seconds")
    events(GameStarted(number, tuple(seat.name for seat in seats), str(tc)))
    try:
        for i, seat in enumerate(seats):
            try:
                await seat.start(i, clock)
            except AgentFault as e:
                out = forfeit(i, e)
                break
        if out is None:
            out = referee.adjudicate(game, s, clock, game.outcome(s))
        while out is None:
            p = game.to_move(s)
            text: str | None = None
            try:
                reply = await seats[p].ask(s, clock)
                text = reply.text
                clock = clock.charge(p, reply.seconds)
                m = referee.judge(game, s, text, seat=p)
            except TakeBack:
                back = _take_back(game, history, p) if takebacks else None
                if back is not None and all([await q.rewind(back.state) for q in seats]):
                    s, clock = back.state, back.clock
                    del texts[back.moves :], times[back.moves :], history[back.moves :]
                continue
            except FAULTS as e:
                out = forfeit(p, e)
                offending = (
                    text if text is not None or not isinstance(e, AgentFault) else e.offending
                )
                if offending is not None:
                    offending = offending[:MAX_OFFENDING]
                break
            history.append(_Ply(s, clock, len(texts)))
            seen = tuple(referee.move_text(game, s, m, seat=q) for q in range(len(seats)))
            texts.append(seen[0])
            times.append(reply.seconds)
            before, s = s, game.apply(s, m)
            out = referee.adjudicate(game, s, clock, game.outcome(s))
            if events is not ignore:
                position = spec.notation.format_position(s)
                played = Played(before, m, s, clock)
                events(
                    MovePlayed(
                        number, len(texts), p, seen, reply.seconds, reply.note, position, played
                    )
                )
            for q, other in enumerate(seats):
                if q == p:
                    continue
                try:
                    await other.tell(before, m, s)
                except AgentFault as e:
                    if out is None:  # once the game is over, telling it is a courtesy
                        out = forfeit(q, e)
                        break
    finally:
        final = out or Outcome(None, Reason.ABORTED, "interrupted")
        # together: each may wait a grace period for its program to exit
        await asyncio.gather(*(seat.stop(final) for seat in seats), return_exceptions=True)
    record = GameRecord(
        game=spec.name,
        players=tuple(seat.name for seat in seats),
        moves=tuple(texts),
        times=tuple(times),
        winner=out.winner,
        reason=out.reason,
        detail=out.detail,
        offending=offending,
        time_control=str(tc),
        seed=seed,
        options=dict(options or {}),
        start=None if start is None else spec.notation.format_position(start),
        date=date,
        round=number,
        score=spec.score(game, s, out),
    )
    events(GameEnded(number, record))
    return record


def _take_back(game: Game[S, M], history: list[_Ply[S]], p: Player) -> _Ply[S] | None:
    """The position before seat ``p``'s last move, or None if it has made none."""
    for ply in reversed(history):
        if game.to_move(ply.state) == p:
            return ply
    return None
