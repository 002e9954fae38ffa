"""A program's transcript of one game: every line the referee sent it and every line it
wrote back (or every input and output file), and its standard error, all with the
seconds since the game began, so a contestant can see why their program lost.

One file per game and program: ``DIR/game-0001/1-NAME.log`` (the game's number in its
match or tournament, the seat, the program's name). Lines are ``   0.123 > text`` for
what the program was sent, ``   0.456 < text`` for what it wrote, ``   0.500 e text``
for what it wrote to its standard error, ``   0.789 ! text`` for what the referee
made of it. After each reply the referee read, a line ``   0.800 ! reply 3, 0.412s
charged`` (the program's third move) lets a reader cut the transcript move by move
(the contest server's replay shows each move's part beside it). Standard error is
kept up to :data:`STDERR_BYTES` a game, so a program that floods it cannot fill the
disk.
"""

from __future__ import annotations

import contextlib
import re
import time
from pathlib import Path
from typing import TextIO

from arbiter.errors import AgentFault
from arbiter.game import Outcome

STDERR_BYTES = 1 << 20
"""Standard error kept per program and game; the rest is counted, not written."""


def game_dir(log_dir: str, number: int) -> str:
    """The directory of game ``number``'s transcripts under ``log_dir``."""
    return str(Path(log_dir) / f"game-{number:04d}")


class Transcript:
    """Writes one program's transcript (see the module docstring); never raises: a log
    that cannot be written must not change a game."""

    def __init__(self, directory: str, seat: int, name: str) -> None:
        safe = re.sub(r"[^A-Za-z0-9._-]+", "_", name)[:60] or "program"
        self.path = Path(directory) / f"{seat + 1}-{safe}.log"
        self.started = time.monotonic()
        self.stderr_bytes = 0
        self.file: TextIO | None = None

    def open(self, first: str) -> None:
        """Makes the file and notes ``first`` in it. Apart from making the transcript,
        so a seat holds its transcript before the file exists: a game stopped at any
        moment of its start (a Ctrl-C) still gets its last line in a file it made."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.file = self.path.open("w", encoding="utf-8", buffering=1)
        except OSError:
            self.file = None
        self.note(first)

    def _write(self, mark: str, text: str) -> None:
        if self.file is None:
            return
        stamp = f"{time.monotonic() - self.started:9.3f}"
        lines = text.splitlines() or [""]
        try:
            for line in lines:
                self.file.write(f"{stamp} {mark} {line}\n")
        except OSError:
            self.file = None

    def sent(self, text: str) -> None:
        """What the program was given (a line, or an input file's contents)."""
        self._write(">", text)

    def received(self, text: str) -> None:
        """What the program wrote (a line, or an output file's contents)."""
        self._write("<", text)

    def stderr(self, line: str) -> None:
        """A line of the program's standard error, up to :data:`STDERR_BYTES` a game."""
        self.stderr_bytes += len(line) + 1
        if self.stderr_bytes <= STDERR_BYTES:
            self._write("e", line)

    def note(self, text: str) -> None:
        """What the referee made of it: a fault, the end of the game."""
        self._write("!", text)

    def replied(self, number: int, seconds: float) -> None:
        """Marks the end of the program's ``number``-th reply and what it was charged."""
        self.note(f"reply {number}, {seconds:.3f}s charged")

    def fault(self, error: AgentFault) -> None:
        """The fault the referee found in the program's reply."""
        self.note(error.detail or str(error))

    def finish(self, outcome: Outcome) -> None:
        """Notes the result. Written before the program is stopped, which can take
        seconds on a busy machine: a referee cut short meanwhile (a worker past its
        grace to stop) still leaves a transcript that says how the game ended. What
        the program writes while it is stopped is kept after it, until :meth:`close`."""
        self.note(f"game over: {outcome.explained()}")

    def close(self) -> None:
        """Notes how much standard error was left out, and closes the file."""
        if self.stderr_bytes > STDERR_BYTES:
            self.note(f"standard error: {self.stderr_bytes} bytes, the first {STDERR_BYTES} kept")
        if self.file is not None:
            with contextlib.suppress(OSError):
                self.file.close()
            self.file = None
