"""The referee's side of the Connect Four protocol: a program run as ``COMMAND 1|2``."""

from __future__ import annotations

from arbiter.contract import Program, Supervision
from arbiter.game import Player
from arbiter.referee.line_seat import LineSeat
from tests.connect4.notation import format_move
from tests.connect4.rules import State


class ConnectFourSeat(LineSeat[State, int]):
    def arguments(self, seat: Player) -> list[str]:
        return [str(seat + 1)]

    async def tell(self, before: State, move: int, after: State) -> None:
        await self.send(format_move(move, seat=self.seat))


def program_seat(program: Program, *, supervision: Supervision) -> ConnectFourSeat:
    return ConnectFourSeat(program, supervision=supervision)
