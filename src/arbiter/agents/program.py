"""The clock a built-in engine keeps for itself when it runs as a contest program.

The referee charges a program as its contest says (CPU of the whole program since
its previous reply, or wall time from the referee's message to the reply) and
rarely tells it how much time it has left. :class:`ProgramClock` keeps the same
account on the program's side, so ``arbiter agent`` budgets per-move clocks and
whole-game clocks (with overtime) alike. Start-up counts towards the first move,
as the referee counts it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import replace

from arbiter.clock import Charging, Clock, Limit, TimeControl
from arbiter.contract import AgentRun, Supervision
from arbiter.errors import ConfigError
from arbiter.game import Player

MIN_BUDGET = 0.02
"""The least a move is given, in seconds, however little is left."""

UNSEEN = 0.02
"""Seconds a wall-charged move costs beyond what the program sees of it: the
referee's message on its way to the program and the reply on its way back, which
on a loaded machine wait for the scheduler. The program counts them against each
move it makes, so its clock runs no slower than the referee's (over a hundred moves
of a 4 s game clock they had added up to the whole of what it thought it had left)."""

SPENT_MARGIN = 0.1
"""Seconds of base time still left at which a program takes its base time as spent:
what a move still costs after the program judges it (writing the reply, the
referee's reading of it) and what the referee counts that the program does not see
(a shell that started it). A program that judged its last 0.01 s as time in hand
would make a move in overtime judged as one made before it."""


def write_reply(run: AgentRun, clock: ProgramClock, text: str, note: str) -> None:
    """Writes ``text`` as the program's reply, on a line of its own: shown with the
    engine's ``note`` on standard error when ``run`` is verbose, and the program's
    clock stopped just before it goes out (the referee may stop the program the moment
    it reads it). Every line protocol's program side replies so."""
    if run.verbose:
        print(f"{text}: {note}", file=run.stderr, flush=True)
    clock.replied()
    run.stdout.write(run.reply(text) + "\n")
    run.stdout.flush()


class ProgramClock:
    """One program's own account of its clock (see the module docstring)."""

    def __init__(
        self,
        tc: TimeControl,
        seat: Player,
        charging: Charging = Charging.CPU,
        *,
        began: float | None = None,
    ) -> None:
        self.clock = Clock.start(tc)
        self.seat = seat
        self.charging = charging
        # the first move is charged from the program's start: its CPU time so far, or
        # under wall charging the wall time since it began (``began``, on the
        # perf_counter scale; by default when the process began), an over-estimate when
        # the referee kept it suspended meanwhile, never an under-estimate
        if charging is Charging.CPU:
            self._mark = 0.0
        else:
            self._mark = _process_start() if began is None else began
        self._first = True
        self._asked = time.perf_counter()

    def _now(self) -> float:
        return time.process_time() if self.charging is Charging.CPU else time.perf_counter()

    def message_received(self) -> None:
        """Notes that the referee's message arrived: under wall charging, the move's
        time starts now (the first move's at the program's start)."""
        self._asked = time.perf_counter()
        if self.charging is Charging.WALL and not self._first:
            self._mark = self._asked

    def _waited(self) -> float:
        """Wall seconds since the referee's message (since the program's start, for its
        first move), with :data:`UNSEEN`: what the referee's wall stop has counted."""
        since = _process_start() if self._first else self._asked
        return time.perf_counter() - since + UNSEEN

    def limit(self) -> Limit:
        """Returns the Limit for the move now to be chosen: the clock as it stands, less
        what this move has already cost (reading the message, and start-up on the first
        move), measured as the contest charges it (under wall time with
        :data:`UNSEEN`)."""
        limit = replace(self.clock.limit_for(self.seat), wall=self.charging is Charging.WALL)
        spent = self._spent()
        stop = Supervision(self.charging).wall_limit(self.clock.kill_at(self.seat))
        if stop is not None:  # the referee's stop, on the wall clock, from its message
            limit = replace(limit, wall_stop=max(MIN_BUDGET, stop - self._waited()))
        if limit.time is not None:
            return replace(limit, time=max(MIN_BUDGET, limit.time - spent))
        if limit.my_clock is not None:
            return replace(limit, my_clock=max(MIN_BUDGET, limit.my_clock - spent))
        return limit

    def out_of_time(self) -> bool:
        """True when the base time is spent, counting what this move has cost so far
        and :data:`SPENT_MARGIN` (the move now being chosen is judged as one made in
        overtime)."""
        return self.clock.base_spent(self.seat, self._spent() + SPENT_MARGIN)

    def replied(self) -> None:
        """Charges the move now being answered to the program's own clock. Called just
        before the reply is written: the referee stops a program once it has its reply
        (the waiting program is suspended), and under wall charging a look at the clock
        after the write could come only when it is continued for its next move, and
        count the whole of its opponent's move as its own (on a busy machine, seconds
        over a game)."""
        spent = self._spent()
        self.clock = self.clock.spend(self.seat, spent)
        self._mark = self._now()
        self._first = False

    def _spent(self) -> float:
        """What the move in progress has cost so far, as the referee will count it."""
        unseen = UNSEEN if self.charging is Charging.WALL else 0.0
        return self._now() - self._mark + unseen


def _process_start() -> float:
    """When this process began, on the :func:`time.perf_counter` scale: its start in
    clock ticks since boot (``/proc/self/stat``) against the time since boot, read
    directly (no process library: a program's start-up is charged to its first move).
    Where ``/proc`` cannot tell, now."""
    try:
        with open("/proc/self/stat", "rb") as f:
            stat = f.read()
        with open("/proc/uptime", "rb") as f:
            uptime = float(f.read().split()[0])
        # fields after the command name, which may hold spaces and parentheses
        started = int(stat[stat.rindex(b")") + 2 :].split()[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return time.perf_counter()
    return time.perf_counter() - max(0.0, uptime - started)


def seat_argument(args: Sequence[str], program: str) -> Player:
    """Returns the seat of a program started as ``PROGRAM 1`` or ``PROGRAM 2``.

    :raises ConfigError: naming ``program``, for any other arguments.

    >>> seat_argument(["2"], "a votey program")
    1
    """
    if list(args) not in (["1"], ["2"]):
        raise ConfigError(f"{program} is started as PROGRAM 1 or PROGRAM 2, not {list(args)!r}")
    return int(args[0]) - 1
