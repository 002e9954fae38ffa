"""The program's side of the CodeCup 2008 Alquerque jury protocol: a built-in engine
playing as a contest program (``arbiter agent``; see
:mod:`arbiter.games.alquerque.contest` for the protocol)."""

from __future__ import annotations

from collections.abc import Sequence

from arbiter.agents.program import ProgramClock, write_reply
from arbiter.contract import Agent, AgentRun
from arbiter.errors import ConfigError, NotationError
from arbiter.game import Game
from arbiter.games.alquerque.contest import SUPERVISION, move_text
from arbiter.games.alquerque.notation import resolve_move
from arbiter.games.alquerque.rules import Move, State


def serve(
    agent: Agent[State, Move], game: Game[State, Move], args: Sequence[str], run: AgentRun
) -> int:
    """Plays one game as a CodeCup 2008 player: reads ``Start`` (white) or white's first
    move (black), then writes a move and reads one in turn. Exits on ``Quit``, at the
    end of its input, after its own winning move and after the 100-move tie.

    Returns 0, or 1 if the jury sent something that is not a valid move.

    :raises ConfigError: if started with arguments (CodeCup players take none).
    """
    if args:
        raise ConfigError(f"a CodeCup player is started with no arguments, not {list(args)!r}")
    stdin, stderr = run.stdin, run.stderr
    first = stdin.readline().strip()
    seat = 0 if first == "Start" else 1
    clock = ProgramClock(run.time_control, seat, SUPERVISION.charging)
    clock.message_received()
    agent.reset(game, seat, run.seed)
    s = game.initial()
    line = first
    while True:
        if game.to_move(s) != seat:
            if line in ("", "Quit"):
                return 0
            try:
                m = resolve_move(line, s, seat=seat)
            except (NotationError, ValueError) as e:
                print(f"alquerque player: bad move from the jury: {e}", file=stderr)
                return 1
            agent.observe(s, m)
            s = game.apply(s, m)
            if game.outcome(s) is not None:
                return 0  # lost (Quit follows) or the 100-move tie: exit by ourselves
        m = agent.choose(s, clock.limit())
        write_reply(run, clock, move_text(game, s, m, seat=seat), agent.note())
        s = game.apply(s, m)
        if game.outcome(s) is not None:
            return 0  # our winning move, or the tie: the winner exits by itself
        line = stdin.readline().strip()
        clock.message_received()
