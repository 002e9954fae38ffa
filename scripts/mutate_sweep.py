"""Mechanical bugs at random lines, each run against the tests that execute its line.

Where the hand-written probes (``mutate_*.py``) choose a plausible bug and name the
tests that should catch it, this sweep chooses neither: it draws lines at random from
the modules given, makes the first mechanical change that applies (a comparison
turned, ``and`` for ``or``, a constant moved by one, a condition negated, a
statement's call dropped) and runs the tests that a coverage run with per-test
contexts saw execute that line. A surviving mutant is a line the suite runs without
holding what it does.

Needs a coverage data file made with contexts, in the processes the tests start too::

    python scripts/coverage_contexts.py
    python scripts/mutate_sweep.py --seed 7 --count 40 src/arbiter/referee/cgroups.py ...

``--pool`` draws only from the functions a fresh probe may still draw
(``draw_sites.py``): a probe's odds, before the probe.

A C source of the compiled core (which coverage does not see) is judged by
:data:`C_TESTS`, and its mutant built before its tests run.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from functools import cache
from pathlib import Path

import coverage
from mutation import ENVS_TESTS, ROOT, Mutation, main

Ranges = dict[Path, list[tuple[int, int]]]
"""Line ranges (first, last) by file."""

SWAPS: tuple[tuple[str, str], ...] = (
    (" == ", " != "),
    (" != ", " == "),
    (" <= ", " < "),
    (" >= ", " > "),
    (" < ", " <= "),
    (" > ", " >= "),
    (" and ", " or "),
    (" or ", " and "),
    (" is None", " is not None"),
    (" is not None", " is None"),
    (" not in ", " in "),
    (" in ", " not in "),
    ("True", "False"),
    ("False", "True"),
    (" + 1", " - 1"),
    (" - 1", " + 1"),
    (" + ", " - "),
    (" * ", " + "),
    ("if not ", "if "),
    (" && ", " || "),
    (" || ", " && "),
    ("max(", "min("),
    ("min(", "max("),
)
NUMBER = re.compile(r"(?<![\w.])(\d+)(?![\w.])")
SKIP = re.compile(r'^\s*(#|"""|\'\'\'|def |class |@|import |from |return$|raise |assert )')
SKIP_C = re.compile(r"^\s*(#|//|/\*|\*|static [^=]*\($|[{}]\s*$|case |default:)")

PHASE = re.compile(r" \((setup|call|teardown)\)$")
"""The phase ``PYTEST_CURRENT_TEST`` ends with, after the test's node id."""

C_TESTS = (
    "tests/test_core.py",
    "tests/agents/test_search_nodes.py",
    "tests/agents/test_search_exact.py",
    "tests/test_perft_files.py",
)
"""What judges a line of the C core, which coverage does not see: the compiled core held
to the pure one along random games and searches, node for node, and its perft counts to
the known ones."""


def mutant_of(line: str, c: bool = False, code: str | None = None) -> str | None:
    """The first mechanical change that applies to ``line`` (of a C source if ``c``),
    or None; ``code`` is the line without its comments where a comment spans lines."""
    if code is None:
        code = line
    code = code.split("//" if c else "  #", 1)[0]
    if (SKIP_C if c else SKIP).match(code) or not code.strip() or code.strip().startswith('"'):
        return None
    for old, new in SWAPS:
        if old == " in " and " for " in f" {code}":
            continue  # ``for x not in y`` does not parse: a mutant no test need catch
        if old in code:
            return line.replace(old, new, 1)
    found = NUMBER.search(code)
    if found:
        value = int(found.group(1))
        return line[: found.start()] + str(value + 1) + line[found.end() :]
    stripped = code.strip()
    if stripped.startswith("if ") and stripped.endswith(":"):
        return line.replace("if ", "if not (", 1).replace(":", "):", 1)
    return None


def uncommented(text: str) -> str:
    """A C source with each ``/* ... */`` comment blanked, its lines kept."""
    return re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group()), text, flags=re.S)


@cache
def still_there(test: str) -> bool:
    """Whether the test a coverage run recorded is still in its file (a test renamed or
    removed since would make pytest refuse the whole run)."""
    file, _, name = test.partition("::")
    path = ROOT / file
    if not path.is_file() or path.suffix != ".py" or not file.startswith("tests/"):
        return path.is_file()  # a doctest is named for its module's object
    function = name.split("[", 1)[0].split("::")[-1]
    return f"def {function}(" in path.read_text()


@cache
def measured_as(data: coverage.CoverageData, path: Path) -> str:
    """The name the coverage run gave ``path``'s file: the same file under the package,
    wherever the checkout that ran it was (a copy of the repository sweeps with the
    coverage data of another).

    :raises SystemExit: if the coverage run never saw the file.
    """
    part = path.resolve().relative_to(ROOT).as_posix()
    for measured in data.measured_files():
        if measured.endswith("/" + part):
            return measured
    raise SystemExit(f"the coverage data has no lines of {part}: run coverage_contexts.py")


def covering_tests(data: coverage.CoverageData, path: Path, line: int) -> list[str]:
    """The node ids of the tests that ran ``path``'s ``line``: first those of a test
    file named for its module or its folder (``test_sandbox.py``, ``tests/referee/``),
    which most likely hold what the line does, then the rest in a fixed shuffle, so
    that a line run by hundreds of tests is not judged by the first few in name order
    (the walls' lines were judged by the agents' tests alone)."""
    contexts = data.contexts_by_lineno(measured_as(data, path)).get(line, [])
    # pytest-cov's context is "NODE|run"; a process a test started has its own
    # PYTEST_CURRENT_TEST, "NODE (call)" (scripts/coverage_contexts.py)
    tests = sorted(
        test
        for test in {PHASE.sub("", c.split("|", 1)[0]) for c in contexts if "::" in c}
        if still_there(test)
    )
    random.Random(f"{path}:{line}").shuffle(tests)
    near = (f"test_{path.stem}", f"/{path.parent.name}/")

    def distance(test: str) -> int:
        file = "/" + test.split("::", 1)[0]
        return 0 if near[0] in file else 1 if near[1] in file else 2

    return sorted(tests, key=distance)


def sweep(
    paths: list[Path], count: int, seed: int, limit: int, inside: Ranges | None = None
) -> list[Mutation]:
    """``count`` mutants drawn with ``seed`` from the lines of ``paths`` (only those
    within ``inside``'s line ranges of their file, when given)."""
    data = coverage.CoverageData(str(ROOT / ".coverage"))
    data.read()
    data.set_query_contexts(None)
    chances = []
    for path in paths:
        lines = path.read_text().splitlines(keepends=True)
        text = "".join(lines)
        c = path.suffix in (".c", ".h")
        codes = uncommented(text).splitlines(keepends=True) if c else lines
        for number, (line, code) in enumerate(zip(lines, codes, strict=True), 1):
            new = mutant_of(line, c, code)
            if new is None or text.count(line) != 1:
                continue
            if inside is not None and not any(
                a <= number <= b for a, b in inside.get(path.resolve(), ())
            ):
                continue
            if c:
                tests = list(ENVS_TESTS if path.name == "envs.c" else C_TESTS + ENVS_TESTS)
            else:
                tests = covering_tests(data, path.resolve(), number)
            if tests:
                chances.append((path, number, line, new, tests))
    if not chances:  # else the run of no mutation's tests would run the whole suite
        raise SystemExit("no line of those files has a mutation and a test that runs it")
    picked = random.Random(seed).sample(chances, min(count, len(chances)))
    return [
        Mutation(
            f"{path.stem}:{number}",
            f"{line.strip()}  ->  {new.strip()}",
            str(path.resolve().relative_to(ROOT)),
            line,
            new,
            tuple(tests[:limit]),
        )
        for path, number, line, new, tests in sorted(picked, key=lambda p: (str(p[0]), p[1]))
    ]


def probe_pool() -> Ranges:
    """The line ranges of the functions a fresh probe may still draw
    (:func:`draw_sites.pool`), by file."""
    from draw_sites import pool

    ranges: Ranges = {}
    for found in pool().values():
        for path, first, last, _ in found:
            ranges.setdefault((ROOT / path).resolve(), []).append((first, last))
    return ranges


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--limit", type=int, default=60, help="tests run at most, a mutant")
    parser.add_argument("--suite", action="store_true", help="the whole suite for a survivor")
    parser.add_argument(
        "--pool", action="store_true", help="only lines of functions a fresh probe may draw"
    )
    args = parser.parse_args()
    inside = probe_pool() if args.pool else None
    mutations = sweep(args.paths, args.count, args.seed, args.limit, inside)
    sys.exit(main(mutations, ["--suite"] if args.suite else []))
