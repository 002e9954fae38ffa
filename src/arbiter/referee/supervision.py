"""How the referee holds a program to its contest's
:class:`~arbiter.contract.Supervision`: the walls it runs behind on this machine,
what the sandbox confines it to, its box for a game, and the environment and
arguments it starts with."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from arbiter.contract import Program, Supervision
from arbiter.referee.box import SYSTEM_PATH, Box
from arbiter.referee.isolation import Walls, choose
from arbiter.referee.sandbox import Confinement, detect


def walls(supervision: Supervision) -> Walls:
    """The walls of ``supervision.isolation`` on this machine.

    :raises ConfigError: for a level this machine cannot give.
    """
    return choose(supervision.isolation)


def describe(supervision: Supervision) -> str:
    """The one line said at the start of a match, tournament or check with programs:
    the walls they run behind on this machine, their network and their disk.

    :raises ConfigError: for a level this machine cannot give.
    """
    p = detect()
    up = walls(supervision)
    if supervision.network:
        net = "the machine's (--network)"
    elif up.namespaces or p.network_namespaces:
        net = "none (a loopback of its own)"
    else:
        net = "the machine's (this machine cannot cut it off: see 'arbiter doctor')"
    if supervision.disk_limit_mb is None:
        disk = "the machine's"
    elif p.disks:
        disk = f"{supervision.disk_limit_mb:g} MB"
    else:
        disk = f"{supervision.disk_limit_mb:g} MB a file (the whole needs the right to mount)"
    return f"{up.describe(p)}; network: {net}; disk: {disk}"


def confinement(supervision: Supervision) -> Confinement:
    """What the sandbox holds a program watched by ``supervision`` to."""
    return Confinement(
        supervision.memory_limit,
        supervision.max_processes,
        supervision.network,
        supervision.single_process,
        cgroup=walls(supervision).cgroup,
        disk_limit=supervision.disk_limit,
        cpus=supervision.cpus,
    )


def make_box(supervision: Supervision, program: Program, argv: Sequence[str]) -> Box:
    """A box for ``program`` (started as ``argv``) for one game: its work directory,
    its uid and its view, by :func:`walls`.

    :raises Crash: if its work directory cannot be made.
    :raises ConfigError: for a level this machine cannot give, or no free uid.
    """
    return Box(
        walls(supervision),
        own_dir=program.cwd,
        argv=argv,
        expose=supervision.expose,
        search=os.environ.get("PATH", os.defpath),
        name=program.label,
        disk_limit=supervision.disk_limit,
    )


PASSED_ALWAYS = ("LANG", "LC_ALL", "TZ", "ARBITER_GAMES")
"""Variables every program gets from the referee, as they are: the locale, and the
outside games this machine knows (``ARBITER_GAMES``), so that an organiser's own
game's built-in agent, run as a program behind the walls, finds its game."""


def program_environment(
    workdir: str, pass_env: Sequence[str] = (), folders: Sequence[str] = ()
) -> dict[str, str]:
    """The whole environment of a contest program: ``PATH`` (``folders``, the folders of
    its own command and interpreter, then :data:`SYSTEM_PATH`), the locale, its own
    working directory as ``HOME`` and ``TMPDIR``, the outside games named in
    ``ARBITER_GAMES``, and the variables named in
    ``pass_env`` (``PATH`` among them passes the referee's); nothing else of the
    referee's (no keys, no tokens, no home folders).

    >>> program_environment("/w", folders=["/opt/py/bin"])["PATH"]
    '/opt/py/bin:/usr/local/bin:/usr/bin:/bin'
    """
    env = {k: os.environ[k] for k in (*PASSED_ALWAYS, *pass_env) if k in os.environ}
    if "PATH" not in env:
        env["PATH"] = ":".join(dict.fromkeys([*folders, *SYSTEM_PATH.split(":")]))
    env.setdefault("LANG", "C.UTF-8")
    env["HOME"] = env["TMPDIR"] = workdir
    return env


def program_argv(program: Program) -> list[str]:
    """The argv ``program`` is started with: a program with a directory of its own runs
    in a copy of it, so its relative arguments (``./player``, ``main.py``, ``.``) name
    files there and stay relative; any other program's name files from the referee's
    directory (:func:`absolute_arguments`).

    >>> program_argv(Program(("java", "-cp", ".", "Main"), "/srv/bot"))
    ['java', '-cp', '.', 'Main']
    """
    if program.cwd is not None:
        return list(program.argv)
    return absolute_arguments(program.argv)


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
