"""Seats: one side of one game, as the referee sees it (cutechess ``ChessPlayer``).

A seat is asked for a move (the contest's text and the seconds to charge), told
the opponent's moves, and stopped at the end. :class:`LocalSeat` runs an
in-process :class:`~arbiter.agents.base.Agent`; :class:`ProcessSeat` runs an
external program, and each contest's ``protocol.py`` subclasses it with that
contest's lines. Both are charged through the same clock, so both are judged alike.
"""

from __future__ import annotations

import asyncio
import shlex
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from arbiter.agents.base import Limit
from arbiter.clock import Clock
from arbiter.errors import AgentFault, ConfigError, Crash, Timeout
from arbiter.game import Game, Outcome, Player
from arbiter.referee.process import Channel


class LineChannel(Protocol):
    """What a ProcessSeat talks through: a :class:`Channel`, or a scripted one in tests."""

    async def start(self) -> None: ...
    async def send_line(self, text: str) -> None: ...
    async def read_line(
        self,
        *,
        cpu_limit: float | None = None,
        cpu_base: float = 0.0,
        wall_limit: float | None = None,
        memory_limit: int | None = None,
    ) -> str: ...
    def cpu_time(self) -> float: ...
    async def close(self, grace: float = 0.5) -> int | None: ...


class Seat(Protocol):
    """One side of one game."""

    name: str

    async def start(self, seat: Player) -> None:
        """Gets ready to play ``seat``; raises AgentFault if it cannot."""
        ...

    async def ask(self, s: Any, clock: Clock) -> tuple[str, float]:
        """Returns the seat's move text for ``s`` and the seconds to charge for it."""
        ...

    async def tell(self, before: Any, move: Any, after: Any) -> None:
        """Passes on the opponent's ``move``, played in ``before`` and leading to ``after``."""
        ...

    async def stop(self, outcome: Outcome) -> None:
        """Ends the game for this seat; must not raise."""
        ...


class LocalSeat:
    """An in-process agent; its thread CPU time is what it is charged.

    ``move_text(game, s, m, seat)`` turns the agent's move into the contest's text,
    which the referee then parses and judges like any program's reply.
    """

    def __init__(
        self,
        agent: Any,
        game: Game[Any, Any],
        move_text: Any,
        *,
        name: str | None = None,
        seed: int = 0,
    ) -> None:
        self.agent = agent
        self.game = game
        self.move_text = move_text
        self.name = name or agent.name
        self.seed = seed
        self.seat: Player = 0

    async def start(self, seat: Player) -> None:
        self.seat = seat
        self.agent.reset(self.game, seat, self.seed)

    def _think(self, s: Any, limit: Limit) -> tuple[str, float]:
        t0 = time.thread_time()
        m = self.agent.choose(s, limit)
        used = time.thread_time() - t0
        return self.move_text(self.game, s, m, self.seat), used

    async def ask(self, s: Any, clock: Clock) -> tuple[str, float]:
        allowance = clock.allowance(self.seat)
        wall = None if allowance is None else 2 * allowance + 1
        try:
            return await asyncio.wait_for(
                asyncio.to_thread(self._think, s, clock.limit_for(self.seat)), wall
            )
        except TimeoutError:
            # the thread cannot be stopped; it finishes in the background, unused
            raise Timeout(
                f"{self.name}: no move within {wall:.1f}s wall time",
                detail=f"no move within {wall:.1f}s wall time",
            ) from None
        except AgentFault:
            raise
        except Exception as e:  # an agent bug is that agent's crash, not the referee's
            raise Crash(f"{self.name}: {type(e).__name__}: {e}", f"{type(e).__name__}: {e}") from e

    async def tell(self, before: Any, move: Any, after: Any) -> None:
        self.agent.observe(before, move)

    async def stop(self, outcome: Outcome) -> None:
        pass


class ProcessSeat:
    """An external program; the contest's ``protocol.py`` supplies the lines.

    ``command`` is a shell-quoted string or an argv list. CPU time is that of the
    program's whole process tree; ``wall_factor`` and ``wall_extra`` set the
    wall-clock backstop (``allowance * wall_factor + wall_extra`` seconds) that
    catches an agent that sleeps or blocks; ``memory_limit_mb`` caps the tree's
    resident memory while it thinks.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        name: str | None = None,
        cwd: str | None = None,
        memory_limit_mb: float | None = None,
        wall_factor: float = 2.0,
        wall_extra: float = 1.0,
    ) -> None:
        self.argv = split_command(command)
        self.name = name or " ".join(self.argv)
        self.cwd = cwd
        self.memory_limit = None if memory_limit_mb is None else int(memory_limit_mb * 2**20)
        self.wall_factor = wall_factor
        self.wall_extra = wall_extra
        self.seat: Player = 0
        self.channel: LineChannel | None = None
        #: builds the channel from the argv; None for a real process (tests script one)
        self.channel_factory: Callable[[list[str]], LineChannel] | None = None
        self.cpu_base = 0.0

    def arguments(self, seat: Player) -> list[str]:
        """Returns the arguments the contest appends to the command (none by default)."""
        return []

    async def start(self, seat: Player) -> None:
        self.seat = seat
        argv = self.argv + self.arguments(seat)
        if self.channel_factory is not None:
            self.channel = self.channel_factory(argv)
        else:
            self.channel = Channel(argv, name=self.name, cwd=self.cwd)
        await self.channel.start()
        self.cpu_base = 0.0

    async def read_reply(self, clock: Clock) -> tuple[str, float]:
        """Reads one line within the clock's allowance; returns it and the CPU it cost."""
        assert self.channel is not None
        allowance = clock.allowance(self.seat)
        wall = None if allowance is None else allowance * self.wall_factor + self.wall_extra
        line = await self.channel.read_line(
            cpu_limit=allowance,
            cpu_base=self.cpu_base,
            wall_limit=wall,
            memory_limit=self.memory_limit,
        )
        used = self.channel.cpu_time() - self.cpu_base
        return line, used

    async def send(self, text: str) -> None:
        """Writes one line, first noting the CPU baseline the next reply is charged from."""
        assert self.channel is not None
        self.cpu_base = self.channel.cpu_time()
        await self.channel.send_line(text)

    async def close(self) -> None:
        """Closes the program and kills anything of it still running."""
        if self.channel is not None:
            await self.channel.close()


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
