"""Draws the functions a fresh probe puts its bugs in, so that where a probe looks is
chosen by a seed and not by what its author knows the tests hold.

Every function and method of the areas named (Python by its syntax tree, C by its
definitions at a line's start) is a candidate, except a protocol's stubs (a docstring
and ``...``: nothing to break) and the functions an earlier probe
(``scripts/mutate_*.py``) already put a bug in. Each area gives its share of draws in
a seeded order, spares after them: a drawn function that admits no bug changing what
it does (a one-line property, a pure pass-through) is passed over for the next, and
the probe says so.

    python scripts/draw_sites.py --seed 13 --each 5 --spares 3

prints, per area, the functions drawn in order: ``path:line name``.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import random
import re
import sys
from pathlib import Path

from mutation import ROOT, Mutation

AREAS: dict[str, tuple[str, ...]] = {
    "contract": ("src/arbiter/contract/*.py",),
    "environments": ("src/arbiter/envs/*.py",),
    "contest server": ("src/arbiter/host/*.py", "src/arbiter/host/routes/*.py"),
    "C core": ("src/arbiter/csrc/*.c",),
}
"""The areas a probe draws from, by the files they hold."""

C_FUNCTION = re.compile(r"^(?:static\s+)?(?:inline\s+)?[A-Za-z_][\w \*]*?\b(\w+)\([^;]*\)\s*\{\s*$")


def functions(path: Path) -> list[tuple[int, int, str]]:
    """The functions of one file: (first line, last line, name), methods as
    ``Class.name``."""
    text = path.read_text()
    if path.suffix in (".c", ".h"):
        return _c_functions(text)
    if path.suffix != ".py":
        return []
    found: list[tuple[int, int, str]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                if not _stub(child):
                    end = child.end_lineno or child.lineno
                    found.append((child.lineno, end, prefix + child.name))
                visit(child, f"{prefix}{child.name}.")

    visit(ast.parse(text), "")
    return found


def _stub(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a function does nothing: a protocol's method, its body a docstring and
    ``...`` (or ``pass``), has no behaviour to break."""
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return all(
        isinstance(s, ast.Pass)
        or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and s.value.value is ...)
        for s in body
    )


def _c_functions(text: str) -> list[tuple[int, int, str]]:
    lines = text.splitlines()
    found = []
    for i, line in enumerate(lines):
        match = C_FUNCTION.match(line)
        if not match or line.startswith((" ", "\t")):
            continue
        depth, end = 0, i
        for end in range(i, len(lines)):
            depth += lines[end].count("{") - lines[end].count("}")
            if depth == 0:
                break
        found.append((i + 1, end + 1, match.group(1)))
    return found


def probed() -> set[tuple[str, str]]:
    """(path, function) of every bug an earlier probe put in."""
    sys.path.insert(0, str(ROOT / "scripts"))
    taken: set[tuple[str, str]] = set()
    for script in sorted((ROOT / "scripts").glob("mutate_*.py")):
        if script.stem == "mutate_sweep":
            continue
        mutations: tuple[Mutation, ...] = getattr(
            importlib.import_module(script.stem), "MUTATIONS", ()
        )
        for m in mutations:
            path = ROOT / m.path
            text = path.read_text() if path.is_file() else ""
            if m.old not in text:
                continue
            line = text[: text.index(m.old)].count("\n") + 1
            inside = [f for f in functions(path) if f[0] <= line <= f[1]]
            if inside:
                innermost = max(inside, key=lambda f: f[0])
                taken.add((m.path, innermost[2]))
    return taken


def pool() -> dict[str, list[tuple[str, int, int, str]]]:
    """Per area, the functions a probe may still draw: (path, first line, last line,
    name), those of three lines or more that no probe used."""
    taken = probed()
    return {
        area: [
            (str(path.relative_to(ROOT)), first, last, name)
            for pattern in patterns
            for path in sorted(ROOT.glob(pattern))
            for first, last, name in functions(path)
            if last - first >= 2 and (str(path.relative_to(ROOT)), name) not in taken
        ]
        for area, patterns in AREAS.items()
    }


def draw(seed: int, each: int, spares: int) -> dict[str, list[tuple[str, int, str]]]:
    """Per area, ``each + spares`` functions no probe used, in a seeded order."""
    rng = random.Random(seed)
    return {
        area: [(path, first, name) for path, first, _, name in rng.sample(found, each + spares)]
        for area, found in pool().items()
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--each", type=int, default=5)
    parser.add_argument("--spares", type=int, default=3)
    args = parser.parse_args()
    for area, sites in draw(args.seed, args.each, args.spares).items():
        print(f"{area}:")
        for i, (path, line, name) in enumerate(sites):
            print(f"  {'spare ' if i >= args.each else ''}{path}:{line} {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
