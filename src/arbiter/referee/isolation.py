"""Isolation levels: which walls stand between a contest program and the referee.

A level is the set of walls a program runs behind (DESIGN.md, "Hosting strangers'
code"). From the weakest to the strongest:

- ``rlimits``: resource limits only (core dumps, file size, open files, address
  space); the program runs as the referee's user and sees what it sees.
- ``cgroup``: a cgroup of its own: exact CPU and memory of everything it starts, a
  process-count limit, a freeze, and a kill that misses nothing.
- ``user``: a uid of its own, one the referee uses only for programs (root only): it
  cannot read the referee's private files, signal the referee or another program,
  or write anything the referee owns.
- ``namespaces``: its own PID, mount, IPC, UTS and network namespaces (bubblewrap): it sees
  no process but its own, and no file but the system's (read-only), its program
  files (read-only) and its own work directory. A referee that is not root gets
  them through a user namespace.

``auto`` (the default) puts up every wall the machine has. Naming a level caps the
walls at it and demands its own: ``--isolation user`` refuses to run where programs
cannot get a uid of their own, and leaves the namespaces down. ``strict`` demands
every wall (cgroup, a uid of its own and namespaces).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from arbiter.errors import ConfigError
from arbiter.referee.sandbox import Protection, detect


class Level(StrEnum):
    """An isolation level asked for (see the module docstring)."""

    AUTO = "auto"
    RLIMITS = "rlimits"
    CGROUP = "cgroup"
    USER = "user"
    NAMESPACES = "namespaces"
    STRICT = "strict"


_ORDER = (Level.RLIMITS, Level.CGROUP, Level.USER, Level.NAMESPACES)


@dataclass(frozen=True, slots=True)
class Walls:
    """The walls one program runs behind."""

    cgroup: bool = False
    own_uid: bool = False
    namespaces: bool = False

    @property
    def level(self) -> Level:
        """The strongest wall up (``rlimits`` when none is)."""
        if self.namespaces:
            return Level.NAMESPACES
        if self.own_uid:
            return Level.USER
        return Level.CGROUP if self.cgroup else Level.RLIMITS

    def describe(self, protection: Protection | None = None) -> str:
        """One line: the level and each wall, up or down.

        >>> Walls(cgroup=True).describe()
        'isolation: cgroup (cgroup: yes, own uid: no, namespaces: no)'
        """
        p = protection
        cgroup = (p.kind if p is not None else "yes") if self.cgroup else "no"
        uid = "no"
        if self.own_uid:
            uid = f"yes ({p.uids.start}-{p.uids.stop - 1})" if p is not None else "yes"
        ns = "no"
        if self.namespaces:
            ns = "yes (bubblewrap" + (", in a user namespace)" if p and not p.root else ")")
        return f"isolation: {self.level} (cgroup: {cgroup}, own uid: {uid}, namespaces: {ns})"


def available(protection: Protection) -> Walls:
    """Every wall this machine gives."""
    return Walls(protection.cgroups, protection.own_uids, protection.namespaces)


def choose(level: Level | str, protection: Protection | None = None) -> Walls:
    """The walls for ``level`` on this machine (``protection``, default :func:`detect`).

    :raises ConfigError: if ``level`` is unknown or demands a wall the machine lacks,
        naming the wall and what would give it.
    """
    try:
        level = Level(level)
    except ValueError:
        known = ", ".join(Level)
        raise ConfigError(f"unknown isolation level {level!r} (levels: {known})") from None
    p = protection or detect()
    have = available(p)
    if level is Level.AUTO:
        return have
    demanded: set[Level]
    if level is Level.STRICT:
        demanded = {Level.CGROUP, Level.USER, Level.NAMESPACES}
        cap = Level.NAMESPACES
    else:
        demanded = set() if level is Level.RLIMITS else {level}
        cap = level
    for wall in _ORDER:
        if wall in demanded and not _has(have, wall):
            raise ConfigError(f"--isolation {level} needs {_WHY[wall]}; see 'arbiter doctor'")
    top = _ORDER.index(cap)
    return Walls(
        cgroup=have.cgroup and top >= _ORDER.index(Level.CGROUP),
        own_uid=have.own_uid and top >= _ORDER.index(Level.USER),
        namespaces=have.namespaces and top >= _ORDER.index(Level.NAMESPACES),
    )


def _has(walls: Walls, wall: Level) -> bool:
    return {
        Level.CGROUP: walls.cgroup,
        Level.USER: walls.own_uid,
        Level.NAMESPACES: walls.namespaces,
    }[wall]


_WHY = {
    Level.CGROUP: "a cgroup for each program (root, or a delegated cgroup)",
    Level.USER: "a uid of its own for each program (run the referee as root, with setpriv)",
    Level.NAMESPACES: "namespaces for each program (bubblewrap: apt-get install bubblewrap; "
    "as a user that is not root, unprivileged user namespaces)",
}
