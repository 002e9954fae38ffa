"""The referee's side of the Nim protocol: a program run as ``COMMAND 1|2``."""

from __future__ import annotations

from arbiter.contract import Program, Supervision
from arbiter.game import Player
from arbiter.referee.line_seat import LineSeat
from tests.nim.notation import format_move
from tests.nim.rules import State


class NimSeat(LineSeat[State, int]):
    def arguments(self, seat: Player) -> list[str]:
        return [str(seat + 1)]

    async def tell(self, before: State, move: int, after: State) -> None:
        await self.send(format_move(move, seat=self.seat))


def program_seat(program: Program, *, supervision: Supervision) -> NimSeat:
    return NimSeat(program, supervision=supervision)
