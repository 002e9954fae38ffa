"""The program's side of the Votey protocol: a built-in engine playing as a contest program
(``arbiter agent``; see :mod:`arbiter.games.votey.contest` for the protocol)."""

from __future__ import annotations

from collections.abc import Sequence

from arbiter.agents.program import ProgramClock, seat_argument, write_reply
from arbiter.contract import Agent, AgentRun
from arbiter.errors import NotationError
from arbiter.game import Game
from arbiter.games.votey.contest import (
    SUPERVISION,
    move_text,
)
from arbiter.games.votey.notation import claims_win, resolve_move
from arbiter.games.votey.rules import Move, State


def serve(
    agent: Agent[State, Move], game: Game[State, Move], args: Sequence[str], run: AgentRun
) -> int:
    """Plays one game as the sheet's agent program, started as ``PROGRAM 1`` (black)
    or ``PROGRAM 2`` (white).

    Returns the exit status: 0 after a normal end, 1 if the referee sent something
    that is not a legal move (the message goes to standard error).

    :raises ConfigError: unless ``args`` is ``1`` or ``2``.
    """
    seat = seat_argument(args, "a votey program")
    stdin, stderr = run.stdin, run.stderr
    agent.reset(game, seat, run.seed)
    s = game.initial()
    clock = ProgramClock(run.time_control, seat, SUPERVISION.charging)

    def opponent_move() -> bool:
        nonlocal s
        line = stdin.readline()
        clock.message_received()
        if not line:
            return False
        text = line.strip()
        if text == "-1":
            return False
        try:
            m = resolve_move(text, s, seat=seat)
        except (NotationError, ValueError) as e:
            print(f"votey agent: bad opponent move: {e}", file=stderr)
            raise SystemExit(1) from None
        agent.observe(s, m)
        s = game.apply(s, m)
        return not claims_win(text) and game.outcome(s) is None

    if seat == 1 and not opponent_move():
        return 0
    while True:
        m = agent.choose(s, clock.limit())
        write_reply(run, clock, move_text(game, s, m, seat=seat), agent.note())
        s = game.apply(s, m)
        if game.outcome(s) is not None:
            # wait for the referee to close our input (or send -1), then stop
            stdin.readline()
            return 0
        if not opponent_move():
            return 0
