"""The layers of arbiter, by folder, and a check that no module uses a layer above
its own, that no game uses another, and that nothing uses itself in a circle: the
Python package and the compiled core alike.

Each layer may use the layers below it and never one above, so a contest program
(an engine behind a game's ``player`` side) loads no referee, the referee loads no
tournament or web server, and a reader can learn the platform from the bottom up.
The base is a ladder of single modules (errors, game, bitboard, moves, clock, record,
core, crossing, perft), each using only those before it; every other layer is a folder. A game's
folder is the one folder that spans layers, by file: its rules, notation, evaluation,
contest rulings, board and probes sit low, its ``player`` side with the engines, its
``referee`` side with the referee, and its spec (the package itself) above both,
loading each side only when it is used. One game never uses another.

Every use counts: an import at the top of a module, inside a function or for type
checking only, and a module named in a string (``Loader(f"{__name__}.player")``,
``importlib.import_module("arbiter.games.votey")``), which is imported when called.
In the compiled core (``csrc``) a file uses another when it names a function or
table the other defines. Run it as ``python -m arbiter.tools.layers``: it prints each
fault and exits with status 1 if there is one.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("errors", ("errors.py",)),
    ("game", ("game.py",)),
    ("bitboard", ("bitboard.py",)),
    ("moves", ("moves.py",)),
    ("clock", ("clock.py",)),
    ("record", ("record.py",)),
    ("core", ("core.py", "_core.pyi")),
    ("crossing", ("crossing.py",)),
    ("perft", ("perft.py",)),
    ("package", ("__init__.py",)),
    ("contract", ("contract/*",)),
    (
        "rules",
        (
            "games/*/rules.py",
            "games/*/notation.py",
            "games/*/evaluate.py",
            "games/*/contest.py",
            "games/*/board.py",
            "games/*/probes.py",
        ),
    ),
    ("engines", ("agents/*", "games/*/player.py")),
    ("referee", ("referee/*", "games/*/referee.py")),
    ("games", ("games/__init__.py", "games/*/__init__.py")),
    ("envs", ("envs/*",)),
    ("play", ("play/*",)),
    ("tournament", ("tournament/*",)),
    ("web", ("web/*",)),
    ("host", ("host/*",)),
    ("commands", ("cli/*", "tools/*")),
)
"""The layers, lowest first, each with its files (paths inside the ``arbiter``
package; ``*`` takes any path below a folder). Every module is in exactly one."""

C_LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("lists and glue", ("lists.c", "glue.c")),
    ("kernels", ("votey.c", "checkers.c", "alquerque.c", "chinese_checkers.c", "halma.c")),
    ("table of games", ("games.c",)),
    ("search and learning environments", ("search.c", "envs.c")),
    ("module", ("module.c",)),
)
"""The compiled core's layers, lowest first (files in ``arbiter/csrc``); the kernels
are one layer whose files never use each other, like the games' folders."""

SIDEWAYS_REFUSED = {"kernels"}
"""The C layers whose files may not use each other (each a game of its own)."""


@dataclass(frozen=True, slots=True)
class Use:
    """``user`` uses ``used`` at ``line`` of its file."""

    user: str
    used: str
    line: int


def _layer(path: str, table: tuple[tuple[str, tuple[str, ...]], ...]) -> int:
    """The index in ``table`` of the layer whose patterns take ``path``.

    :raises KeyError: naming the file, if no layer or more than one takes it.
    """
    found = [i for i, (_, pats) in enumerate(table) if any(fnmatchcase(path, p) for p in pats)]
    if len(found) != 1:
        names = " and ".join(table[i][0] for i in found) or "no layer"
        raise KeyError(f"{path} is in {names} of arbiter.tools.layers (expected one)")
    return found[0]


def layer_of(path: str) -> int:
    """The index in :data:`LAYERS` of the layer of the module file ``path`` (inside
    the ``arbiter`` package).

    :raises KeyError: naming the file, if no layer or more than one takes it.

    >>> LAYERS[layer_of("games/votey/player.py")][0]
    'engines'
    >>> LAYERS[layer_of("play/series.py")][0]
    'play'
    """
    return _layer(path, LAYERS)


def game_of(path: str) -> str | None:
    """The game whose folder holds ``path``, or ``None`` for a file of no one game."""
    parts = path.split("/")
    return parts[1] if len(parts) > 2 and parts[0] == "games" else None


def modules(root: Path) -> dict[str, Path]:
    """Every module of the package in ``root`` (the folder holding ``arbiter``), by name;
    the starter kits (``games/*/kits``) are contestants' programs, not modules of it."""
    found: dict[str, Path] = {}
    for path in sorted((root / "arbiter").rglob("*.py*")):
        if path.suffix not in (".py", ".pyi") or {"__pycache__", "kits"} & set(path.parts):
            continue
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found.setdefault(".".join(parts), path)
    return found


def _named(node: ast.AST, name: str) -> str | None:
    """The text of a string literal, or of an f-string made of ``__name__`` and
    literals (the module's own name put in), else ``None``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        text = []
        for part in node.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                text.append(part.value)
            elif (
                isinstance(part, ast.FormattedValue)
                and isinstance(part.value, ast.Name)
                and part.value.id == "__name__"
            ):
                text.append(name)
            else:
                return None
        return "".join(text)
    return None


def uses(name: str, path: Path, known: dict[str, Path]) -> Iterator[Use]:
    """The uses of arbiter's own modules in the module ``name`` (its file ``path``):
    its imports, and the modules it names in strings."""
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
        elif (
            (text := _named(node, name)) is not None
            and text.startswith("arbiter.")
            and text in known
        ):
            targets = [text]
        else:
            continue
        for target in dict.fromkeys(targets):
            if target in known and target != name:
                yield Use(name, target, getattr(node, "lineno", 0))


_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\])*\"", re.S)
_DEFINED = re.compile(
    r"^(?!static\b|typedef\b|extern\b|#|return\b)[A-Za-z_][\w \t*]*?\b(\w+)\s*(?:\(|\[\]\s*=|=)",
    re.M,
)
_WORD = re.compile(r"\b[A-Za-z_]\w*\b")


def c_uses(csrc: Path) -> tuple[dict[str, Path], list[Use]]:
    """The compiled core's files by name and their uses of each other: a file uses
    another when it names a function or table defined there (not ``static``)."""
    files = {p.name: p for p in sorted(csrc.glob("*.c"))}
    texts = {n: _COMMENT.sub(" ", p.read_text()) for n, p in files.items()}
    owner: dict[str, str] = {}
    for n, text in texts.items():
        for m in _DEFINED.finditer(text):
            owner.setdefault(m.group(1), n)
    found: dict[tuple[str, str], int] = {}
    for n, text in texts.items():
        for lineno, line in enumerate(text.splitlines(), 1):
            for word in _WORD.findall(line):
                other = owner.get(word)
                if other is not None and other != n:
                    found.setdefault((n, other), lineno)
    return files, [Use(a, b, line) for (a, b), line in found.items()]


def circles(graph: Iterable[Use]) -> list[list[str]]:
    """The groups of modules that use each other in a circle (strongly connected
    components of more than one module, Tarjan's algorithm), each sorted."""
    edges: dict[str, set[str]] = {}
    for i in graph:
        edges.setdefault(i.user, set()).add(i.used)
        edges.setdefault(i.used, set())
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


def check_python(root: Path) -> list[str]:
    """The layering faults of the Python package in ``root``, one line each."""
    known = modules(root)
    where = {name: path.relative_to(root / "arbiter").as_posix() for name, path in known.items()}
    faults = []
    for name in known:
        try:
            layer_of(where[name])
        except KeyError as e:
            faults.append(str(e.args[0]))
    if faults:
        return faults
    graph = [u for name, path in known.items() for u in uses(name, path, known)]
    for u in graph:
        a, b = layer_of(where[u.user]), layer_of(where[u.used])
        at = f"{known[u.user].relative_to(root)}:{u.line}: {u.user}"
        if a < b:
            faults.append(f"{at} ({LAYERS[a][0]}) uses {u.used} ({LAYERS[b][0]}), a layer above it")
        mine, theirs = game_of(where[u.user]), game_of(where[u.used])
        if mine is not None and theirs is not None and mine != theirs:
            faults.append(f"{at} uses {u.used}, another game's module")
    for group in circles(graph):
        faults.append(f"modules use each other in a circle: {', '.join(group)}")
    return faults


def check_c(csrc: Path) -> list[str]:
    """The layering faults of the compiled core's sources in ``csrc``, one line each."""
    files, graph = c_uses(csrc)
    faults = []
    for name in files:
        try:
            _layer(name, C_LAYERS)
        except KeyError as e:
            faults.append(str(e.args[0]))
    if faults:
        return faults
    for u in graph:
        a, b = _layer(u.user, C_LAYERS), _layer(u.used, C_LAYERS)
        at = f"csrc/{u.user}:{u.line}"
        if a < b:
            faults.append(
                f"{at} ({C_LAYERS[a][0]}) uses csrc/{u.used} ({C_LAYERS[b][0]}), a layer above it"
            )
        elif a == b and C_LAYERS[a][0] in SIDEWAYS_REFUSED:
            faults.append(f"{at} uses csrc/{u.used}, another game's kernel")
    for group in circles(graph):
        faults.append(f"csrc files use each other in a circle: {', '.join(group)}")
    return faults


def check(root: Path) -> list[str]:
    """The layering faults of the package in ``root`` (the folder holding
    ``arbiter``), Python and C, one line each (none: all well)."""
    csrc = root / "arbiter" / "csrc"
    return check_python(root) + (check_c(csrc) if csrc.is_dir() else [])


def main() -> int:
    """Checks the installed package; prints each fault; returns the exit status."""
    root = Path(__file__).resolve().parents[2]
    faults = check(root)
    for line in faults:
        print(line)
    if not faults:
        c = len(list((root / "arbiter" / "csrc").glob("*.c")))
        print(
            f"{len(modules(root))} modules in {len(LAYERS)} layers and {c} C files in "
            f"{len(C_LAYERS)}: no upward use, no game using another, no circle"
        )
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
