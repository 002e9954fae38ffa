"""A program's three pipes, made by the referee so that a program with a uid of its
own owns its ends."""

from __future__ import annotations

import contextlib
import os
from typing import BinaryIO


class Pipes:
    """A program's three pipes, made here rather than by :mod:`subprocess` so that a
    program with a uid of its own owns them: it can then open its own standard streams
    by name (``/dev/stderr``, ``/proc/self/fd/1``), as a program run by its own user
    can. (A pipe is one object with one owner; the referee's ends stay its own
    descriptors, out of the program's reach.) Each pair is (read end, write end)."""

    def __init__(self, stdin: bool, uid: int | None) -> None:
        self.stdin = os.pipe() if stdin else None
        self.stdout = os.pipe()
        self.stderr = os.pipe()
        if uid is not None:
            for pair in self._pairs():
                os.fchown(pair[0], uid, uid)

    def _pairs(self) -> list[tuple[int, int]]:
        return [p for p in (self.stdin, self.stdout, self.stderr) if p is not None]

    def ours(self) -> tuple[BinaryIO, BinaryIO, BinaryIO | None]:
        """Closes the program's ends (it has them now) and returns the referee's, as
        unbuffered files: its output, its standard error and its input."""
        os.close(self.stdout[1])
        os.close(self.stderr[1])
        stdin = None
        if self.stdin is not None:
            os.close(self.stdin[0])
            stdin = open(self.stdin[1], "wb", buffering=0)  # noqa: SIM115
        out = open(self.stdout[0], "rb", buffering=0)  # noqa: SIM115
        return out, open(self.stderr[0], "rb", buffering=0), stdin

    def close(self) -> None:
        """Closes every end (the program never started)."""
        for pair in self._pairs():
            for fd in pair:
                with contextlib.suppress(OSError):
                    os.close(fd)
