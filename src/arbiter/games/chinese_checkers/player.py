"""The program's side of the Chinese checkers mediator protocol: a built-in engine playing
as a contest program (``arbiter agent``; see
:mod:`arbiter.games.chinese_checkers.contest` for the protocol)."""

from __future__ import annotations

from collections.abc import Sequence

from arbiter.agents.program import ProgramClock, write_reply
from arbiter.contract import Agent, AgentRun
from arbiter.errors import ConfigError, NotationError
from arbiter.game import Game, Player
from arbiter.games.chinese_checkers.contest import SUPERVISION, comply, move_text
from arbiter.games.chinese_checkers.notation import resolve_move
from arbiter.games.chinese_checkers.rules import Move, State


def serve(
    agent: Agent[State, Move], game: Game[State, Move], args: Sequence[str], run: AgentRun
) -> int:
    """Plays one game as a player under the mediator: reads ``1`` or ``2``, keeps the
    board in its own numbering, writes its moves and reads the opponent's. Its clock
    is its own CPU time, start-up included, as the mediator charges it.

    Returns 0 when the game ends or the input does, 1 if the mediator's first line
    is not ``1`` or ``2`` or a relayed move is not legal.

    :raises ConfigError: if started with arguments (players take none).
    """
    if args:
        raise ConfigError(f"a mediator player is started with no arguments, not {list(args)!r}")
    first = run.stdin.readline().strip()
    if first not in ("1", "2"):
        print(f"chinese-checkers player: expected 1 or 2 first, not {first!r}", file=run.stderr)
        return 1
    seat: Player = int(first) - 1
    clock = ProgramClock(run.time_control, seat, SUPERVISION.charging)
    agent.reset(game, seat, run.seed)
    s = game.initial()
    while game.outcome(s) is None:
        if game.to_move(s) == seat:
            m = comply(game, s, agent.choose(s, clock.limit()), out_of_time=clock.out_of_time())
            write_reply(run, clock, move_text(game, s, m, seat=seat), agent.note())
        else:
            line = run.stdin.readline()
            clock.message_received()
            if not line.strip():
                return 0
            try:
                m = resolve_move(line, s, seat=seat)
            except (NotationError, ValueError) as e:
                print(f"chinese-checkers player: bad move from the mediator: {e}", file=run.stderr)
                return 1
            agent.observe(s, m)
        s = game.apply(s, m)
    return 0
