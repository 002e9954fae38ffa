"""The referee's side of the Chinese checkers mediator protocol: the seat that runs a
program through it (see :mod:`arbiter.games.chinese_checkers.contest` for the protocol
and its rulings)."""

from __future__ import annotations

from arbiter.clock import Clock
from arbiter.contract import Program, Supervision
from arbiter.game import Player
from arbiter.games.chinese_checkers.notation import format_move
from arbiter.games.chinese_checkers.rules import Move, State
from arbiter.referee.line_seat import LineSeat


class MediatorSeat(LineSeat[State, Move]):
    """A player under the mediator: told ``1`` or ``2`` at the start, then each of the
    opponent's moves in its own numbering."""

    async def start(self, seat: Player, clock: Clock) -> None:
        await super().start(seat, clock)
        await self.send(str(seat + 1))

    async def tell(self, before: State, move: Move, after: State) -> None:
        if self.supervision.suspend and self.transport is not None:
            self.transport.resume()  # the sheet: resumed before it is sent the move
        await self.send(format_move(move, seat=self.seat))


def program_seat(program: Program, *, supervision: Supervision) -> MediatorSeat:
    """Returns the mediator's seat for an external player."""
    return MediatorSeat(program, supervision=supervision)
