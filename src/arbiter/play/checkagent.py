"""``arbiter check-agent``: a conformance check a contestant runs before submitting.

The program plays through the contest's exact protocol and clock, against the
built-in random player: a whole game in each seat (the two at once where the
contest charges CPU time) and its timing (a whole game with every core of the
machine busy, or Halma's moves with little time left, which its input tells it);
then what :mod:`arbiter.contract.probes` gives for its game, which exercises the rules
people get wrong: single moves from prepared positions (checkers, Halma), or games
against an opponent that steers into them (Votey, Alquerque, Chinese checkers).
Each check passes when the program made no fault; a failure shows the verdict and
the end of what the program was sent and wrote.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import tempfile
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from arbiter.agents.random import RandomAgent
from arbiter.agents.steering import SteeringAgent
from arbiter.clock import Charging, TimeControl
from arbiter.contract import Agent, Check, GameSpec, Program, Supervision
from arbiter.contract.probes import BUSY_MACHINE, STEERED_PLIES
from arbiter.record import GameRecord
from arbiter.referee.events import Event, MovePlayed
from arbiter.referee.match import play_game
from arbiter.referee.seat import LocalSeat
from arbiter.referee.transcript import game_dir

TRANSCRIPT_LINES = 12
"""Lines of the program's transcript shown with a failure."""


class Progress(Protocol):
    """What a caller is told while the checks run, so a person never waits in silence:
    each check as it starts, each ply of its game, and its result."""

    def started(self, check: Check) -> None: ...

    def moved(self, check: Check, ply: int) -> None: ...

    def finished(self, result: Result) -> None: ...


@dataclass(frozen=True, slots=True)
class Result:
    """A check's outcome: ``met`` counts what the program met in a steered game."""

    check: Check
    passed: bool
    verdict: str
    transcript: tuple[str, ...] = ()
    met: tuple[tuple[str, int], ...] = ()

    def situations(self) -> str | None:
        """What a steered game's program met, in words (``None`` for another check).

        "Never came up" is said only of a game that ran its course: a program that
        fails ends its game at the faulty move, often the very situation (a winning
        move written unclaimed), before it can be counted.
        """
        if self.check.steer is None:
            return None
        if self.met:
            return "met: " + ", ".join(f"{n} {what}" for what, n in self.met)
        return "the situation never came up" if self.passed else None


def checks(spec: GameSpec[Any, Any], clock: str | None) -> list[Check]:
    """The checks for ``spec``'s programs (``clock``: the whole games' clock, default
    the contest's)."""
    out = [
        Check("first seat", "a whole game moving first", 0, clock=clock),
        Check("second seat", "a whole game moving second", 1, clock=clock),
    ]
    game = spec.make()
    for probe in spec.probe_checks() or [BUSY_MACHINE]:
        if probe.start is None and probe.steer is None:  # a whole game of its own
            out.append(replace(probe, clock=probe.clock or clock))
            continue
        if probe.start is None:  # a steered game
            out.append(replace(probe, clock=clock, stop_at=STEERED_PLIES))
            continue
        s = spec.notation.parse_position(probe.start)
        seat = game.to_move(s)  # the program is the side to move
        # one move, the program's: both games keep the ply in the position
        out.append(replace(probe, seat=seat, clock=probe.clock or clock, stop_at=s.ply + 1))
    return out


def run(
    spec: GameSpec[Any, Any],
    command: str,
    check: Check,
    workdir: str,
    *,
    cwd: str | None = None,
    supervision: Supervision | None = None,
) -> Result:
    """Plays one check (``cwd``: the program's own directory; ``supervision``: the
    contest's, default the game's)."""
    return asyncio.run(play(spec, command, check, workdir, cwd=cwd, supervision=supervision))


async def play(
    spec: GameSpec[Any, Any],
    command: str,
    check: Check,
    workdir: str,
    *,
    cwd: str | None = None,
    supervision: Supervision | None = None,
    progress: Progress | None = None,
    burn: bool = True,
    shown: str = "",
) -> Result:
    """Plays one check in the running event loop (see :func:`run`), telling
    ``progress`` of its start, its plies and its result; a check of a busy machine
    with every core kept busy unless not ``burn``."""
    if progress is not None:
        progress.started(check)
    game_options: dict[str, Any] = {}
    start = None if check.start is None else spec.notation.parse_position(check.start)
    if check.stop_at is not None:
        game_options["max_plies"] = check.stop_at
    game = spec.make(game_options)
    log_dir = str(Path(workdir) / check.name.replace(" ", "-"))
    supervision = replace(supervision or spec.supervision, log_dir=game_dir(log_dir, 1))
    program = Program.from_command(command, cwd=cwd, name="program", shown=shown)
    seat = spec.program_seat(program, supervision=supervision)
    steering = None if check.steer is None else SteeringAgent(check.steer.prefer, check.steer.watch)
    agent: Agent[Any, Any] = steering or RandomAgent()
    opponent: LocalSeat[Any, Any] = LocalSeat(agent, game, spec.contest, seed=7)
    seats = [seat, opponent] if check.seat == 0 else [opponent, seat]
    tc = TimeControl.parse(check.clock) if check.clock else spec.time_control

    def moved(event: Event) -> None:
        if progress is not None and isinstance(event, MovePlayed):
            progress.moved(check, event.ply)

    with busy_machine(None if check.busy and burn else 0):
        record: GameRecord = await play_game(
            spec, game, seats, tc, start=start, options=game_options, events=moved
        )
    out = record.outcome
    lost = out.reason.is_fault and out.winner == 1 - check.seat
    verdict = out.explained()
    logs = sorted(Path(game_dir(log_dir, 1)).glob(f"{check.seat + 1}-*.log"))
    lines = logs[0].read_text(errors="replace").splitlines() if logs else []
    met = () if steering is None else tuple(sorted(steering.met.items()))
    result = Result(check, not lost, verdict, tuple(lines[-TRANSCRIPT_LINES:]), met)
    if progress is not None:
        progress.finished(result)
    return result


BURNER = "import os\nparent = os.getppid()\nwhile os.getppid() == parent:\n    pass\n"
"""A process that burns CPU until its parent is gone (a checker killed outright
leaves none behind)."""


@contextlib.contextmanager
def busy_machine(count: int | None = None) -> Iterator[None]:
    """Keeps ``count`` processes burning CPU while the block runs (default: one a core
    of the machine), killed after it."""
    burners = []
    try:
        for _ in range((os.cpu_count() or 1) if count is None else count):
            burners.append(
                subprocess.Popen(
                    [sys.executable, "-c", BURNER],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        yield
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()


def check_agent(
    spec: GameSpec[Any, Any],
    command: str,
    clock: str | None = None,
    *,
    cwd: str | None = None,
    supervision: Supervision | None = None,
    progress: Progress | None = None,
    burn: bool = True,
    first_failure: bool = False,
    shown: str = "",
) -> list[Result]:
    """Runs every check of ``spec`` on ``command`` (with ``first_failure``, none after
    the first that fails: a contest's gate refuses a hanging program in one check's
    time, not all of theirs; its transcripts name the command as ``shown``, if given)
    (started in a copy of ``cwd``, its
    own directory, if given; watched by ``supervision``, default the game's), telling
    ``progress`` of each as it goes. The check of a busy machine keeps every core
    busy (a process burning CPU a core) unless not ``burn``: a contest server checks
    on the machine its own games play on, which it does not slow.

    Where the contest charges CPU time the two whole games are played at once (they
    are most of the checks' time, a Halma program's some hundred starts): another
    game beside it takes nothing from a program's CPU time. Under wall time, and for
    the checks of timing, one game at a time.

    :raises ConfigError: for a command that is empty or badly quoted.
    """
    Program.from_command(command)  # a command that is empty or badly quoted: at once
    watch = supervision or spec.supervision
    todo = checks(spec, clock)
    together = 2 if watch.charging is Charging.CPU else 0  # the whole games, first
    with tempfile.TemporaryDirectory(prefix="arbiter-check-") as workdir:

        async def every_check() -> list[Result]:
            def one(check: Check) -> Coroutine[Any, Any, Result]:
                return play(
                    spec,
                    command,
                    check,
                    workdir,
                    cwd=cwd,
                    supervision=supervision,
                    progress=progress,
                    burn=burn,
                    shown=shown,
                )

            results = list(await asyncio.gather(*map(one, todo[:together])))
            for check in todo[together:]:
                if first_failure and not all(r.passed for r in results):
                    break
                results.append(await one(check))
            return results

        return asyncio.run(every_check())
