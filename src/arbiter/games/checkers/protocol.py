"""Both sides of the checkers engine protocol (RULES.md's ruling; the sheet's manuals are lost).

The engine is started once per game as ``PROGRAM 1`` (red, moves first) or
``PROGRAM 2`` (white). Every time it is to move, the referee writes the 8 board rows
(8 digits 0-4 each, row 1 first); the engine answers one line in standard notation
over squares 1..32: ``9-13`` for a step, ``22x15`` or ``22x15x6`` for captures with
every landing square listed. The referee closes the engine's input when the game
ends. Default clock: 10 s CPU per move (user+sys of the engine's whole process tree).

Referee rulings: an illegal move, a line that is not a move, a crash or early exit,
and more than the CPU allowance each lose the game (the sheet: "player giving
invalid moves will be disqualified"). An engine still running half a second after
its input is closed is killed with its whole process tree.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from arbiter.agents.base import ProgramBudget, search_note
from arbiter.clock import Clock
from arbiter.errors import NotationError
from arbiter.game import Outcome, Player
from arbiter.games.checkers.notation import board_rows, format_move, parse_board, resolve_move
from arbiter.games.checkers.rules import Checkers, Move, State
from arbiter.referee.seat import ProcessSeat

DEFAULT_MOVE_TIME = 10.0
"""RULES.md: 10 s CPU per move unless the organiser sets another."""


def move_text(game: Checkers, s: State, m: Move, seat: Player = 0) -> str:
    """Returns the line an engine writes for ``m``."""
    return format_move(m)


def judge(game: Checkers, s: State, text: str, seat: Player = 0) -> Move:
    """Returns the move ``text`` makes in ``s``.

    :raises NotationError: if the line is not a move.
    :raises IllegalMove: if no legal move has that path.
    """
    return resolve_move(text, s, game=game)


class CheckersProcessSeat(ProcessSeat):
    """An external checkers engine, run as ``COMMAND 1`` or ``COMMAND 2``."""

    def arguments(self, seat: Player) -> list[str]:
        return [str(seat + 1)]

    async def ask(self, s: State, clock: Clock) -> tuple[str, float]:
        await self.send("\n".join(board_rows(s)))
        return await self.read_reply(clock)

    async def tell(self, before: State, move: Move, after: State) -> None:
        pass  # the next board says it all

    async def stop(self, outcome: Outcome) -> None:
        await self.close()


def process_seat(command: str, **options: Any) -> CheckersProcessSeat:
    """Returns the referee's seat for an external checkers engine."""
    return CheckersProcessSeat(command, **options)


# -- the agent side -----------------------------------------------------------


def serve(
    agent: Any,
    game: Checkers,
    color: int,
    move_time: float | None,
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
    *,
    seed: int = 0,
    stderr: TextIO = sys.stderr,
    verbose: bool = False,
) -> int:
    """Plays one game as an engine: ``color`` 1 = red, 2 = white.

    Reads 8 board rows, answers one move, until its input ends. When a board is one
    opponent move away from the last position, that move is replayed so the game's
    history (repetitions, the 80-ply count) is kept; otherwise the board is taken
    as it is. Returns 0, or 1 for a board that cannot be read or has no legal move.
    ``verbose`` reports each search on ``stderr``.
    """
    seat = color - 1
    agent.reset(game, seat, seed)
    previous: State | None = None
    budget = ProgramBudget(move_time, seat)
    while True:
        rows = []
        for _ in range(8):
            line = stdin.readline()
            if not line:
                return 0
            rows.append(line.strip())
        try:
            board = parse_board(rows, seat)
        except NotationError as e:
            print(f"checkers engine: {e}", file=stderr)
            return 1
        s = _continue(game, previous, board) if previous is not None else board
        moves = game.legal_moves(s)
        if not moves:
            print("checkers engine: no legal move on this board", file=stderr)
            return 1
        m = agent.choose(s, budget.next_limit())
        text = move_text(game, s, m)
        if verbose:
            print(f"{text}: {search_note(agent)}", file=stderr, flush=True)
        stdout.write(text + "\n")
        stdout.flush()
        previous = game.apply(s, m)


def _continue(game: Checkers, previous: State, board: State) -> State:
    """Returns the state after the opponent move that turns ``previous`` into ``board``."""
    for m in game.legal_moves(previous):
        after = game.apply(previous, m)
        if after.pieces == board.pieces and after.kings == board.kings:
            return after
    return board
