"""How the referee watches a contest program: what time counts, and what it may do meanwhile.

These are options of a contest's protocol, not subclasses: every seat that runs a
program (a line pipe or a file-per-move runner) reads them.

- ``charging``: the time a move costs. ``CPU`` is user+sys time of the program's
  whole process tree since its previous reply (Votey, checkers, Chinese checkers,
  Halma); ``WALL`` is wall time from the referee's message to the reply (CodeCup's
  Alquerque jury).
- ``suspend``: the waiting program's whole process tree is stopped (SIGSTOP) from
  its reply until it is asked again (RULES.md: the waiting program). CPU it used
  between its reply and the stop is charged to its next move either way, so a
  program that thinks on its opponent's time pays for it.
- ``memory_limit_mb``: resident memory of the tree while it thinks; beyond it the
  program loses.
- The wall-clock backstop for CPU charging (a program that sleeps or blocks uses
  no CPU) is computed in one place, :meth:`Supervision.wall_limit`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Charging(StrEnum):
    """What a move costs on the clock."""

    CPU = "cpu"
    WALL = "wall"


@dataclass(frozen=True, slots=True)
class Supervision:
    """The contest's rules for watching a program (see the module docstring)."""

    charging: Charging = Charging.CPU
    suspend: bool = True
    memory_limit_mb: float | None = None
    backstop_factor: float = 2.0
    backstop_extra: float = 1.0

    def wall_limit(self, kill_at: float | None) -> float | None:
        """Returns the wall seconds a program may take for a move that is killed at
        ``kill_at`` seconds of charged time (``None``: no limit).

        Under wall charging that is the kill deadline itself; under CPU charging it is
        the backstop ``kill_at * backstop_factor + backstop_extra``.

        >>> Supervision().wall_limit(1.0)
        3.0
        >>> Supervision(Charging.WALL).wall_limit(30.0)
        30.0
        """
        if kill_at is None:
            return None
        if self.charging is Charging.WALL:
            return kill_at
        return kill_at * self.backstop_factor + self.backstop_extra

    @property
    def memory_limit(self) -> int | None:
        """The memory limit in bytes, or ``None``."""
        return None if self.memory_limit_mb is None else int(self.memory_limit_mb * 2**20)
