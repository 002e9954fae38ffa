"""The file runner: a program run once per move in its own directory (the Halma contest).

For each move the referee writes the input file into the program's working
directory, removes any old output file, runs the program with no arguments until
it exits, and reads the output file. Files the program keeps for itself between
the moves of one game (``playdata.txt``) are left alone during a game and removed
by :meth:`FileRunner.new_game`. The time charged is the CPU of the program's whole
tree (its threads and children, exact once it has exited) or the wall time of the
run; the program is killed at its kill deadline, with everything it started.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from arbiter.errors import Crash, Timeout
from arbiter.referee.pipe import check_limits
from arbiter.referee.process import AgentProcess
from arbiter.referee.sandbox import Confinement
from arbiter.referee.supervision import Charging


@dataclass(frozen=True, slots=True)
class RunResult:
    """One run: the output file's text (``None`` if the program wrote none), the
    seconds charged, and the exit code."""

    output: str | None
    seconds: float
    exit_code: int | None


class FileRunner:
    """Runs ``argv`` once per move in ``workdir`` with input and output files."""

    def __init__(
        self,
        argv: Sequence[str],
        workdir: str | os.PathLike[str],
        *,
        name: str = "",
        input_name: str = "input.txt",
        output_name: str = "output.txt",
        scratch: Sequence[str] = ("playdata.txt",),
        poll: float = 0.005,
        env: Mapping[str, str] | None = None,
        confinement: Confinement | None = None,
    ) -> None:
        self.argv = list(argv)
        #: given each line a run writes to its standard error (a transcript's)
        self.on_stderr: Callable[[str], None] | None = None
        self.workdir = Path(workdir)
        self.name = name or " ".join(self.argv)
        self.input_name = input_name
        self.output_name = output_name
        self.scratch = tuple(scratch)
        self.poll = poll
        self.env = env
        self.confinement = confinement

    def new_game(self) -> None:
        """Makes the working directory ready for a new game: removes the files the
        program kept during the last one, and any old input and output.

        :raises Crash: if the directory cannot be made or cleared.
        """
        try:
            self.workdir.mkdir(parents=True, exist_ok=True)
            for name in (*self.scratch, self.input_name, self.output_name):
                with contextlib.suppress(FileNotFoundError):
                    (self.workdir / name).unlink()
        except OSError as e:
            raise Crash(
                f"{self.name}: cannot prepare {str(self.workdir)!r}: {e.strerror}",
                f"cannot prepare its directory: {e.strerror}",
            ) from None

    async def run(
        self,
        input_text: str,
        *,
        charging: Charging,
        kill_at: float | None,
        wall_limit: float | None,
        memory_limit: int | None = None,
    ) -> RunResult:
        """Writes the input file, runs the program to its exit and reads the output file.

        ``kill_at`` is the charged time at which the program is killed, ``wall_limit``
        the wall seconds at which it is killed whatever it is charged.

        :raises Timeout: if it is killed at ``kill_at`` or ``wall_limit``.
        :raises MemoryExceeded: past ``memory_limit`` bytes.
        :raises Crash: if it cannot be started or the files cannot be written or read.
        """
        try:
            with contextlib.suppress(FileNotFoundError):
                (self.workdir / self.output_name).unlink()
            (self.workdir / self.input_name).write_text(input_text, encoding="utf-8")
        except OSError as e:
            raise Crash(
                f"{self.name}: cannot write {self.input_name}: {e.strerror}",
                f"cannot write {self.input_name}: {e.strerror}",
            ) from None
        process = AgentProcess(
            self.argv,
            name=self.name,
            cwd=str(self.workdir),
            stdin=False,
            env=self.env,
            confinement=self.confinement,
            on_stderr=self.on_stderr,
        )
        started = time.monotonic()
        await process.start()
        try:
            await self._watch(process, started, charging, kill_at, wall_limit, memory_limit)
            seconds = process.cpu_time() if charging is Charging.CPU else time.monotonic() - started
        finally:
            await process.kill()
        return RunResult(self._read_output(), seconds, process.returncode)

    async def _watch(
        self,
        process: AgentProcess,
        started: float,
        charging: Charging,
        kill_at: float | None,
        wall_limit: float | None,
        memory_limit: int | None,
    ) -> None:
        poll = self.poll
        cpu_limit = kill_at if charging is Charging.CPU else None
        while process.poll() is None:
            await process.wait(timeout=poll)  # at once when it exits, else the check
            poll = min(poll * 1.5, 0.05)
            check_limits(process, self.name, cpu_limit, 0.0, memory_limit)
            wall = time.monotonic() - started
            if wall_limit is not None and wall > wall_limit:
                raise Timeout(
                    f"{self.name}: still running after {wall_limit:.2f}s wall time",
                    detail=f"still running after {wall_limit:.2f}s wall time",
                )
        # the exact figure, now that the program has exited
        check_limits(process, self.name, cpu_limit, 0.0, None)

    def _read_output(self) -> str | None:
        path = self.workdir / self.output_name
        try:
            return path.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return None
        except OSError as e:
            raise Crash(
                f"{self.name}: cannot read {self.output_name}: {e.strerror}",
                f"cannot read {self.output_name}: {e.strerror}",
            ) from None
