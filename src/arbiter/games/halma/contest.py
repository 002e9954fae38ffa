"""Both sides of the Halma contest: an agent run once per move with ``input.txt`` and
``output.txt``.

For each move the referee writes ``input.txt`` into the agent's own working
directory: ``SINGLE`` or ``GAME``, ``BLACK`` or ``WHITE``, the agent's remaining
seconds (strictly positive), then the 16 board rows of ``B``, ``W`` and ``.``. It
runs the agent's command with no arguments and reads ``output.txt``: one ``E x,y
x,y`` line, or one ``J x,y x,y`` line per hop of a chain. The agent may keep
``playdata.txt`` between the moves of a game; the referee removes it before each
game.

Clock (the sheet and RULES.md): a budget for the whole game, 300 s by default,
charged as the CPU time of the agent's process and all its threads and children;
a move that leaves the remaining time at or below zero loses, and the agent is
killed at its remaining time plus 10 s. At the ply cap the game is drawn by the
rules, and the agent with more time left wins it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from arbiter.clock import Charging, Clock, TimeControl
from arbiter.contract import Supervision, keep_move, win_draw_loss
from arbiter.errors import NotationError, Reason
from arbiter.game import Game, Outcome, Player
from arbiter.games.halma.notation import (
    BadRow,
    board_rows,
    format_move,
    pieces_of,
    resolve_move,
)
from arbiter.games.halma.rules import SIZE, Move, State

TIME_CONTROL = TimeControl.parse("300 kill=10")
"""RULES.md: 300 s per game by default; killed 10 s past the remaining time."""

STARTS_ANYWHERE = True
"""Every message gives the program the whole board, so a game may begin anywhere."""

SUPERVISION = Supervision(charging=Charging.CPU)
"""CPU time of the agent's process and every thread and child it starts."""

COLOURS = ("BLACK", "WHITE")
MODES = ("SINGLE", "GAME")

score = win_draw_loss
"""The sheet scores wins, draws and losses only."""
comply = keep_move


def adjudicate(
    game: Game[State, Move], s: State, clock: Clock, ended: Outcome | None
) -> Outcome | None:
    """The sheet's clock rulings: a move that leaves the mover's time at or below zero
    loses (the clock's flag falls only below zero), whatever the move did; a game drawn
    at the ply cap goes to the agent with more time left (equal time: it stays a
    draw, as it does where a seat plays without a clock: a person against a program)."""
    mover = 1 - s.to_move
    if s.ply > 0 and clock.tc.overtime_per_move is None and clock.base_spent(mover):
        return Outcome(
            1 - mover, Reason.TIME, f"no time left after its move ({clock.remaining[mover]:.2f}s)"
        )
    if ended is None or ended.reason is not Reason.MOVE_LIMIT:
        return ended
    left = clock.remaining
    if left[0] == left[1] or clock.untimed:
        return ended
    winner: Player = 0 if left[0] > left[1] else 1
    return Outcome(
        winner, Reason.TIME_LEFT, f"{ended.detail}, {left[winner]:.2f}s to {left[1 - winner]:.2f}s"
    )


def move_text(game: Game[State, Move], s: State, m: Move, *, seat: Player) -> str:
    """Returns ``output.txt`` for ``m`` without its last newline: an ``E`` line or the
    ``J`` lines."""
    return format_move(m, seat=seat)


def judge(game: Game[State, Move], s: State, text: str, *, seat: Player) -> Move:
    """Returns the move ``output.txt``'s text makes in ``s``: any chain of valid hops
    from the piece's start to its end (RULES.md), then the camp rules.

    :raises NotationError: naming the line, if the text is not a step or a hop chain.
    :raises IllegalMove: if it is not legal in ``s``.
    """
    return resolve_move(text, s, seat=seat)


# -- input.txt ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Input:
    """What ``input.txt`` says: the mode, the agent's seat (black is seat 0) and the
    seconds it has left; ``state`` has the seat to move."""

    single: bool
    seat: Player
    remaining: float
    state: State


def remaining_text(seconds: float) -> str:
    """The remaining time as ``input.txt`` gives it: rounded down to the millisecond,
    never shown as zero while some is left.

    >>> remaining_text(300.0), remaining_text(12.3456), remaining_text(0.0004)
    ('300.000', '12.345', '0.001')
    """
    return f"{max(math.floor(seconds * 1000) / 1000, 0.001):.3f}"


def input_text(s: State, seat: Player, remaining: float, *, single: bool = False) -> str:
    """Returns ``input.txt`` for seat ``seat`` to move in ``s``."""
    lines = [MODES[not single], COLOURS[seat], remaining_text(remaining), *board_rows(s)]
    return "\n".join(lines) + "\n"


def parse_input(text: str) -> Input:
    """Parses ``input.txt`` (the plies played, which the file does not say, are 0).

    :raises NotationError: naming ``input.txt``, the line and what was expected.
    """
    lines = text.splitlines()

    def bad(number: int, expected: str) -> NotationError:
        found = repr(lines[number - 1]) if number <= len(lines) else "nothing"
        return NotationError(f"input.txt line {number}: expected {expected}, found {found}", text)

    header = [line.strip() for line in lines[:3]] + [""] * (3 - min(3, len(lines)))
    mode, colour, remaining = header
    if mode not in MODES:
        raise bad(1, "SINGLE or GAME")
    if colour not in COLOURS:
        raise bad(2, "BLACK or WHITE")
    try:
        seconds = float(remaining)
    except ValueError:
        raise bad(3, "the remaining seconds, a number") from None
    if not seconds > 0 or math.isinf(seconds):
        raise bad(3, "the remaining seconds, a number above 0")
    if len(lines) < 3 + SIZE:
        raise bad(len(lines) + 1, f"{3 + SIZE} lines (mode, colour, time, {SIZE} board rows)")
    rows = [line.strip() for line in lines[3 : 3 + SIZE]]
    try:
        pieces = pieces_of(rows)
    except BadRow as e:
        raise NotationError(f"input.txt line {e.row + 4}: {e}", text) from None
    if any(line.strip() for line in lines[3 + SIZE :]):
        raise bad(4 + SIZE, "the end of the file after the 16 board rows")
    seat: Player = COLOURS.index(colour)
    return Input(mode == "SINGLE", seat, seconds, State(pieces, seat))
