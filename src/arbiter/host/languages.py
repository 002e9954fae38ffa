"""The languages a contest builds, as commands: how a submission is compiled and how the
built program is started.

A language is data, so an organiser adds one (or changes one) in the contest file's
``[languages.KEY]`` table without touching code. Commands run in the submission's
folder through ``/bin/sh -c``, behind the same walls as play; ``{python}`` stands for
the host's own Python (the one every wall lets a program read), ``{rustc}`` for the
Rust compiler of the host's toolchain. A language is offered only where the host has
every tool its commands name (:func:`available`).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from functools import cache

from arbiter.referee.box import command_folders


@dataclass(frozen=True, slots=True)
class Language:
    """``compile`` is ``None`` for a language with nothing to build (a Linux binary);
    ``main`` is the name a single uploaded file is stored under; ``expose`` are folders
    outside the system's that its tools need to read (a toolchain in a home folder)."""

    key: str
    title: str
    suffixes: tuple[str, ...]
    compile: str | None
    run: str
    expose: tuple[str, ...] = ()
    main: str = "main"

    def commands(self) -> tuple[str | None, str]:
        """The compile and run commands with their placeholders filled in."""
        return None if self.compile is None else fill(self.compile), fill(self.run)

    def exposed(self) -> tuple[str, ...]:
        """The folders its tools need, the Rust toolchain's included."""
        extra = (_rustc()[1],) if "{rustc}" in (self.compile or "") and _rustc()[1] else ()
        return self.expose + extra

    def folders(self) -> list[str]:
        """The folders of the tools its commands start, for their ``PATH`` (a tool
        outside the system's folders is found only so)."""
        return list(dict.fromkeys(f for tool in self.tools() for f in command_folders(tool, None)))

    def tools(self) -> list[str]:
        """The programs its commands start (each command's first word)."""
        out = []
        for command in self.commands():
            if command:
                words = shlex.split(command)
                if words and not words[0].startswith("./"):
                    out.append(words[0])
        return out


LANGUAGES: dict[str, Language] = {
    language.key: language
    for language in (
        Language(
            "c",
            "C (gcc, C17)",
            (".c",),
            "gcc -O2 -std=gnu17 -o player *.c -lm",
            "./player",
            main="main.c",
        ),
        Language(
            "cpp",
            "C++ (g++, C++17)",
            (".cpp", ".cc", ".cxx"),
            "g++ -O2 -std=gnu++17 -o player $(ls *.cpp *.cc *.cxx 2>/dev/null)",
            "./player",
            main="main.cpp",
        ),
        Language(
            "python",
            "Python 3",
            (".py",),
            "{python} -m py_compile main.py",
            "{python} main.py",
            main="main.py",
        ),
        Language(
            "java",
            "Java (OpenJDK)",
            (".java",),
            "javac -encoding UTF-8 -d . *.java",
            "java -Xss64m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp . Main",
            main="Main.java",
        ),
        Language(
            "rust",
            "Rust (rustc -O)",
            (".rs",),
            "{rustc} -O -o player main.rs",
            "./player",
            main="main.rs",
        ),
        Language("binary", "Linux binary (x86-64 ELF)", ("",), None, "./player", main="player"),
    )
}
"""The languages every contest offers where the host has their tools."""


def fill(command: str) -> str:
    """``command`` with ``{python}`` and ``{rustc}`` made this machine's: a worker fills
    in a run command with its own Python, not the server's."""
    values = {"python": shlex.quote(sys.executable), "rustc": shlex.quote(_rustc()[0])}
    return command.replace("{python}", values["python"]).replace("{rustc}", values["rustc"])


def shown(command: str | None) -> str:
    """``command`` as the contest names it to its entrants (``{python}`` shown as
    ``python3``): the contest page's, and a program's transcripts, never a machine's
    paths."""
    return (command or "").replace("{python}", "python3").replace("{rustc}", "rustc")


def available(language: Language) -> bool:
    """Whether the host has every tool ``language``'s commands start."""
    return all(_found(tool) for tool in language.tools())


def _found(tool: str) -> bool:
    if os.sep in tool:
        return os.access(tool, os.X_OK)
    return shutil.which(tool) is not None


@cache
def _rustc() -> tuple[str, str]:
    """The Rust compiler inside the host's toolchain and the toolchain's folder (a
    rustup proxy in a home folder cannot run behind the walls; the compiler it stands
    for can, with its toolchain exposed). ``("rustc", "")`` where there is none."""
    rustc = shutil.which("rustc")
    if rustc is None:
        return "rustc", ""
    try:
        sysroot = subprocess.run(
            [rustc, "--print", "sysroot"], capture_output=True, text=True, timeout=30, check=True
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "rustc", ""
    real = os.path.join(sysroot, "bin", "rustc")
    return (real, sysroot) if os.access(real, os.X_OK) else ("rustc", "")
