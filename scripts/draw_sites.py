"""Draws the functions a fresh probe puts its bugs in, so that where a probe looks is
chosen by a seed and not by what its author knows the tests hold.

Every function and method of the areas named (Python by its syntax tree, C by its
definitions at a line's start) is a candidate, except a protocol's stubs (a docstring
and ``...``: nothing to break) and the functions an earlier probe
(``scripts/mutate_*.py``) already put a bug in. Each area gives its share of draws in
a seeded order, spares after them (an area with fewer unused functions left than asked,
as the contract after the eighteenth probe, fills its share from the functions earlier
probes used, drawn by the seed too and printed ``again``: a new bug in each, never the
earlier one): a drawn function that admits no bug changing what
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


Site = tuple[str, int, int, str]
"""A function that may take a bug: (path, first line, last line, name)."""


def every_function() -> dict[str, list[Site]]:
    """Per area, its functions of three lines or more, used by a probe or not."""
    return {
        area: [
            (str(path.relative_to(ROOT)), first, last, name)
            for pattern in patterns
            for path in sorted(ROOT.glob(pattern))
            for first, last, name in functions(path)
            if last - first >= 2
        ]
        for area, patterns in AREAS.items()
    }


def pool() -> dict[str, list[Site]]:
    """Per area, the functions a probe may still draw: those of three lines or more
    that no probe used."""
    taken = probed()
    return {
        area: [site for site in found if (site[0], site[3]) not in taken]
        for area, found in every_function().items()
    }


def draw(seed: int, each: int, spares: int) -> dict[str, list[tuple[str, int, str, bool]]]:
    """Per area, ``each + spares`` functions in a seeded order: (path, first line,
    name, whether an earlier probe used it). Those no probe used come first; an area
    with fewer left is filled from the functions earlier probes used, also drawn by
    the seed (a new bug in each, never the earlier probe's)."""
    rng = random.Random(seed)
    fresh = pool()
    everything = every_function()
    drawn: dict[str, list[tuple[str, int, str, bool]]] = {}
    for area, found in fresh.items():
        want = each + spares
        picked = [
            (path, first, name, False)
            for path, first, _, name in rng.sample(found, min(want, len(found)))
        ]
        if len(picked) < want:
            unused = {(site[0], site[3]) for site in found}
            before = [s for s in everything[area] if (s[0], s[3]) not in unused]
            picked += [
                (path, first, name, True)
                for path, first, _, name in rng.sample(before, want - len(picked))
            ]
        drawn[area] = picked
    return drawn


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--each", type=int, default=5)
    parser.add_argument("--spares", type=int, default=3)
    args = parser.parse_args()
    for area, sites in draw(args.seed, args.each, args.spares).items():
        print(f"{area}:")
        for i, (path, line, name, again) in enumerate(sites):
            marks = ("spare " if i >= args.each else "") + ("again " if again else "")
            print(f"  {marks}{path}:{line} {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
