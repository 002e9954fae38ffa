"""The referee's side of the checkers engine protocol: the seat that runs a program through
it (see :mod:`arbiter.games.checkers.contest` for the protocol and its rulings)."""

from __future__ import annotations

from arbiter.contract import Program, Supervision
from arbiter.game import Player
from arbiter.games.checkers.notation import board_rows
from arbiter.games.checkers.rules import Move, State
from arbiter.referee.line_seat import LineSeat


class CheckersSeat(LineSeat[State, Move]):
    """An external checkers engine, run as ``COMMAND 1`` or ``COMMAND 2``; it is sent
    the board before each of its moves."""

    def arguments(self, seat: Player) -> list[str]:
        return [str(seat + 1)]

    async def request(self, s: State) -> None:
        await self.send("\n".join(board_rows(s)))


def program_seat(program: Program, *, supervision: Supervision) -> CheckersSeat:
    """Returns the referee's seat for an external checkers engine."""
    return CheckersSeat(program, supervision=supervision)
