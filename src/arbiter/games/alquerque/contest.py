"""Both sides of the CodeCup 2008 Alquerque jury dialogue, as the sheet gives it.

A program is started with no arguments. White reads ``Start`` and writes its move;
black first reads white's move. Each move is one line (``c3-d4``, ``e5*c3*c1``); a
player writes its move, then reads its opponent's. The jury sends ``Quit`` to the
loser (after a win, an invalid move, a crash or a time-out); the winner, and both
players after a tie, must exit by themselves (a program still running half a second
later is killed, and the result stands).

Clock (the sheet): 30 s per player for the whole game, counting only the time from
the jury's message to the player's reply, wall time, with the waiting player
suspended so it cannot compute on the other's time. Memory: 64 MB (the sheet's
machine). Score: 12-0 for a win, also by the opponent's fault; in a tie each player
gets 7 minus the opponent's pieces left, at least 0.
"""

from __future__ import annotations

from arbiter.clock import Charging, TimeControl
from arbiter.contract import Supervision, keep_move, keep_outcome
from arbiter.game import Game, Outcome, Player
from arbiter.games.alquerque.notation import format_move, resolve_move
from arbiter.games.alquerque.rules import Move, State

TIME_CONTROL = TimeControl.parse("30")
"""The sheet: 30 seconds for the whole game."""

STARTS_ANYWHERE = False
"""A program keeps its own board from the game's start; nothing could set another."""

SUPERVISION = Supervision(charging=Charging.WALL, memory_limit_mb=64)
"""Wall time from message to reply; the waiting player suspended; 64 MB."""

adjudicate = keep_outcome
comply = keep_move
"""The sheet has no rulings that depend on the clock."""

WIN_POINTS = 12.0


def score(game: Game[State, Move], s: State, outcome: Outcome) -> tuple[float, float]:
    """The CodeCup points: 12-0 for a win; in a tie 7 minus the opponent's pieces.

    >>> from arbiter.errors import Reason
    >>> from arbiter.games.alquerque.notation import parse_position
    >>> s = parse_position("w....../......./......./......./......./bbb..../ww..... w")
    >>> score(None, s, Outcome(None, Reason.MOVE_LIMIT))  # type: ignore[arg-type]
    (4.0, 4.0)
    """
    if outcome.winner is not None:
        return (WIN_POINTS, 0.0) if outcome.winner == 0 else (0.0, WIN_POINTS)
    white, black = (x.bit_count() for x in s.pieces)
    return float(max(0, 7 - black)), float(max(0, 7 - white))


def move_text(game: Game[State, Move], s: State, m: Move, *, seat: Player) -> str:
    """Returns the line a player writes for ``m``."""
    return format_move(m, seat=seat)


def judge(game: Game[State, Move], s: State, text: str, *, seat: Player) -> Move:
    """Returns the move ``text`` makes in ``s``.

    :raises NotationError: if the line is not a move.
    :raises IllegalMove: if it is not a valid move (the message says why).
    """
    return resolve_move(text, s, seat=seat)
