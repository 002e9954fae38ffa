"""The referee's side of the Halma protocol: the seat that runs a program through it (see
:mod:`arbiter.games.halma.contest` for the protocol and its rulings)."""

from __future__ import annotations

from arbiter.clock import Clock
from arbiter.contract import Program, Supervision
from arbiter.errors import Malformed, NotationError
from arbiter.games.halma.contest import input_text
from arbiter.games.halma.notation import (
    parse_move,
)
from arbiter.games.halma.rules import Move, State
from arbiter.referee.file_seat import FileSeat


class HalmaSeat(FileSeat[State, Move]):
    """An agent run once per move: in GAME mode on a game clock (the contest's), in
    SINGLE mode on a fixed time per move (``--move-time``), whose seconds are the
    move's own, as the sheet's SINGLE mode gives them. Told GAME with a second, an
    agent would share that second over the rest of the game."""

    def input_text(self, s: State, clock: Clock) -> str:
        single = clock.tc.per_move is not None
        return input_text(s, self.seat, clock.remaining[self.seat], single=single)

    def reply_text(self, output: str) -> str:
        """The move in ``output.txt``, checked for form.

        :raises Malformed: naming ``output.txt`` and the line, if it is not a move.
        """
        text = output.strip()
        try:
            parse_move(text, seat=self.seat)
        except NotationError as e:
            raise Malformed(f"output.txt: {e}", who=self.name) from None
        return text


def program_seat(program: Program, *, supervision: Supervision) -> HalmaSeat:
    """Returns the referee's seat for an agent run once per move."""
    return HalmaSeat(program, supervision=supervision)
