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
- ``max_processes``: processes and threads a program may have at once (a cgroup's
  limit, where there is one; it stops fork bombs).
- ``network``: False runs programs in a network namespace of their own (root).
- ``single_process``: the program may not start another process (the Chinese
  checkers sheet: "the player must not fork"); one that does loses as soon as the
  referee sees it (always in a cgroup; otherwise while the child is its descendant).
- ``pass_env``: the only variables of the referee's environment a program sees
  besides its minimal one (see :func:`program_environment`).
- ``isolation``: the walls programs run behind (:mod:`arbiter.referee.isolation`:
  ``auto``, every wall the machine has, by default), and ``expose``: more paths a
  namespaced program may read (a compiler's or a runtime's folder, shared data).
- The wall-clock backstop for CPU charging (a program that sleeps or blocks uses
  no CPU) is computed in one place, :meth:`Supervision.wall_limit`.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from arbiter.referee.box import Box
from arbiter.referee.isolation import Walls, choose
from arbiter.referee.sandbox import Confinement

if TYPE_CHECKING:
    from arbiter.referee.seat import Program


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
    max_processes: int | None = 256
    network: bool = True
    pass_env: tuple[str, ...] = ()
    single_process: bool = False
    log_dir: str | None = None
    isolation: str = "auto"
    expose: tuple[str, ...] = ()

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

    def walls(self) -> Walls:
        """The walls of :attr:`isolation` on this machine.

        :raises ConfigError: for a level this machine cannot give.
        """
        return choose(self.isolation)

    @property
    def confinement(self) -> Confinement:
        """What the sandbox holds a program to."""
        return Confinement(
            self.memory_limit,
            self.max_processes,
            self.network,
            self.single_process,
            cgroup=self.walls().cgroup,
        )

    def box(self, program: Program, argv: Sequence[str]) -> Box:
        """A box for ``program`` (started as ``argv``) for one game: its work
        directory, its uid and its view, by :meth:`walls`.

        :raises Crash: if its work directory cannot be made.
        :raises ConfigError: for a level this machine cannot give, or no free uid.
        """
        return Box(
            self.walls(),
            own_dir=program.cwd,
            argv=argv,
            expose=self.expose,
            search=os.environ.get("PATH", os.defpath),
            name=program.label,
        )


PASSED_ALWAYS = ("PATH", "LANG", "LC_ALL", "TZ")
"""Variables every program gets from the referee, as they are."""


def program_environment(workdir: str, pass_env: Sequence[str] = ()) -> dict[str, str]:
    """The whole environment of a contest program: ``PATH`` and the locale, its own
    working directory as ``HOME`` and ``TMPDIR``, and the variables named in
    ``pass_env``; nothing else of the referee's (no keys, no tokens)."""
    env = {k: os.environ[k] for k in (*PASSED_ALWAYS, *pass_env) if k in os.environ}
    env.setdefault("PATH", os.defpath)
    env.setdefault("LANG", "C.UTF-8")
    env["HOME"] = env["TMPDIR"] = workdir
    return env


def absolute_arguments(argv: Sequence[str], base: str | None = None) -> list[str]:
    """Returns ``argv`` with every argument that names an existing file or directory
    (relative to ``base``, default the referee's directory) made absolute, so a
    program started in a directory of its own still finds ``./my_agent`` or
    ``my_agent.py``. Symbolic links are kept as named: a virtual environment's
    ``python`` is a link, and only through it does Python find that environment.

    >>> absolute_arguments(["python3", "-c", "pass"], "/")
    ['python3', '-c', 'pass']
    """
    root = Path(base or os.getcwd())
    out = []
    for i, arg in enumerate(argv):
        path = root / arg
        if arg and not os.path.isabs(arg) and (os.sep in arg or i > 0) and path.exists():
            out.append(os.path.abspath(path))
        else:
            out.append(arg)
    return out
