"""Puts fresh bugs into arbiter one at a time and runs the tests that should catch
each: the runner of ``mutate_host.py`` and ``mutate_platform.py``.

Each :class:`Mutation` replaces one exact piece of a source file (found exactly once)
with a plausible bug, runs its tests in one process, stopping at the first failure,
and restores the file whatever happens. A mutation no test catches is a rule of the
platform without a test: :func:`main` says which and exits with 1.

With ``--suite`` a mutation its own tests miss is run against the whole suite as CI runs
it (the README's test command, stopping at the first failure): a probe's named tests
are its author's guess, and a bug the suite catches elsewhere is caught all the same.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SRC = "src/arbiter/"
"""Where a probe's files are, from the repository's root: the package and its parts."""
HOST = SRC + "host/"
REFEREE = SRC + "referee/"
GAMES = SRC + "games/"
CSRC = SRC + "csrc/"

ENVS_TESTS = ("tests/test_envs_kernel.py", "tests/test_envs.py", "tests/test_drop_game.py")
"""What judges the learning environments, pure and compiled (and each game's C view for
them): their steps, masks and observations held to the pure environments' along random
games."""

CORE_TESTS = (
    "tests/test_core.py",
    "tests/agents/test_search_nodes.py",
    "tests/agents/test_search_exact.py",
)
"""What judges the compiled core and its search: the compiled paths held to the pure
ones along random games, and the searches' recorded node counts and exact scores."""

CONTRACT_TESTS = ("tests/test_contract.py", "tests/test_cli.py", "tests/test_check_agent.py")
"""What judges the game contract: the spec's fields and checks, the commands that read
them, and ``arbiter check-agent``'s prepared checks."""

BOARD_TESTS = ("tests/web/test_api.py", "tests/web/test_stored_games.py", "tests/test_drop_game.py")
"""What judges a board's clicks and the paths it draws: moves entered cell by cell in
the browser's API, and the replays of stored and dropped games."""

TOY_TESTS = ("tests/test_toy_game.py", "tests/test_drop_game.py", "tests/host/test_kits.py")
"""What judges a game folder read whole: the toy games through every command, and the
starter kits a folder holds."""

HANG = 600.0
"""Seconds after which a mutant's tests are stopped and the mutant counted caught: a
bug that hangs the suite fails CI by its time limit."""

SUITE_HANG = 1800.0
"""Seconds after which a mutant's run of the whole suite is stopped (about six minutes
on two cores without a bug)."""


@dataclass(frozen=True)
class Mutation:
    """A bug: ``old`` in ``path`` becomes ``new``; ``guard`` says what it breaks."""

    name: str
    guard: str
    path: str
    old: str
    new: str
    tests: tuple[str, ...]


def failing_test(
    tests: Sequence[str], *, sqlite_only: bool, suite: bool = False, baseline: bool = False
) -> str | None:
    """The first of ``tests`` that fails (its node id), or ``None`` if all pass; with
    ``suite`` (and no ``tests``) the whole suite as the README's ``pytest`` runs it, on
    the workers and marks ``pyproject.toml`` gives, else ``tests`` in one process. The
    ``baseline`` run of every probe's tests at once (a sweep's reach most of the suite)
    goes on the suite's workers and clock."""
    env = dict(os.environ)
    if sqlite_only:
        env.pop("ARBITER_POSTGRES_URL", None)
    pytest = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider"]
    if not (suite or baseline):
        pytest += ["-n", "0"]
    hang = SUITE_HANG if suite or baseline else HANG
    with tempfile.TemporaryDirectory(prefix="arbiter-mutation-") as bytecode:
        # compiled fresh each run: a bytecode file records its source's size and its
        # time in whole seconds, so a mutant of the same size written and restored
        # within a second would otherwise be run from a stale file (the mutant in a
        # later run, or the original in place of the mutant)
        env["PYTHONPYCACHEPREFIX"] = bytecode
        try:
            done = subprocess.run(
                [*pytest, "-rfE", *tests],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                timeout=hang,
            )
        except subprocess.TimeoutExpired:  # a bug that hangs the tests is caught, by CI's clock
            return f"the tests hung (over {hang:.0f} s)"
    if done.returncode == 0:
        return None
    found = re.search(r"^(?:FAILED|ERROR) (\S+)", done.stdout, re.M)
    return found.group(1) if found else f"pytest exit {done.returncode}"


def build_core() -> None:
    """Builds the compiled core in place from its sources as they are now: a core built
    from other sources is never loaded (the pure path runs instead), so a bug put in a
    C file runs only once built, and the original must be built again after it.

    :raises SystemExit: if the build fails or leaves a core of other sources.
    """
    built = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "-e", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    same = "raise SystemExit(_core.SOURCES != core.sources_digest())"
    check = subprocess.run(
        [sys.executable, "-c", f"from arbiter import _core, core; {same}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if built.returncode or check.returncode:
        said = (built.stderr or check.stderr).strip().splitlines()
        raise SystemExit(f"the compiled core did not build from its sources: {said[-1:]}")


def run(mutation: Mutation, *, sqlite_only: bool, suite: bool = False) -> tuple[str | None, float]:
    """Puts the bug in (building the compiled core for a bug in its C sources), runs
    its tests (and the whole suite if ``suite`` and they miss it), takes it out; the
    test that caught it, marked ``(suite)`` when only the whole suite did."""
    path = ROOT / mutation.path
    text = path.read_text()
    if text.count(mutation.old) != 1:
        raise SystemExit(f"{mutation.name}: the text to replace is not in {mutation.path} once")
    compiled = mutation.path.startswith(CSRC)  # a kit's C is built by its own tests
    started = time.monotonic()
    try:
        path.write_text(text.replace(mutation.old, mutation.new))
        try:
            if compiled:
                build_core()
        except SystemExit:  # the mutant does not compile: the compiler caught it
            caught: str | None = "the compiler"
        else:
            caught = failing_test(mutation.tests, sqlite_only=sqlite_only)
            if caught is None and suite:
                elsewhere = failing_test((), sqlite_only=sqlite_only, suite=True)
                caught = None if elsewhere is None else f"{elsewhere} (suite)"
    finally:
        path.write_text(text)
        if compiled:
            build_core()
    return caught, time.monotonic() - started


def main(mutations: Sequence[Mutation], argv: Sequence[str], *, sqlite_only: bool = False) -> int:
    """Runs the ``mutations`` named in ``argv`` (all if none); prints one line each and
    the count caught; returns 1 if any was missed, 2 if the tests fail without a bug.
    ``--suite`` in ``argv`` runs the whole suite for a mutation its own tests miss."""
    suite = "--suite" in argv
    names = [a for a in argv if a != "--suite"]
    chosen = [m for m in mutations if not names or m.name in names]
    tests = tuple(sorted({t for m in chosen for t in m.tests}))
    already = failing_test(tests, sqlite_only=sqlite_only, baseline=True)
    if already is None and suite:
        already = failing_test((), sqlite_only=sqlite_only, suite=True)
    if already is not None:  # a failure must be the bug's, not one already there
        print(f"the tests fail without any bug: {already}")
        return 2
    missed = []
    for mutation in chosen:
        caught, seconds = run(mutation, sqlite_only=sqlite_only, suite=suite)
        print(
            f"{'caught' if caught else 'MISSED':7} {mutation.name:18} {seconds:5.1f} s  "
            f"{mutation.guard}" + (f"\n{'':27}by {caught}" if caught else ""),
            flush=True,
        )
        if not caught:
            missed.append(mutation.name)
    print(f"{len(chosen) - len(missed)} of {len(chosen)} caught")
    return 1 if missed else 0
