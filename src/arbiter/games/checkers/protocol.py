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

from collections.abc import Sequence

from arbiter.agents.base import Agent
from arbiter.agents.program import ProgramClock, seat_argument
from arbiter.clock import TimeControl
from arbiter.contract import AgentRun, keep_move, keep_outcome
from arbiter.errors import NotationError
from arbiter.game import Game, Player
from arbiter.games.checkers.notation import board_rows, format_move, parse_board, resolve_move
from arbiter.games.checkers.rules import Move, State
from arbiter.referee.line_seat import LineSeat
from arbiter.referee.seat import Program
from arbiter.referee.supervision import Supervision

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


# -- the agent side -----------------------------------------------------------


def serve(
    agent: Agent[State, Move], game: Game[State, Move], args: Sequence[str], run: AgentRun
) -> int:
    """Plays one game as an engine started as ``PROGRAM 1`` (red) or ``PROGRAM 2`` (white).

    Reads 8 board rows, answers one move, until its input ends. When a board is one
    opponent move away from the last position, that move is replayed so the game's
    history (repetitions, the 80-ply count) is kept; otherwise the board is taken
    as it is. Returns 0, or 1 for a board that cannot be read or has no legal move.

    :raises ConfigError: unless ``args`` is ``1`` or ``2``.
    """
    seat = seat_argument(args, "a checkers engine")
    stdin, stdout, stderr = run.stdin, run.stdout, run.stderr
    agent.reset(game, seat, run.seed)
    previous: State | None = None
    clock = ProgramClock(run.time_control, seat, SUPERVISION.charging)
    while True:
        rows = []
        for _ in range(8):
            line = stdin.readline()
            if not line:
                return 0
            rows.append(line.strip())
        clock.message_received()
        try:
            board = parse_board(rows, seat)
        except NotationError as e:
            print(f"checkers engine: {e}", file=stderr)
            return 1
        s = board
        if previous is not None:
            s, theirs = _continue(game, previous, board)
            if theirs is not None:
                agent.observe(previous, theirs)
        if not game.legal_moves(s):
            print("checkers engine: no legal move on this board", file=stderr)
            return 1
        m = agent.choose(s, clock.limit())
        text = move_text(game, s, m, seat=seat)
        if run.verbose:
            print(f"{text}: {agent.note()}", file=stderr, flush=True)
        stdout.write(run.reply(text) + "\n")
        stdout.flush()
        clock.replied()
        previous = game.apply(s, m)


def _continue(game: Game[State, Move], previous: State, board: State) -> tuple[State, Move | None]:
    """Returns the state after the opponent move that turns ``previous`` into
    ``board``, with that move (the board alone and ``None`` if no move does)."""
    for m in game.legal_moves(previous):
        after = game.apply(previous, m)
        if after.pieces == board.pieces and after.kings == board.kings:
            return after, m
    return board, None
