"""``arbiter kit GAME LANGUAGE [DIR]``: a game's starter program, the first step of a
contestant's first hour.

Without ``DIR`` the kit's one source file goes to standard output (``arbiter kit votey
python > main.py``); with it, the kit's files are written into ``DIR`` (made if need
be; a file already there is never overwritten), with the game's rules and protocol
as its folder writes them for contestants (``RULES.md``, what a contest page shows).
Either way the lines that build and run it, as a contest server does, go to standard
error, so a redirected source stays clean.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any

from arbiter.errors import ConfigError

RULES = "RULES.md"
"""The name a kit's copy of the game's rules and protocol takes."""


def add_parser(sub: Any) -> None:
    """Adds ``kit`` to the ``arbiter`` parser's subcommands."""
    k = sub.add_parser(
        "kit",
        help="write a game's starter program (C, C++, Python, Java or Rust) and how to build it",
    )
    k.add_argument("game", metavar="GAME")
    k.add_argument("language", metavar="LANGUAGE", help="c, cpp, python, java or rust")
    k.add_argument("dir", nargs="?", metavar="DIR", help="write the kit's files here")


def cmd_kit(args: argparse.Namespace) -> int:
    """Writes the kit; one line names a game, language or file that is wrong.

    :raises ConfigError: for a game without kits, a language it has none in, a kit
        of several files without ``DIR``, or a ``DIR`` that cannot take the files.
    """
    from arbiter.games import find_game, game_names
    from arbiter.host.kits import kits
    from arbiter.host.languages import LANGUAGES

    if args.game not in game_names():
        raise ConfigError(f"unknown game {args.game!r}: expected one of {', '.join(game_names())}")
    found = {k.language: k for k in kits(args.game)}
    if not found:
        raise ConfigError(f"{args.game} has no starter kits")
    kit = found.get(args.language)
    if kit is None:
        raise ConfigError(
            f"no {args.game} kit in {args.language!r}: expected one of {', '.join(found)}"
        )
    language = LANGUAGES[kit.language]
    if args.dir is None:
        if len(kit.files) != 1:
            raise ConfigError(f"the {args.language} kit has {len(kit.files)} files: give a DIR")
        sys.stdout.write((kit.folder / kit.files[0]).read_text(encoding="utf-8"))
        sys.stdout.flush()
        where, name = ".", kit.files[0]
        print(f"# save as: {name}", file=sys.stderr)
    else:
        target = Path(args.dir)
        files = {n: kit.folder / n for n in kit.files}
        guide = find_game(args.game).guide
        if guide is not None and RULES not in files:
            files[RULES] = guide
        there = [n for n in files if (target / n).exists()]
        if there:
            raise ConfigError(f"{target / there[0]} exists: choose an empty DIR")
        try:
            target.mkdir(parents=True, exist_ok=True)
            for n, source in files.items():
                (target / n).write_bytes(source.read_bytes())
        except OSError as e:
            raise ConfigError(f"cannot write the kit into {str(target)!r}: {e.strerror}") from None
        where, name = str(target), kit.files[0]
        print(f"wrote {', '.join(files)} into {target}", file=sys.stderr)
    for line in build_lines(language.compile, language.run, where, name, kit.language):
        print(line, file=sys.stderr)
    return 0


def build_lines(compile_: str | None, run: str, where: str, name: str, key: str) -> list[str]:
    """How to build and run a kit as a contest server does (``{python}`` as
    ``python3``), and how to check it, each a line starting with ``#``."""
    from arbiter.host.languages import shown

    go = "" if where == "." else f"cd {shlex.quote(where)} && "
    lines = []
    if compile_ and key != "python":
        lines.append(f"# build: {go}{shown(compile_)}")
    program = shown(run).replace("main.py", name) if key == "python" else shown(run)
    lines.append(f"# run:   {go}{program}")
    return lines
