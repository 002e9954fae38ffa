"""The programs a referee runs, as the contract names them: how a contest's programs
are watched (:class:`Supervision`), a program's command (:class:`Program`) and why it
cannot start, a reply and the seconds it is charged, and a :class:`Seat`, one side of
one game as the referee plays it.

Split from :mod:`arbiter.contract.spec` (the game's own contract), which uses these:
it sits, as that module does, just above the base.
"""

from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from arbiter.clock import Charging, Clock
from arbiter.errors import ConfigError
from arbiter.game import Outcome, Player

S_in = TypeVar("S_in", contravariant=True)
M_in = TypeVar("M_in", bound=Hashable, contravariant=True)


@dataclass(frozen=True, slots=True)
class Supervision:
    """How the referee watches a contest program: what time counts, and what it may do
    meanwhile. These are options of a contest, not subclasses: every seat that runs a
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
    - ``network``: True lets programs use the machine's network. By default (False)
      each runs in a network namespace of its own with nothing but a loopback of its
      own, where the machine can make one (bubblewrap, or root and ``unshare``): it
      reaches neither the other program nor any service of the machine.
    - ``disk_limit_mb``: what a program may write, in MB: its work directory and its
      private ``/tmp`` and ``/dev/shm`` share a size-limited file system of their own
      where the referee is root, and every file is held to it everywhere (``None``: the
      machine's disk, each file at most 1 GB).
    - ``single_process``: the program may not start another process (the Chinese
      checkers sheet: "the player must not fork"); one that does loses as soon as the
      referee sees it (always in a cgroup; otherwise while the child is its descendant).
    - ``pass_env``: the only variables of the referee's environment a program sees
      besides its minimal one (see :func:`arbiter.referee.supervision.program_environment`).
    - ``isolation``: the walls programs run behind (:mod:`arbiter.referee.isolation`:
      ``auto``, every wall the machine has, by default), and ``expose``: more paths a
      namespaced program may read (a compiler's or a runtime's folder, shared data).
    - ``pin``: each program on a core of its own, set before it starts (fastchess's
      affinity, for wall-clock contests where a neighbour's game would otherwise take
      its time); a game's two programs get two cores, its referee's ``cpus`` are
      filled in per seat (:func:`arbiter.play.series.play_job`).
    - The wall-clock backstop for CPU charging (a program that sleeps or blocks uses
      no CPU) is computed in one place, :meth:`Supervision.wall_limit`.
    """

    charging: Charging = Charging.CPU
    suspend: bool = True
    memory_limit_mb: float | None = None
    backstop_factor: float = 2.0
    backstop_extra: float = 1.0
    max_processes: int | None = 256
    network: bool = False
    disk_limit_mb: float | None = 256.0
    pass_env: tuple[str, ...] = ()
    single_process: bool = False
    log_dir: str | None = None
    isolation: str = "auto"
    expose: tuple[str, ...] = ()
    pin: bool = False
    cpus: tuple[int, ...] = ()

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

    @property
    def disk_limit(self) -> int | None:
        """The disk limit in bytes, or ``None``."""
        return None if self.disk_limit_mb is None else int(self.disk_limit_mb * 2**20)


@dataclass(frozen=True, slots=True)
class Reply:
    """A seat's answer: its text (in the seat's own numbering), the seconds to charge,
    and a note for onlookers (an engine's depth and score)."""

    text: str
    seconds: float
    note: str = ""


@dataclass(frozen=True, slots=True)
class Program:
    """An external contest program: its argv, working directory and display name, and
    the command as its owner knows it (``shown``: a contest's run command, ``python3
    main.py``, where the argv holds this machine's interpreter path), which its
    transcripts show."""

    argv: tuple[str, ...]
    cwd: str | None = None
    name: str = ""
    shown: str = ""

    @classmethod
    def from_command(
        cls,
        command: str | Sequence[str],
        *,
        cwd: str | None = None,
        name: str = "",
        shown: str = "",
    ) -> Program:
        """Returns the program of a shell-quoted command string or an argv list.

        :raises ConfigError: for an empty command or unbalanced quotes.
        """
        argv = tuple(split_command(command))
        return cls(argv, cwd, name or " ".join(argv), shown)

    @property
    def label(self) -> str:
        """The name to show for the program."""
        return self.name or " ".join(self.argv)


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


def program_problem(exe: str, cwd: str | None, search: str | None = None) -> str | None:
    """Says why the program ``exe`` cannot be started from ``cwd`` (``no such file``,
    ``a directory``, ``not an executable file``, ``not found on PATH``, a ``#!`` line
    with Windows line ends), or None if it can."""
    if os.sep in exe:
        path = exe if os.path.isabs(exe) else os.path.join(cwd or ".", exe)
        if os.path.isdir(path):
            return "a directory, not a program: name the file to run in it"
        if not os.path.isfile(path):
            return "no such file"
        if not os.access(path, os.X_OK):
            return "not an executable file"
        return windows_line_ends(path)
    found = shutil.which(exe, path=search) if exe else None
    return "not found on PATH" if found is None else windows_line_ends(found)


def windows_line_ends(path: str) -> str | None:
    """Says that the script ``path`` cannot start because its ``#!`` line ends in a
    carriage return (the system would look for an interpreter named ``python3\\r``
    and fail with exit code 127), or None."""
    try:
        with open(path, "rb") as f:
            head = f.read(512)
    except OSError:
        return None  # starting it will say why
    first = head.split(b"\n", 1)[0]
    if head.startswith(b"#!") and first.endswith(b"\r"):
        return (
            "has Windows line ends (its #! line ends in a carriage return): "
            "save it with Unix line ends (dos2unix)"
        )
    return None


class Seat(Protocol[S_in, M_in]):
    """One side of one game."""

    name: str

    async def start(self, seat: Player, clock: Clock) -> None:
        """Gets ready to play ``seat``; raises AgentFault if it cannot."""
        ...

    async def ask(self, s: S_in, clock: Clock) -> Reply:
        """Returns the seat's reply for ``s`` and the seconds to charge for it.

        :raises AgentFault: for a crash, a time-out or a broken protocol.
        """
        ...

    async def tell(self, before: S_in, move: M_in, after: S_in) -> None:
        """Passes on the opponent's ``move``, played in ``before`` and leading to ``after``.

        :raises AgentFault: if the seat cannot be told.
        """
        ...

    async def rewind(self, s: S_in) -> bool:
        """Goes back to ``s`` after a take-back; False if this seat cannot."""
        ...

    async def stop(self, outcome: Outcome) -> None:
        """Ends the game for this seat; never raises."""
        ...
