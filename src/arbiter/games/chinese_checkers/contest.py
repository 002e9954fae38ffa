"""Both sides of the 1997 ACM Hong Kong mediator (``ccj PLAYER1 PLAYER2``).

The mediator starts both players as child processes and sends each one line: ``1``
to the player who moves first, ``2`` to the other. Then each move is one line of
two integers, ``FROM TO``, in the writer's own numbering; the mediator relays it to
the opponent translated into the opponent's numbering (every player sees its own
home as 1-10). Players flush after every line. There is no closing message: at the
end the mediator closes the pipes and the players are ended.

Clock (the sheet): five minutes of CPU time per player for the whole game, measured
on the player's processes (``times``); after that every move within one second, and
a player whose five minutes are spent and who has a marble in its own home after
its move loses. The waiting player is suspended from its reply until it is told the
opponent's move. Records keep the moves in the first player's numbering.
"""

from __future__ import annotations

from arbiter.clock import Charging, Clock, TimeControl
from arbiter.contract import Supervision, win_draw_loss
from arbiter.errors import Reason
from arbiter.game import Game, Outcome, Player
from arbiter.games.chinese_checkers.evaluate import order_hint
from arbiter.games.chinese_checkers.notation import format_move, resolve_move
from arbiter.games.chinese_checkers.rules import HOMES, Move, State

TIME_CONTROL = TimeControl.parse("300 ot=1")
"""The sheet: 300 s of CPU for the game, then 1 s per move."""

STARTS_ANYWHERE = False
"""A program keeps its own board from the game's start; nothing could set another."""

SUPERVISION = Supervision(charging=Charging.CPU, single_process=True)
"""CPU time of the player's processes; the waiting player suspended; "the player
must not fork any other processes"."""

score = win_draw_loss
"""The sheet scores wins, draws and losses only."""


def adjudicate(
    game: Game[State, Move], s: State, clock: Clock, ended: Outcome | None
) -> Outcome | None:
    """The sheet's guard against a player that never leaves home: once a player's
    five minutes are spent, a marble of its in its own home after its move loses.
    A move that ends the game by the rules stands."""
    mover = 1 - s.to_move
    if ended is None and s.ply > 0 and clock.in_overtime(mover) and s.pieces[mover] & HOMES[mover]:
        left = (s.pieces[mover] & HOMES[mover]).bit_count()
        return Outcome(
            1 - mover,
            Reason.ADJUDICATED,
            f"{left} marble{'s' * (left > 1)} still at home after its time ran out",
        )
    return ended


def comply(game: Game[State, Move], s: State, m: Move, *, out_of_time: bool) -> Move:
    """Returns ``m``, or, once the five minutes are spent (``out_of_time``), if ``m``
    leaves a marble of the mover in its own home and some move leaves none there, the
    move among those that goes furthest: what a player must play not to lose by the
    home rule."""
    p = s.to_move

    def at_home(x: Move) -> int:
        return (s.pieces[p] & ~(1 << x.origin) | (1 << x.target)) & HOMES[p]

    if not out_of_time or not at_home(m):
        return m
    safe = [x for x in game.legal_moves(s) if not at_home(x)]
    return max(safe, key=lambda x: order_hint(s, x)) if safe else m


def move_text(game: Game[State, Move], s: State, m: Move, *, seat: Player) -> str:
    """Returns the line a player writes for ``m``: ``FROM TO`` in its own numbering."""
    return format_move(m, seat=seat)


def judge(game: Game[State, Move], s: State, text: str, *, seat: Player) -> Move:
    """Returns the move ``text`` (in ``seat``'s numbering) makes in ``s``.

    :raises NotationError: unless the line is two integers in 1..127.
    :raises IllegalMove: for a hole number past 121 or a move that is not legal.
    """
    return resolve_move(text, s, seat=seat)
