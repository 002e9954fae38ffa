"""Seats: one side of one game as the referee sees it (cutechess ``ChessPlayer``;
the :class:`~arbiter.contract.Seat` protocol).

A seat is asked for a move (the reply text, in its own seat's numbering, and the
seconds to charge), told the opponent's moves, and stopped at the end. Programs,
in-process engines and people are all seats, so all of them play through the same
referee loop and are judged alike: :class:`LocalSeat` runs a built-in engine;
:class:`~arbiter.referee.line_seat.LineSeat` and
:class:`~arbiter.referee.file_seat.FileSeat` run contest programs;
:class:`~arbiter.referee.human.HumanSeat` asks a person at the terminal.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Hashable
from dataclasses import replace
from typing import Generic, TypeVar

from arbiter.agents.registry import make_agent
from arbiter.agents.spec import AgentSpec
from arbiter.clock import Charging, Clock, Limit
from arbiter.contract import Agent, Contest, GameSpec, Reply, Seat, Supervision
from arbiter.errors import AgentFault, Crash, Timeout
from arbiter.game import Game, Outcome, Player

S = TypeVar("S")
M = TypeVar("M", bound=Hashable)


class TakeBack(Exception):
    """Raised by a person's seat to take back their last move (casual play only)."""


class LocalSeat(Generic[S, M]):
    """A built-in engine in this process, charged as the contest charges a program:
    its thread's CPU time, or the wall time of its search.

    Its move is turned into the contest's text for its seat, which the referee then
    parses and judges like any program's reply. ``limit``, when given, is what the
    engine is told to spend on every move instead of what its clock allows (casual
    play with no clock).
    """

    def __init__(
        self,
        agent: Agent[S, M],
        game: Game[S, M],
        contest: Contest[S, M],
        *,
        supervision: Supervision | None = None,
        name: str | None = None,
        seed: int = 0,
        limit: Limit | None = None,
    ) -> None:
        self.agent = agent
        self.limit = limit
        self.game = game
        self.contest = contest
        self.supervision = supervision or Supervision()
        self.name = name or agent.name
        self.seed = seed
        self.seat: Player = 0

    async def start(self, seat: Player, clock: Clock) -> None:
        self.seat = seat
        try:
            self.agent.reset(self.game, seat, self.seed)
        except Exception as e:  # its tables cannot be made: that engine's crash
            raise Crash(f"{type(e).__name__}: {e}", who=self.name) from e

    def _think(self, s: S, limit: Limit, clock: Clock, stop_at: float | None) -> Reply:
        """The engine's move, in its thread; ``stop_at`` is when (``perf_counter``) the
        referee stops it, told to the engine as what is left of it now: the thread may
        have waited for a core since the move was asked."""
        if stop_at is not None:
            limit = replace(limit, wall_stop=max(0.0, stop_at - time.perf_counter()))
        wall = self.supervision.charging is Charging.WALL
        t0 = time.perf_counter() if wall else time.thread_time()
        m = self.agent.choose(s, limit)
        used = (time.perf_counter() if wall else time.thread_time()) - t0
        m = self.contest.comply(self.game, s, m, out_of_time=clock.base_spent(self.seat, used))
        text = self.contest.move_text(self.game, s, m, seat=self.seat)
        return Reply(text, used, self.agent.note())

    def _limit(self, clock: Clock) -> Limit:
        """What the engine is told to spend: the fixed limit, or what its clock allows,
        measured as the contest charges it."""
        limit = self.limit or clock.limit_for(self.seat)
        return replace(limit, wall=self.supervision.charging is Charging.WALL)

    async def ask(self, s: S, clock: Clock) -> Reply:
        wall = self.supervision.wall_limit(clock.kill_at(self.seat))
        stop_at = None if wall is None else time.perf_counter() + wall
        limit = self._limit(clock)
        thinking = asyncio.ensure_future(asyncio.to_thread(self._think, s, limit, clock, stop_at))
        try:
            # asyncio.wait, not a timeout around the await: on a busy machine the event
            # loop may wake after the stop with the engine's reply already in; the
            # reply then counts (it came in time), where a timeout would cancel it
            done, _ = await asyncio.wait({thinking}, timeout=wall)
        except asyncio.CancelledError:  # the game stopped: so does the engine
            self.agent.halt()
            _forget(thinking)
            raise
        if thinking not in done:
            # a thread cannot be killed: the engine is asked to stop, and its move is unused
            self.agent.halt()
            _forget(thinking)
            raise Timeout(f"no move within {wall:.2f}s wall time", who=self.name)
        try:
            return thinking.result()
        except AgentFault:
            raise
        except Exception as e:  # an engine's bug is that engine's crash, not the referee's
            raise Crash(f"{type(e).__name__}: {e}", who=self.name) from e

    async def tell(self, before: S, move: M, after: S) -> None:
        self.agent.observe(before, move)

    async def rewind(self, s: S) -> bool:
        self.agent.reset(self.game, self.seat, self.seed)
        return True

    async def stop(self, outcome: Outcome) -> None:
        self.agent.halt()


def _forget(task: asyncio.Future[Reply]) -> None:
    """Lets an engine's thread finish unheeded, its result or error dropped."""
    task.add_done_callback(lambda t: t.cancelled() or t.exception())


def make_seat(
    spec: GameSpec[S, M],
    game: Game[S, M],
    agent: AgentSpec,
    *,
    supervision: Supervision,
    seed: int = 0,
) -> Seat[S, M]:
    """Returns the seat for ``agent``: a built-in engine in this process, or the
    program run through the contest's protocol; both are judged alike."""
    if agent.program is not None:
        seat = spec.program_seat(agent.program, supervision=supervision)
        seat.name = agent.name
        return seat
    engine = make_agent(spec, agent)
    return LocalSeat(
        engine, game, spec.contest, supervision=supervision, name=agent.name, seed=seed
    )
