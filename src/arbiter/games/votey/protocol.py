"""Both sides of the Votey contest protocol, byte for byte as the sheet describes it.

The agent is started as ``PROGRAM 1`` (black) or ``PROGRAM 2`` (white). Each move is
one integer on its own line (``FFTT``, negated when it wins). Black writes first;
white reads black's first move first. A line ``-1`` tells an agent its move was
illegal or too slow and ends its game. An agent stops on ``-1``, on a negative
(winning) opponent move, or at the end of its input.

Referee rulings (the sheet's disqualifications plus what it leaves open):

- illegal move, false win claim, unclaimed winning move, a line that is not one
  integer, a crash or early exit, and more than the CPU allowance per move (default
  60 s, user+sys of the agent's whole process tree; a wall-clock backstop catches
  an agent that sleeps) each lose the game; the offender is sent ``-1``;
- a winning move is passed on (negated) to the loser, whose input is then closed;
- the sheet's development ``play(0)`` prints ``0`` before white's first read: a
  first line ``0`` from white is read and ignored, so such programs run unchanged;
- at the end of the game every agent's input is closed; one still running after
  half a second is killed with its whole process tree.
"""

from __future__ import annotations

import contextlib
import sys
from typing import Any, TextIO

from arbiter.agents.base import ProgramBudget, search_note
from arbiter.clock import Clock
from arbiter.errors import FalseClaim, NotationError, UnclaimedWin
from arbiter.game import Outcome, Player
from arbiter.games.votey.notation import claims_win, format_move, resolve_move
from arbiter.games.votey.rules import Move, State, Votey
from arbiter.referee.seat import ProcessSeat

DEFAULT_MOVE_TIME = 60.0
"""The sheet: each move within one minute of CPU time."""


def wins(game: Votey, s: State, m: Move) -> bool:
    """True when ``m`` wins the game for the side that plays it in ``s``."""
    return game.apply(s, m).winner == s.to_move


def move_text(game: Votey, s: State, m: Move, seat: Player = 0) -> str:
    """Returns the line the mover writes for ``m`` in ``s``: negated when it wins."""
    return format_move(m, win=wins(game, s, m))


def judge(game: Votey, s: State, text: str, seat: Player = 0) -> Move:
    """Returns the move ``text`` makes in ``s``, judged as the contest's referee.

    :raises NotationError: if the line is not one move integer.
    :raises IllegalMove: if the move is not legal.
    :raises FalseClaim: if it is negated but does not win.
    :raises UnclaimedWin: if it wins but is not negated.
    """
    m = resolve_move(text, s, game=game)
    won = wins(game, s, m)
    claimed = claims_win(text)
    if claimed and not won:
        raise FalseClaim(
            f"{text.strip()!r} claims a win but does not connect the mover",
            f"{text.strip()!r} claims a win it does not make",
        )
    if won and not claimed:
        raise UnclaimedWin(
            f"{text.strip()!r} wins but was not negated",
            f"{text.strip()!r} wins but was not negated",
        )
    return m


class VoteyProcessSeat(ProcessSeat):
    """An external Votey program, run as ``COMMAND 1`` or ``COMMAND 2``."""

    def arguments(self, seat: Player) -> list[str]:
        return [str(seat + 1)]

    async def start(self, seat: Player) -> None:
        await super().start(seat)
        self._first_read = True

    async def ask(self, s: State, clock: Clock) -> tuple[str, float]:
        line, used = await self.read_reply(clock)
        if self._first_read and self.seat == 1 and line.strip() == "0":
            line, used = await self.read_reply(clock)
        self._first_read = False
        return line, used

    async def tell(self, before: State, move: Move, after: State) -> None:
        await self.send(format_move(move, win=after.winner == before.to_move))

    async def stop(self, outcome: Outcome) -> None:
        if outcome.reason.is_fault and outcome.winner is not None and outcome.winner != self.seat:
            with contextlib.suppress(Exception):
                await self.send("-1")
        await self.close()


# -- the agent side -----------------------------------------------------------


def serve(
    agent: Any,
    game: Votey,
    color: int,
    move_time: float | None,
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
    *,
    seed: int = 0,
    stderr: TextIO = sys.stderr,
    verbose: bool = False,
) -> int:
    """Plays one game as the sheet's agent program: ``color`` 1 = black, 2 = white.

    Returns the exit status: 0 after a normal end, 1 if the referee sent something
    that is not a legal move (the message goes to ``stderr``). ``verbose`` reports
    each search on ``stderr``.
    """
    seat = color - 1
    agent.reset(game, seat, seed)
    s = game.initial()
    budget = ProgramBudget(move_time, seat)

    def opponent_move() -> bool:
        nonlocal s
        line = stdin.readline()
        if not line:
            return False
        text = line.strip()
        if text == "-1":
            return False
        try:
            m = resolve_move(text, s, game=game)
        except (NotationError, ValueError) as e:
            print(f"votey agent: bad opponent move: {e}", file=stderr)
            raise SystemExit(1) from None
        agent.observe(s, m)
        s = game.apply(s, m)
        return not claims_win(text) and game.outcome(s) is None

    if seat == 1 and not opponent_move():
        return 0
    while True:
        m = agent.choose(s, budget.next_limit())
        text = move_text(game, s, m)
        if verbose:
            print(f"{text}: {search_note(agent)}", file=stderr, flush=True)
        s = game.apply(s, m)
        stdout.write(text + "\n")
        stdout.flush()
        if game.outcome(s) is not None:
            # wait for the referee to close our input (or send -1), then stop
            stdin.readline()
            return 0
        if not opponent_move():
            return 0


def process_seat(command: str, **options: Any) -> VoteyProcessSeat:
    """Returns the referee's seat for an external Votey program."""
    return VoteyProcessSeat(command, **options)
