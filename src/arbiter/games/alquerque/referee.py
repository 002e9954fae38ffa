"""The referee's side of the CodeCup 2008 Alquerque jury protocol: the seat that runs a
program through it (see :mod:`arbiter.games.alquerque.contest` for the protocol and its
rulings)."""

from __future__ import annotations

from arbiter.contract import Program, Supervision
from arbiter.game import Outcome
from arbiter.games.alquerque.notation import format_move
from arbiter.games.alquerque.rules import Move, State
from arbiter.referee.line_seat import LineSeat


class AlquerqueSeat(LineSeat[State, Move]):
    """A CodeCup player: white is sent ``Start``, every move is relayed, the loser is
    sent ``Quit``."""

    told = False

    async def request(self, s: State) -> None:
        if self._first and not self.told:  # moves first: nothing to read but Start
            await self.send("Start")

    async def tell(self, before: State, move: Move, after: State) -> None:
        self.told = True
        await self.send(format_move(move, seat=self.seat))

    async def finish(self, outcome: Outcome) -> None:
        if outcome.winner is not None and outcome.winner != self.seat:
            await self.send("Quit")


def program_seat(program: Program, *, supervision: Supervision) -> AlquerqueSeat:
    """Returns the jury's seat for an external player."""
    return AlquerqueSeat(program, supervision=supervision)
