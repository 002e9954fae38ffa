"""The file runner: a program run once per move in its own directory (the Halma contest).

For each move the referee writes the input file into the program's working
directory, removes any old output file, runs the program with no arguments until
it exits, and reads the output file. Files the program keeps for itself between
the moves of one game (``playdata.txt``) are left alone during a game and removed
by :meth:`FileRunner.new_game`. The time charged is the CPU of the program's whole
tree (its threads and children, exact once it has exited) or the wall time of the
run; the program is killed at its kill deadline, with everything it started.

The files a program leaves are data from an adversary (DESIGN.md). The input file
is written only as a new file (never through a link the program left in its
place); the output file is opened without following a link and without blocking
(a FIFO answers at once), must be a regular file with no other name (not a hard
link), and only its first :data:`MAX_OUTPUT` bytes are read: a link, a FIFO, a
device or an over-long file is malformed output, judged within the clock, and
nothing of a file the program linked to is read, shown or recorded.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from arbiter.clock import Charging
from arbiter.errors import Crash, Malformed, MemoryExceeded, Timeout
from arbiter.referee.box import Box
from arbiter.referee.pipe import check_limits, next_look
from arbiter.referee.process import AgentProcess
from arbiter.referee.sandbox import Confinement

MAX_OUTPUT = 1 << 16
"""The most bytes of an output file the referee reads; a longer file is malformed
(a legal move is a few hundred bytes at most)."""


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
        box: Box | None = None,
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
        self.box = box

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
                f"cannot prepare its directory: {e.strerror}",
                who=f"{self.name} ({str(self.workdir)!r})",
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
        :raises MemoryExceeded: past ``memory_limit`` bytes, or killed by the kernel
            for its memory limit.
        :raises Malformed: for an output file that is not a plain file of its own or
            is longer than :data:`MAX_OUTPUT`.
        :raises Crash: if it cannot be started or the files cannot be written or read.
        """
        self._write_input(input_text)
        process = AgentProcess(
            self.argv,
            name=self.name,
            cwd=str(self.workdir),
            stdin=False,
            env=self.env,
            confinement=self.confinement,
            on_stderr=self.on_stderr,
            box=self.box,
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
        cpu_limit = kill_at if charging is Charging.CPU else None
        used = 0.0
        while process.poll() is None:
            wall = time.monotonic() - started
            look = next_look(self.poll, used, cpu_limit, wall, wall_limit)
            await process.wait(timeout=look)  # at once when it exits, else the check
            used = check_limits(process, self.name, cpu_limit, 0.0, memory_limit)
            wall = time.monotonic() - started
            if wall_limit is not None and wall > wall_limit:
                raise Timeout(f"still running after {wall_limit:.2f}s wall time", who=self.name)
        if process.memory_exceeded():
            limit = (self.confinement.memory_limit if self.confinement else None) or 0
            why = f"killed for going over its {limit / 2**20:.0f} MB memory limit"
            raise MemoryExceeded(why, who=self.name)
        # the exact figure, now that the program has exited
        check_limits(process, self.name, cpu_limit, 0.0, None)

    def _write_input(self, text: str) -> None:
        """Writes the input file as a new file, after removing the old output and
        input (whatever the program left in their place: a link is removed, never
        followed)."""
        data = text.encode()
        try:
            for name in (self.output_name, self.input_name):
                with contextlib.suppress(FileNotFoundError):
                    (self.workdir / name).unlink()
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
            fd = os.open(self.workdir / self.input_name, flags, 0o644)
            try:
                while data:
                    data = data[os.write(fd, data) :]
            finally:
                os.close(fd)
        except OSError as e:
            why = e.strerror or str(e)
            raise Crash(f"cannot write {self.input_name}: {why}", who=self.name) from None

    def _read_output(self) -> str | None:
        """The output file's text (``None`` if there is none), read safely.

        :raises Malformed: for a link, a FIFO, a device, a folder, a hard link or a
            file over :data:`MAX_OUTPUT` bytes, naming which.
        :raises Crash: if it cannot be read.
        """
        name = self.output_name
        flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY
        try:
            fd = os.open(self.workdir / name, flags)
        except FileNotFoundError:
            return None
        except OSError as e:
            if e.errno == errno.ELOOP:
                raise Malformed(f"{name} is a link", who=self.name) from None
            why = e.strerror or str(e)
            raise Crash(f"cannot read {name}: {why}", who=self.name) from None
        try:
            info = os.fstat(fd)
            what = _not_plain(info)
            if what is not None:
                raise Malformed(f"{name} is {what}", who=self.name)
            data = os.read(fd, MAX_OUTPUT + 1)
        except OSError as e:
            why = e.strerror or str(e)
            raise Crash(f"cannot read {name}: {why}", who=self.name) from None
        finally:
            os.close(fd)
        if len(data) > MAX_OUTPUT:
            why = f"{name} is longer than {MAX_OUTPUT // 1024} KB"
            raise Malformed(why, who=self.name)
        return data.decode("utf-8", errors="replace")


def _not_plain(info: os.stat_result) -> str | None:
    """What a file is when it is not a plain file of its own, else None."""
    mode = info.st_mode
    if stat.S_ISFIFO(mode):
        return "a FIFO, not a file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device, not a file"
    if stat.S_ISDIR(mode):
        return "a folder, not a file"
    if not stat.S_ISREG(mode):
        return "not a plain file"
    if info.st_nlink != 1:
        return "a hard link to another file"
    return None
