"""The default test run is deterministic on a busy machine: a test that asserts on
measured time (a clock read, directly or through a name it was stored in) carries the
``timing`` mark, which the default run leaves out and CI runs alone.

Two forms are not measurements and pass unmarked: a wait's guard
(``assert time.monotonic() < deadline``: a hang turned into a failure, with a
deadline far beyond what the wait needs) and a clock read only to build a deadline.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).parent

CLOCKS = {"monotonic", "perf_counter", "time", "process_time", "thread_time", "cpu_time"}
"""Functions whose result is measured time."""


def _reads_clock(node: ast.AST) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            f = sub.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            if name in CLOCKS:
                return True
    return False


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _is_guard(test: ast.expr) -> bool:
    """``clock() < deadline`` (or ``<=``): a wait's guard against a hang."""
    return (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Lt | ast.LtE)
        and "deadline" in ast.unparse(test.comparators[0])
    )


def _marked(decorators: list[ast.expr]) -> bool:
    return any("timing" in ast.unparse(d) for d in decorators)


def unmarked_timing_asserts(source: str) -> list[str]:
    """``function:line`` of each assertion on measured time in a test not marked
    ``timing`` (none when the whole module is).

    >>> unmarked_timing_asserts("import time\\ndef test_x():\\n    t = time.monotonic()\\n"
    ...                         "    assert time.monotonic() - t < 1\\n")
    ['test_x:4']
    >>> unmarked_timing_asserts("def test_y(d):\\n    assert time.monotonic() < d.deadline\\n")
    []
    """
    tree = ast.parse(source)
    for statement in tree.body:
        if not isinstance(statement, ast.Assign):
            continue
        pytestmark = any(getattr(t, "id", "") == "pytestmark" for t in statement.targets)
        if pytestmark and "timing" in ast.unparse(statement.value):
            return []
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if not node.name.startswith("test") or _marked(node.decorator_list):
            continue
        timed: set[str] = set()  # names that hold measured time
        for sub in ast.walk(node):
            if not isinstance(sub, ast.Assign) or "deadline" in ast.unparse(sub):
                continue
            if _reads_clock(sub.value):
                timed |= {n for t in sub.targets for n in _names(t)}
        for sub in ast.walk(node):
            if not isinstance(sub, ast.Assert) or _is_guard(sub.test):
                continue
            if _reads_clock(sub.test) or _names(sub.test) & timed:
                found.append(f"{node.name}:{sub.lineno}")
    return found


def test_every_assertion_on_measured_time_is_marked_timing() -> None:
    found = []
    for path in sorted(TESTS.rglob("test_*.py")):
        for where in unmarked_timing_asserts(path.read_text()):
            found.append(f"{path.relative_to(TESTS)}::{where}")
    assert found == [], "assertions on measured time in tests not marked timing"
