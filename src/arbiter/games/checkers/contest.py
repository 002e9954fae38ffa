"""Both sides of the checkers engine protocol (RULES.md's ruling; the sheet's manuals are lost).

The engine is started once per game as ``PROGRAM 1`` (red, moves first) or
``PROGRAM 2`` (white). Every time it is to move, the referee writes the 8 board rows
(8 digits 0-4 each, row 1 first); the engine answers one line in standard notation
over squares 1..32: ``9-13`` for a step, ``22x15`` or ``22x15x6`` for captures with
every landing square listed. The referee closes the engine's input when the game
ends. Default clock: 10 s CPU per move (user+sys of the engine's whole process tree,
since its previous reply).

Referee rulings: an illegal move, a line that is not a move, a crash or early exit,
and more than the CPU allowance each lose the game (the sheet: "player giving
invalid moves will be disqualified"). The waiting engine is suspended from its
reply until it is sent the next board (RULES.md), and CPU it uses after a reply is
charged to its next move. An engine still running half a second after its input
is closed is killed with its whole process tree.
"""

from __future__ import annotations

from arbiter.clock import TimeControl
from arbiter.contract import Supervision, keep_move, keep_outcome
from arbiter.game import Game, Player
from arbiter.games.checkers.notation import format_move, resolve_move
from arbiter.games.checkers.rules import Move, State

TIME_CONTROL = TimeControl.per_move_seconds(10)
"""RULES.md: 10 s CPU per move unless the organiser sets another."""

STARTS_ANYWHERE = True
"""Every message gives the program the whole board, so a game may begin anywhere."""

SUPERVISION = Supervision()
"""CPU of the engine's tree; the waiting engine suspended (RULES.md)."""

adjudicate = keep_outcome
comply = keep_move
"""The contest has no rulings that depend on the clock."""


def move_text(game: Game[State, Move], s: State, m: Move, *, seat: Player) -> str:
    """Returns the line an engine writes for ``m``."""
    return format_move(m, seat=seat)


def judge(game: Game[State, Move], s: State, text: str, *, seat: Player) -> Move:
    """Returns the move ``text`` makes in ``s``.

    :raises NotationError: if the line is not a move.
    :raises IllegalMove: if no legal move has that path.
    """
    return resolve_move(text, s, seat=seat)
