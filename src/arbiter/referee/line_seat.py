"""A contest program started once per game and spoken to in lines (Votey, checkers,
Alquerque, Chinese checkers).

:class:`LineSeat` does what every such contest needs, by its protocol's
:class:`~arbiter.referee.supervision.Supervision` options: it starts the program
with the contest's arguments in a working directory of its own (a fresh one for
each game, a copy of the program's own if it has one, in its box:
:mod:`arbiter.referee.box`) with a minimal environment; charges each
reply (CPU of the tree since the program's previous reply, or wall time from the
referee's message to the reply); stops the program at its kill deadline or wall
backstop; suspends its whole tree from each reply until it is asked again; and
kills everything it started at the end. A contest's ``referee.py`` subclasses it
only for the lines themselves: :meth:`arguments`, :meth:`request`, :meth:`accept`,
:meth:`tell`, :meth:`finish`.

Charging from the previous reply, not from the next message, means CPU a program
spends after replying (thinking on its opponent's time, before the stop arrives or
with suspension off) is charged to its next move. A line a program wrote after its
reply and before it was asked again (two moves at once, or a move during the
opponent's turn) is the fault "output before its turn".
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Generic, TypeVar

from arbiter.clock import Charging, Clock
from arbiter.contract import Program, Reply, Supervision
from arbiter.errors import AgentFault, EarlyOutput, Timeout
from arbiter.game import Outcome, Player
from arbiter.referee.box import Box
from arbiter.referee.pipe import LinePipe, LineTransport
from arbiter.referee.supervision import (
    confinement,
    make_box,
    program_argv,
    program_environment,
)
from arbiter.referee.transcript import Transcript

S = TypeVar("S")
M = TypeVar("M")


class LineSeat(Generic[S, M]):
    """The referee's seat for a program spoken to in lines; see the module docstring.

    ``transport_factory`` builds the transport from the argv and working directory;
    tests give a scripted one, and by default it is a real :class:`LinePipe`.
    """

    def __init__(
        self,
        program: Program,
        *,
        supervision: Supervision | None = None,
        transport_factory: Callable[[list[str], str | None], LineTransport] | None = None,
    ) -> None:
        self.program = program
        self.name = program.label
        self.supervision = supervision or Supervision()
        self.transport_factory = transport_factory
        self.seat: Player = 0
        self.transport: LineTransport | None = None
        self._cpu_base = 0.0
        self._message_at: float | None = None
        self._first = True
        self.box: Box | None = None
        self.transcript: Transcript | None = None
        self._replies = 0

    # -- what a contest's protocol supplies ------------------------------------

    def arguments(self, seat: Player) -> list[str]:
        """The arguments the contest starts the program with (none by default)."""
        return []

    async def request(self, s: S) -> None:
        """Writes what the program reads before it replies with a move (nothing by
        default: the opponent's move, sent by :meth:`tell`, is the request)."""

    def accept(self, line: str, first: bool) -> bool:
        """False for a reply line the contest ignores (read the next one instead)."""
        return True

    async def tell(self, before: S, move: M, after: S) -> None:
        """Passes on the opponent's move (nothing by default)."""

    async def finish(self, outcome: Outcome) -> None:
        """Writes the contest's last lines to the program, if any (none by default)."""

    # -- the life of the program -----------------------------------------------

    async def start(self, seat: Player, clock: Clock) -> None:
        self.seat = seat
        argv = [*program_argv(self.program), *self.arguments(seat)]
        if self.supervision.log_dir is not None:
            self.transcript = Transcript(self.supervision.log_dir, seat, self.name)
            command = self.program.shown or " ".join(program_argv(self.program))
            self.transcript.open(f"started: {' '.join([command, *self.arguments(seat)])}")
        if self.transport_factory is not None:
            self.transport = self.transport_factory(argv, self.program.cwd)
        else:
            sup = self.supervision
            self.box = box = make_box(sup, self.program, argv)
            self.transport = LinePipe(
                argv,
                name=self.name,
                cwd=box.path,
                env=program_environment(box.path, sup.pass_env, box.folders),
                confinement=confinement(sup),
                on_stderr=None if self.transcript is None else self.transcript.stderr,
                box=box,
            )
        await self.transport.start()
        self._cpu_base = 0.0  # start-up counts towards the first move
        self._first = True
        if self.supervision.suspend:
            self.transport.suspend()

    async def send(self, text: str) -> None:
        """Writes one line; the first message after a reply starts the wall clock."""
        assert self.transport is not None, "start() first"
        if self._message_at is None:
            self._message_at = time.monotonic()
        if self.transcript is not None:
            self.transcript.sent(text)
        await self.transport.send_line(text)

    async def ask(self, s: S, clock: Clock) -> Reply:
        transport = self.transport
        assert transport is not None, "start() first"
        early = [] if self._first else transport.pending()
        if early:
            raise EarlyOutput(
                f"wrote {early[0]!r} before its turn", who=self.name, offending=early[0]
            )
        if self.supervision.suspend:
            transport.resume()
        await self.request(s)
        if self._message_at is None:
            self._message_at = time.monotonic()
        while True:
            try:
                line = await self._read(transport, clock)
            except AgentFault as e:
                if self.transcript is not None:
                    if isinstance(e, Timeout) and e.late is not None:
                        self.transcript.received(e.late)  # it came, though too late
                    self.transcript.fault(e)
                raise
            if self.transcript is not None:
                self.transcript.received(line)
            first, self._first = self._first, False
            if self.accept(line, first):
                break
        used = self._charged(transport)
        self._message_at = None
        self._replies += 1
        if self.transcript is not None:
            self.transcript.replied(self._replies, used)
        if self.supervision.suspend:
            transport.suspend()
        return Reply(line, used)

    def _charged(self, transport: LineTransport) -> float:
        """The seconds this reply is charged; the CPU time so far becomes the next
        reply's base."""
        base, self._cpu_base = self._cpu_base, transport.cpu_time()
        if self.supervision.charging is Charging.WALL:
            assert self._message_at is not None
            return time.monotonic() - self._message_at
        return self._cpu_base - base

    async def _read(self, transport: LineTransport, clock: Clock) -> str:
        sup = self.supervision
        kill_at = clock.kill_at(self.seat)
        wall = sup.wall_limit(kill_at)
        if sup.charging is Charging.WALL and wall is not None:
            assert self._message_at is not None
            wall -= time.monotonic() - self._message_at
            if wall <= 0:
                raise Timeout(f"no reply within {kill_at:.2f}s", who=self.name)
        return await transport.read_line(
            cpu_limit=kill_at if sup.charging is Charging.CPU else None,
            cpu_base=self._cpu_base,
            wall_limit=wall,
            memory_limit=sup.memory_limit,
        )

    async def rewind(self, s: S) -> bool:
        return False

    async def stop(self, outcome: Outcome) -> None:
        """Writes the contest's last lines, then closes the program and kills anything
        of it still running (a game stopped while the program was being started, too:
        its transcript says so and its box goes)."""
        if self.transcript is not None:
            self.transcript.finish(outcome)
        if self.transport is not None:
            if self.supervision.suspend:
                self.transport.resume()
            with contextlib.suppress(Exception):
                await self.finish(outcome)
            with contextlib.suppress(Exception):
                await self.transport.close()
        if self.transcript is not None:
            self.transcript.close()
        if self.box is not None:
            self.box.close()
            self.box = None
