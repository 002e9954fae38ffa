"""Both sides of the Votey contest protocol, byte for byte as the sheet describes it.

The agent is started as ``PROGRAM 1`` (black) or ``PROGRAM 2`` (white). Each move is
one integer on its own line (``FFTT``, negated when it wins). Black writes first;
white reads black's first move first. A line ``-1`` tells an agent its move was
illegal or too slow and ends its game. An agent stops on ``-1``, on a negative
(winning) opponent move, or at the end of its input.

Referee rulings (the sheet's disqualifications plus what it leaves open):

- illegal move, false win claim, unclaimed winning move, a line that is not one
  integer, a crash or early exit, and more than the CPU allowance per move (default
  60 s, user+sys of the agent's whole process tree since its previous reply; a
  wall-clock backstop catches an agent that sleeps) each lose the game; the
  offender is sent ``-1``;
- the waiting program is suspended from its reply until it is sent the next move
  (RULES.md), and CPU it uses after a reply is charged to its next move;
- a winning move is passed on (negated) to the loser, whose input is then closed;
- the sheet's development ``play(0)`` prints ``0`` before white's first read: a
  first line ``0`` from white is read and ignored, so such programs run unchanged;
- at the end of the game every agent's input is closed; one still running after
  half a second is killed with its whole process tree.
"""

from __future__ import annotations

from arbiter.clock import TimeControl
from arbiter.contract import Supervision, keep_move, keep_outcome
from arbiter.errors import FalseClaim, UnclaimedWin
from arbiter.game import Game, Player
from arbiter.games.votey.notation import claims_win, format_move, resolve_move
from arbiter.games.votey.rules import Move, State

TIME_CONTROL = TimeControl.per_move_seconds(60)
"""The sheet: each move within one minute of CPU time."""

STARTS_ANYWHERE = False
"""A program keeps its own board from the game's start; nothing could set another."""

SUPERVISION = Supervision()
"""CPU of the program's tree; the waiting program suspended (RULES.md)."""

adjudicate = keep_outcome
comply = keep_move
"""The sheet has no rulings that depend on the clock."""


def wins(game: Game[State, Move], s: State, m: Move) -> bool:
    """True when ``m`` wins the game for the side that plays it in ``s``."""
    return game.apply(s, m).winner == s.to_move


def move_text(game: Game[State, Move], s: State, m: Move, *, seat: Player) -> str:
    """Returns the line the mover writes for ``m`` in ``s``: negated when it wins."""
    return format_move(m, seat=seat, win=wins(game, s, m))


def judge(game: Game[State, Move], s: State, text: str, *, seat: Player) -> Move:
    """Returns the move ``text`` makes in ``s``, judged as the contest's referee.

    :raises NotationError: if the line is not one move integer.
    :raises IllegalMove: if the move is not legal.
    :raises FalseClaim: if it is negated but does not win.
    :raises UnclaimedWin: if it wins but is not negated.
    """
    m = resolve_move(text, s, seat=seat)
    won = wins(game, s, m)
    claimed = claims_win(text)
    if claimed and not won:
        raise FalseClaim(f"{text.strip()!r} claims a win it does not make")
    if won and not claimed:
        raise UnclaimedWin(f"{text.strip()!r} wins but was not negated")
    return m
