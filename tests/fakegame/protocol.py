"""Race over lines, shaped like the Chinese checkers mediator: the program is started
with no arguments and first reads its seat (``1`` or ``2``); moves are ``F-T`` lines,
each seat in its own numbering; a game clock with overtime, charged as CPU time;
the waiting program suspended. The clock ruling: a player in overtime whose token
still stands on its start cells after its move loses."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from arbiter.agents.program import ProgramClock
from arbiter.clock import Clock, TimeControl
from arbiter.contract import Agent, AgentRun, Program, Supervision, keep_move
from arbiter.errors import ConfigError, Reason
from arbiter.game import Game, Outcome, Player
from arbiter.referee.line_seat import LineSeat
from tests.fakegame.notation import format_move, resolve_move
from tests.fakegame.rules import START, TARGET, Move, State

TIME_CONTROL = TimeControl.parse("2 ot=1")
STARTS_ANYWHERE = False

SUPERVISION = Supervision(expose=(str(Path(__file__).resolve().parents[1]),))
"""The test game's program imports the test game: namespaced programs may read the
tests' folder."""


def judge(game: Game[State, Move], s: State, text: str, *, seat: Player) -> Move:
    return resolve_move(text, s, seat=seat)


def move_text(game: Game[State, Move], s: State, m: Move, *, seat: Player) -> str:
    return format_move(m, seat=seat)


def adjudicate(
    game: Game[State, Move], s: State, clock: Clock, ended: Outcome | None
) -> Outcome | None:
    mover = 1 - s.to_move
    if ended is None and s.ply > 0 and clock.in_overtime(mover) and s.pieces[mover] & START[mover]:
        return Outcome(1 - mover, Reason.ADJUDICATED, "a token at home after its time ran out")
    return ended


comply = keep_move
"""Race engines are not held to the home rule (a test game)."""


def score(game: Game[State, Move], s: State, outcome: Outcome) -> tuple[float, float]:
    """Win 3-0; otherwise each seat scores its tokens on their targets."""
    if outcome.winner is not None:
        return (3.0, 0.0) if outcome.winner == 0 else (0.0, 3.0)
    a, b = (bin(s.pieces[p] & TARGET[p]).count("1") for p in (0, 1))
    return float(a), float(b)


class RaceSeat(LineSeat[State, Move]):
    async def start(self, seat: Player, clock: Clock) -> None:
        await super().start(seat, clock)
        await self.send(str(seat + 1))

    async def tell(self, before: State, move: Move, after: State) -> None:
        await self.send(format_move(move, seat=self.seat))


def program_seat(program: Program, *, supervision: Supervision) -> RaceSeat:
    return RaceSeat(program, supervision=supervision)


def serve(
    agent: Agent[State, Move], game: Game[State, Move], args: Sequence[str], run: AgentRun
) -> int:
    if args:
        raise ConfigError(f"a race program takes no arguments, not {args!r}")
    seat = int(run.stdin.readline()) - 1
    agent.reset(game, seat, run.seed)
    clock = ProgramClock(run.time_control, seat)
    s = game.initial()
    while game.outcome(s) is None:
        if game.to_move(s) == seat:
            m = agent.choose(s, clock.limit())
            run.stdout.write(run.reply(format_move(m, seat=seat)) + "\n")
            run.stdout.flush()
            clock.replied()
        else:
            line = run.stdin.readline()
            clock.message_received()
            if not line:
                return 0
            m = resolve_move(line, s, seat=seat)
        s = game.apply(s, m)
    return 0
