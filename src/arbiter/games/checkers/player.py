"""The program's side of the checkers engine protocol: a built-in engine playing as a
contest program (``arbiter agent``; see :mod:`arbiter.games.checkers.contest` for the
protocol)."""

from __future__ import annotations

from collections.abc import Sequence

from arbiter.agents.program import ProgramClock, seat_argument, write_reply
from arbiter.contract import Agent, AgentRun
from arbiter.errors import NotationError
from arbiter.game import Game
from arbiter.games.checkers.contest import (
    SUPERVISION,
    move_text,
)
from arbiter.games.checkers.notation import parse_board
from arbiter.games.checkers.rules import Move, State


def serve(
    agent: Agent[State, Move], game: Game[State, Move], args: Sequence[str], run: AgentRun
) -> int:
    """Plays one game as an engine started as ``PROGRAM 1`` (red) or ``PROGRAM 2`` (white).

    Reads 8 board rows, answers one move, until its input ends. When a board is one
    opponent move away from the last position, that move is replayed so the game's
    history (repetitions, the 80-ply count) is kept; otherwise the board is taken
    as it is. A board sent after the game ended by a draw rule of its history (a
    threefold repetition, the move count: the referee does not apply them) is said
    on standard error and played from as it stands. Returns 0, or 1 for a line that is
    not a board row (said at once, not after 8 lines), input ending inside a board, a
    board that cannot be read or has no legal move.

    :raises ConfigError: unless ``args`` is ``1`` or ``2``.
    """
    seat = seat_argument(args, "a checkers engine")
    stdin, stderr = run.stdin, run.stderr
    agent.reset(game, seat, run.seed)
    previous: State | None = None
    clock = ProgramClock(run.time_control, seat, SUPERVISION.charging)
    while True:
        rows: list[str] = []
        while len(rows) < 8:
            line = stdin.readline()
            if not line and not rows:
                return 0  # the referee ended the game between boards
            if not line:
                print(f"checkers engine: input ended after {len(rows)} of 8 rows", file=stderr)
                return 1
            row = line.strip()
            if len(row) != 8 or not set(row) <= set("01234"):
                print(f"checkers engine: {row!r} is not a board row of 8 digits 0-4", file=stderr)
                return 1
            rows.append(row)
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
        ended = game.outcome(s)
        if ended is not None and ended.winner is None and game.legal_moves(board):
            # drawn by a rule of the game's history (repetition, the move count) that
            # this referee does not apply: the board stands, its history is dropped
            print(
                f"checkers engine: the game ended by {ended.reason} under this engine's "
                "rules; the referee plays on, and so does the engine",
                file=stderr,
                flush=True,
            )
            s = board
        if not game.legal_moves(s):
            print("checkers engine: no legal move on this board", file=stderr)
            return 1
        m = agent.choose(s, clock.limit())
        write_reply(run, clock, move_text(game, s, m, seat=seat), agent.note())
        previous = game.apply(s, m)


def _continue(game: Game[State, Move], previous: State, board: State) -> tuple[State, Move | None]:
    """Returns the state after the opponent move that turns ``previous`` into
    ``board``, with that move (the board alone and ``None`` if no move does)."""
    for m in game.legal_moves(previous):
        after = game.apply(previous, m)
        if after.pieces == board.pieces and after.kings == board.kings:
            return after, m
    return board, None
