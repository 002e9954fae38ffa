"""Who sits at a seat: a built-in engine with its options, or an external program.

An :class:`AgentSpec` is a value, written on the command line as ``random``,
``alphabeta:depth=4`` or a shell-quoted command (run through the contest's
protocol), so a match or tournament can be described, stored and sent to a worker
process as plain data.

>>> AgentSpec.parse("alphabeta:depth=4").options
(('depth', 4),)
>>> AgentSpec.parse("./my_agent --fast").program.argv
('./my_agent', '--fast')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arbiter.contract import Program, program_problem
from arbiter.errors import ConfigError

MAX_DEPTH = 64
"""The deepest fixed search depth accepted (no game here is searched deeper)."""

ENGINES: dict[str, tuple[str, ...]] = {
    "random": (),
    "greedy": (),
    "alphabeta": ("depth", "nodes", "hash", "pure", "reduce", "prune"),
}
"""The built-in engines and the whole-number options each takes (``hash``: the
transposition table in megabytes; ``pure=1``: search in Python even where the game
has a compiled kernel; ``reduce=0``/``1``/``2``: late-move reductions off, on every
late move, or on the quiet ones only, whatever the game's default; ``prune=N``:
late-move pruning at nodes with N plies or fewer left, 0 for none, see
:data:`arbiter.agents.alphabeta.PRUNE_KEEP`)."""

OPTION_LIMITS = {
    "depth": MAX_DEPTH,
    "nodes": 10**12,
    "hash": 4096,
    "pure": 1,
    "reduce": 2,
    "prune": 4,
}
"""The largest value of each engine option (a table of 4 GB is already far past what
any contest's memory allows)."""

SWITCHES = frozenset({"pure", "reduce", "prune"})
"""The options that may be 0 (the others start at 1)."""


@dataclass(frozen=True, slots=True)
class AgentSpec:
    """A built-in ``engine`` with ``options``, or an external ``program``; ``name`` is
    what results show."""

    name: str
    engine: str | None = None
    options: tuple[tuple[str, int], ...] = ()
    program: Program | None = None

    @classmethod
    def parse(cls, text: str, *, name: str | None = None, cwd: str | None = None) -> AgentSpec:
        """Reads ``ENGINE``, ``ENGINE:key=value,...`` or a command.

        :raises ConfigError: for an unknown engine option, a bad value, or a command
            that is empty or badly quoted.
        """
        head, colon, rest = text.partition(":")
        if head in ENGINES:
            options: list[tuple[str, int]] = []
            for part in rest.split(",") if colon else []:
                key, eq, value = part.partition("=")
                if not eq and key in ENGINES[head]:
                    raise ConfigError(f"agent {text!r}: option {key!r} needs a value ({key}=N)")
                if not eq or key not in ENGINES[head]:
                    known = ", ".join(ENGINES[head]) or "none"
                    raise ConfigError(
                        f"agent {text!r}: unknown option {part!r} for {head} (options: {known})"
                    )
                least = 0 if key in SWITCHES else 1
                if not value.isdigit() or int(value) < least:
                    raise ConfigError(f"agent {text!r}: {key} must be a whole number >= {least}")
                if int(value) > OPTION_LIMITS[key]:
                    raise ConfigError(f"agent {text!r}: {key} must be at most {OPTION_LIMITS[key]}")
                options.append((key, int(value)))
            return cls(name or text, engine=head, options=tuple(options))
        program = Program.from_command(text, cwd=cwd, name=name or text)
        return cls(program.label, program=program)

    def option(self, key: str) -> int | None:
        """The value of an engine option, or None."""
        return dict(self.options).get(key)

    def with_options(self, **options: int | None) -> AgentSpec:
        """Returns this engine with the given options set where not already set (a
        program is returned unchanged)."""
        if self.engine is None:
            return self
        merged = dict(self.options)
        for key, value in options.items():
            if value is not None and key in ENGINES[self.engine]:
                merged.setdefault(key, value)
        return AgentSpec(self.name, self.engine, tuple(sorted(merged.items())), self.program)

    def check(self) -> None:
        """Checks that an external program can be started.

        :raises ConfigError: for a missing or non-executable program file, or a
            command not on PATH.
        """
        if self.program is None:
            return
        exe = self.program.argv[0]
        why = program_problem(exe, self.program.cwd)
        if why == "not found on PATH":
            raise ConfigError(
                f"agent {self.name!r} is neither a built-in engine "
                f"({', '.join(ENGINES)}) nor a program on PATH"
            )
        if why is not None:
            raise ConfigError(f"agent command {self.name!r}: {why} {exe!r}")


def distinct_names(names: Sequence[str]) -> list[str]:
    """The names, a repeated one told apart by primes, so every agent of a match or
    tournament is named once.

    >>> distinct_names(["alphabeta", "random", "alphabeta"])
    ['alphabeta', 'random', "alphabeta'"]
    """
    seen: set[str] = set()
    out = []
    for name in names:
        while name in seen:
            name += "'"
        seen.add(name)
        out.append(name)
    return out
