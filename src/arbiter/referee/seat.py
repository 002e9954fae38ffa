"""Seats: one side of one game as the referee sees it (cutechess ``ChessPlayer``).

A seat is asked for a move (the reply text, in its own seat's numbering, and the
seconds to charge), told the opponent's moves, and stopped at the end. Programs,
in-process engines and people are all seats, so all of them play through the same
referee loop and are judged alike: :class:`LocalSeat` runs a built-in engine;
:class:`~arbiter.referee.line_seat.LineSeat` and
:class:`~arbiter.referee.file_seat.FileSeat` run contest programs;
:class:`~arbiter.human.HumanSeat` asks a person at the terminal.
"""

from __future__ import annotations

import asyncio
import shlex
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from arbiter.agents.base import Agent, Limit
from arbiter.clock import Clock
from arbiter.errors import AgentFault, ConfigError, Crash, Timeout
from arbiter.game import Game, Outcome, Player
from arbiter.referee.supervision import Charging, Supervision

if TYPE_CHECKING:
    from arbiter.contract import RefereeProtocol

S = TypeVar("S")
M = TypeVar("M", bound=Hashable)
S_in = TypeVar("S_in", contravariant=True)
M_in = TypeVar("M_in", bound=Hashable, contravariant=True)


@dataclass(frozen=True, slots=True)
class Reply:
    """A seat's answer: its text (in the seat's own numbering), the seconds to charge,
    and a note for onlookers (an engine's depth and score)."""

    text: str
    seconds: float
    note: str = ""


@dataclass(frozen=True, slots=True)
class Program:
    """An external contest program: its argv, working directory and display name."""

    argv: tuple[str, ...]
    cwd: str | None = None
    name: str = ""

    @classmethod
    def from_command(
        cls, command: str | Sequence[str], *, cwd: str | None = None, name: str = ""
    ) -> Program:
        """Returns the program of a shell-quoted command string or an argv list.

        :raises ConfigError: for an empty command or unbalanced quotes.
        """
        argv = tuple(split_command(command))
        return cls(argv, cwd, name or " ".join(argv))

    @property
    def label(self) -> str:
        """The name to show for the program."""
        return self.name or " ".join(self.argv)


class TakeBack(Exception):
    """Raised by a person's seat to take back their last move (casual play only)."""


class Seat(Protocol[S_in, M_in]):
    """One side of one game."""

    name: str

    async def start(self, seat: Player, clock: Clock) -> None:
        """Gets ready to play ``seat``; raises AgentFault if it cannot."""
        ...

    async def ask(self, s: S_in, clock: Clock) -> Reply:
        """Returns the seat's reply for ``s`` and the seconds to charge for it.

        :raises AgentFault: for a crash, a time-out or a broken protocol.
        """
        ...

    async def tell(self, before: S_in, move: M_in, after: S_in) -> None:
        """Passes on the opponent's ``move``, played in ``before`` and leading to ``after``.

        :raises AgentFault: if the seat cannot be told.
        """
        ...

    async def rewind(self, s: S_in) -> bool:
        """Goes back to ``s`` after a take-back; False if this seat cannot."""
        ...

    async def stop(self, outcome: Outcome) -> None:
        """Ends the game for this seat; never raises."""
        ...


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
        referee: RefereeProtocol[S, M],
        *,
        supervision: Supervision | None = None,
        name: str | None = None,
        seed: int = 0,
        limit: Limit | None = None,
    ) -> None:
        self.agent = agent
        self.limit = limit
        self.game = game
        self.referee = referee
        self.supervision = supervision or Supervision()
        self.name = name or agent.name
        self.seed = seed
        self.seat: Player = 0

    async def start(self, seat: Player, clock: Clock) -> None:
        self.seat = seat
        try:
            self.agent.reset(self.game, seat, self.seed)
        except Exception as e:  # its tables cannot be made: that engine's crash
            raise Crash(f"{self.name}: {type(e).__name__}: {e}", f"{type(e).__name__}: {e}") from e

    def _think(self, s: S, limit: Limit, clock: Clock) -> Reply:
        wall = self.supervision.charging is Charging.WALL
        t0 = time.perf_counter() if wall else time.thread_time()
        m = self.agent.choose(s, limit)
        used = (time.perf_counter() if wall else time.thread_time()) - t0
        m = self.referee.comply(self.game, s, m, out_of_time=clock.base_spent(self.seat, used))
        text = self.referee.move_text(self.game, s, m, seat=self.seat)
        return Reply(text, used, self.agent.note())

    def _limit(self, clock: Clock) -> Limit:
        """What the engine is told to spend: the fixed limit, or what its clock allows,
        measured as the contest charges it."""
        limit = self.limit or clock.limit_for(self.seat)
        return replace(limit, wall=self.supervision.charging is Charging.WALL)

    async def ask(self, s: S, clock: Clock) -> Reply:
        wall = self.supervision.wall_limit(clock.kill_at(self.seat))
        try:
            async with asyncio.timeout(wall):  # unlike wait_for, never eats a cancel
                return await asyncio.to_thread(self._think, s, self._limit(clock), clock)
        except TimeoutError:
            # a thread cannot be killed: the engine is asked to stop, and its move is unused
            self.agent.halt()
            raise Timeout(
                f"{self.name}: no move within {wall:.2f}s wall time",
                detail=f"no move within {wall:.2f}s wall time",
            ) from None
        except AgentFault:
            raise
        except Exception as e:  # an engine's bug is that engine's crash, not the referee's
            raise Crash(f"{self.name}: {type(e).__name__}: {e}", f"{type(e).__name__}: {e}") from e

    async def tell(self, before: S, move: M, after: S) -> None:
        self.agent.observe(before, move)

    async def rewind(self, s: S) -> bool:
        self.agent.reset(self.game, self.seat, self.seed)
        return True

    async def stop(self, outcome: Outcome) -> None:
        self.agent.halt()


def split_command(command: str | Sequence[str]) -> list[str]:
    """Returns the argv of a shell-quoted command string (or a copy of an argv list).

    :raises ConfigError: for an empty command or unbalanced quotes.
    """
    if isinstance(command, str):
        try:
            argv = shlex.split(command)
        except ValueError as e:
            raise ConfigError(f"invalid command {command!r}: {e}") from None
    else:
        argv = list(command)
    if not argv:
        raise ConfigError(f"invalid command {command!r}: it is empty")
    return argv
