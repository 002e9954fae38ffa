"""The layers of arbiter, and a check that no module imports from a layer above its own
and that no modules import each other in a circle.

Each layer may use the layers below it and never one above, so a contest program
(an engine behind a game's ``player`` side) loads no referee, the referee loads no
tournament or web server, and a reader can learn the platform from the bottom up.
A game's folder spans layers: its rules, notation, evaluation and contest rulings
sit low, its player side with the engines, its referee side with the referee, and
its spec (the package itself) above both, loading each side only when it is used.

Every import counts: at the top of a module, inside a function, or for type
checking only. Run it as ``python -m arbiter.tools.layers``: it prints each upward
import and each circle, and exits with status 1 if there is one.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "base",
        (
            "arbiter",
            "arbiter.errors",
            "arbiter.bitboard",
            "arbiter.game",
            "arbiter.clock",
            "arbiter.record",
            "arbiter.core",
            "arbiter._core",
            "arbiter.perft",
        ),
    ),
    (
        "contract",
        (
            "arbiter.contract",
            "arbiter.layout",
            "arbiter.probes",
            "arbiter.agents",
            "arbiter.agents.base",
        ),
    ),
    (
        "rules",
        (
            "arbiter.games.*.rules",
            "arbiter.games.*.notation",
            "arbiter.games.*.evaluate",
            "arbiter.games.*.contest",
            "arbiter.games.*.board",
            "arbiter.games.*.probes",
        ),
    ),
    ("engines", ("arbiter.agents.*", "arbiter.games.*.player")),
    (
        "referee",
        (
            "arbiter.referee",
            "arbiter.referee.*",
            "arbiter.games.*.referee",
            "arbiter.human",
        ),
    ),
    ("games", ("arbiter.games", "arbiter.games.*")),
    (
        "play",
        (
            "arbiter.referee.series",
            "arbiter.referee.pool",
            "arbiter.referee.replay",
            "arbiter.checkagent",
        ),
    ),
    ("tournament", ("arbiter.tournament", "arbiter.tournament.*")),
    ("web", ("arbiter.web", "arbiter.web.*")),
    ("host", ("arbiter.host", "arbiter.host.*")),
    (
        "commands",
        ("arbiter.cli", "arbiter.cli.*", "arbiter.__main__", "arbiter.tools", "arbiter.tools.*"),
    ),
)
"""The layers, lowest first, each with the modules in it. A module belongs to the
highest layer that names it exactly, else to the lowest whose pattern matches it:
``arbiter.referee.series`` runs games by their names, so it sits above the games
registry although its package is the referee's."""


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of ``module``'s layer.

    :raises KeyError: naming the module, if no layer names it.

    >>> LAYERS[layer_of("arbiter.games.votey.player")][0]
    'engines'
    >>> LAYERS[layer_of("arbiter.referee.series")][0]
    'play'
    """
    exact = [i for i, (_, names) in enumerate(LAYERS) if module in names]
    if exact:
        return max(exact)
    for i, (_, names) in enumerate(LAYERS):
        if any(fnmatchcase(module, n) for n in names):
            return i
    raise KeyError(f"module {module} is in no layer of arbiter.tools.layers.LAYERS")


@dataclass(frozen=True, slots=True)
class Import:
    """``importer`` imports ``imported`` at ``line`` of its file."""

    importer: str
    imported: str
    line: int


def modules(root: Path) -> dict[str, Path]:
    """Every module of the package in ``root`` (the folder holding ``arbiter``), by name."""
    found: dict[str, Path] = {}
    for path in sorted((root / "arbiter").rglob("*.py*")):
        if path.suffix not in (".py", ".pyi") or "__pycache__" in path.parts:
            continue
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found.setdefault(".".join(parts), path)
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> Iterator[Import]:
    """The imports of arbiter's own modules in the module ``name`` (its file ``path``)."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.stem == "__init__" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from package import module`` imports the module
            targets = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names
            ]
        else:
            continue
        for target in dict.fromkeys(targets):
            if target in known and target != name:
                yield Import(name, target, node.lineno)


def upward(graph: list[Import]) -> list[Import]:
    """The imports from a lower layer into a higher one."""
    return [i for i in graph if layer_of(i.importer) < layer_of(i.imported)]


def circles(graph: list[Import]) -> list[list[str]]:
    """The groups of modules that import each other in a circle (strongly connected
    components of more than one module, Tarjan's algorithm), each sorted."""
    edges: dict[str, set[str]] = {}
    for i in graph:
        edges.setdefault(i.importer, set()).add(i.imported)
        edges.setdefault(i.imported, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def check(root: Path) -> list[str]:
    """The layering faults of the package in ``root``, one line each (none: all well)."""
    known = modules(root)
    graph = [i for name, path in known.items() for i in imports(name, path, known)]
    faults = []
    for name in known:
        try:
            layer_of(name)
        except KeyError as e:
            faults.append(str(e.args[0]))
    if faults:
        return faults
    for i in upward(graph):
        faults.append(
            f"{known[i.importer].relative_to(root)}:{i.line}: {i.importer} "
            f"({LAYERS[layer_of(i.importer)][0]}) imports {i.imported} "
            f"({LAYERS[layer_of(i.imported)][0]}), a layer above it"
        )
    for group in circles(graph):
        faults.append(f"modules import each other in a circle: {', '.join(group)}")
    return faults


def main() -> int:
    """Checks the installed package; prints each fault; returns the exit status."""
    root = Path(__file__).resolve().parents[2]
    faults = check(root)
    for line in faults:
        print(line)
    if not faults:
        print(f"{len(modules(root))} modules in {len(LAYERS)} layers: no upward import, no circle")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
