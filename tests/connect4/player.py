"""The program's side of the Connect Four protocol (``arbiter agent connect4``)."""

from __future__ import annotations

from collections.abc import Sequence

from arbiter.agents.program import ProgramClock, seat_argument, write_reply
from arbiter.contract import Agent, AgentRun
from arbiter.errors import ArbiterError
from arbiter.game import Game
from tests.connect4.contest import SUPERVISION
from tests.connect4.notation import format_move, resolve_move
from tests.connect4.rules import State


def serve(
    agent: Agent[State, int], game: Game[State, int], args: Sequence[str], run: AgentRun
) -> int:
    """Plays one game as a contest program; 1 when the referee sends a bad move.

    :raises ConfigError: unless ``args`` is ``1`` or ``2``.
    """
    seat = seat_argument(args, "a connect4 program")
    agent.reset(game, seat, run.seed)
    clock = ProgramClock(run.time_control, seat, SUPERVISION.charging)
    s = game.initial()
    while game.outcome(s) is None:
        if game.to_move(s) == seat:
            m = agent.choose(s, clock.limit())
            write_reply(run, clock, format_move(m, seat=seat), agent.note())
        else:
            line = run.stdin.readline()
            clock.message_received()
            if not line:
                return 0
            try:
                m = resolve_move(line, s, seat=seat)
            except ArbiterError as e:
                print(f"connect4 agent: bad opponent move: {e}", file=run.stderr)
                return 1
            agent.observe(s, m)
        s = game.apply(s, m)
    run.stdin.readline()  # until the referee closes the input
    return 0
