"""The referee's side of the Votey protocol: the seat that runs a program through it (see
:mod:`arbiter.games.votey.contest` for the protocol and its rulings)."""

from __future__ import annotations

from arbiter.contract import Program, Supervision
from arbiter.game import Outcome, Player
from arbiter.games.votey.notation import format_move
from arbiter.games.votey.rules import Move, State
from arbiter.referee.line_seat import LineSeat


class VoteySeat(LineSeat[State, Move]):
    """An external Votey program, run as ``COMMAND 1`` or ``COMMAND 2``."""

    def arguments(self, seat: Player) -> list[str]:
        return [str(seat + 1)]

    def accept(self, line: str, first: bool) -> bool:
        # the sheet's development play(0) prints 0 before white's first read
        return not (first and self.seat == 1 and line.strip() == "0")

    async def tell(self, before: State, move: Move, after: State) -> None:
        await self.send(format_move(move, seat=self.seat, win=after.winner == before.to_move))

    async def finish(self, outcome: Outcome) -> None:
        if outcome.reason.is_fault and outcome.winner is not None and outcome.winner != self.seat:
            await self.send("-1")


def program_seat(program: Program, *, supervision: Supervision) -> VoteySeat:
    """Returns the referee's seat for an external Votey program."""
    return VoteySeat(program, supervision=supervision)
