"""The referee loop: one game between seats, under a contest's protocol and clock.

Faults become outcomes in exactly one place, :func:`forfeit`: the offender loses,
and the reason and offending text are recorded (cutechess ``forfeit``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from arbiter.clock import Clock, TimeControl
from arbiter.errors import AgentFault, IllegalMove, NotationError, Reason
from arbiter.game import Game, Outcome, Player
from arbiter.games import GameSpec
from arbiter.record import GameRecord
from arbiter.referee.seat import Seat


@dataclass(frozen=True, slots=True)
class MoveEvent:
    """One accepted move, as reported to an ``on_move`` callback."""

    ply: int
    seat: Player
    text: str
    seconds: float
    state: Any


def forfeit(offender: Player, error: Exception) -> Outcome:
    """Returns the Outcome of a fault by ``offender``: the opponent wins.

    An :class:`AgentFault` carries its own reason; a NotationError is malformed
    output; an IllegalMove is an illegal move.
    """
    if isinstance(error, AgentFault):
        return Outcome(1 - offender, error.reason, error.detail)
    if isinstance(error, NotationError):
        return Outcome(1 - offender, Reason.MALFORMED, str(error))
    if isinstance(error, IllegalMove):
        return Outcome(1 - offender, Reason.ILLEGAL_MOVE, str(error))
    raise TypeError(f"not a fault: {error!r}")


async def play_game(
    spec: GameSpec,
    game: Game[Any, Any],
    seats: Sequence[Seat],
    tc: TimeControl,
    *,
    seed: int = 0,
    start: Any = None,
    on_move: Callable[[MoveEvent], None] | None = None,
    options: dict[str, Any] | None = None,
) -> GameRecord:
    """Plays one game and returns its record; every seat is stopped before returning.

    ``start`` is a position to begin from (default: the game's start position).
    """
    s = game.initial() if start is None else start
    clock = Clock.start(tc, n=len(seats))
    texts: list[str] = []
    times: list[float] = []
    out: Outcome | None = None
    offending: str | None = None
    date = datetime.now(UTC).isoformat(timespec="seconds")
    try:
        for i, seat in enumerate(seats):
            try:
                await seat.start(i)
            except AgentFault as e:
                out = forfeit(i, e)
                break
        while out is None and (out := game.outcome(s)) is None:
            p = game.to_move(s)
            text: str | None = None
            try:
                text, used = await seats[p].ask(s, clock)
                clock = clock.charge(p, used)
                m = spec.protocol.judge(game, s, text, p)
            except (AgentFault, NotationError, IllegalMove) as e:
                out = forfeit(p, e)
                offending = text
                break
            texts.append(text.strip())
            times.append(used)
            before, s = s, game.apply(s, m)
            if on_move is not None:
                on_move(MoveEvent(len(texts), p, texts[-1], used, s))
            over = game.outcome(s) is not None
            for q, other in enumerate(seats):
                if q == p:
                    continue
                try:
                    await other.tell(before, m, s)
                except AgentFault as e:
                    if not over:
                        out = forfeit(q, e)
                        break
    finally:
        final = out or Outcome(None, Reason.ABORTED, "interrupted")
        for seat in seats:
            with contextlib.suppress(Exception):
                await seat.stop(final)
    return GameRecord(
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
    )
