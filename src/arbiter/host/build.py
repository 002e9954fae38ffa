"""A submission's build: its language's compile command run on a copy of its sources,
behind the same walls as play (its own uid and namespaces where the host has them,
no network, a memory, process and wall-time limit), and what it made kept.

Compilers are programs too: a source file can ask the compiler for ``/etc/shadow``
(``#include``), a build script can try the network or fork without end. The build
sees what a playing program sees and nothing more; the folder it leaves (regular
files and folders only, never a link it made) becomes the program's own directory.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from arbiter.errors import ArbiterError
from arbiter.host.languages import Language
from arbiter.referee.box import Box
from arbiter.referee.isolation import choose
from arbiter.referee.process import AgentProcess
from arbiter.referee.sandbox import Confinement
from arbiter.referee.supervision import program_environment

MAX_LOG = 64 * 1024
"""The most characters of a build's output kept (a compiler's errors on a long file
are long; a flood is cut)."""


@dataclass(frozen=True, slots=True)
class BuildResult:
    """``ok`` if the compile command exited with 0 and the program it should start
    exists; ``log`` is what it printed, ``problem`` one line saying why not."""

    ok: bool
    log: str
    seconds: float
    problem: str = ""


def build(
    language: Language,
    source: Path,
    target: Path,
    *,
    seconds: float,
    memory_mb: int,
    disk_mb: int = 1024,
    isolation: str = "auto",
    output: OutputLimit | None = None,
) -> BuildResult:
    """Builds the sources in ``source`` into the new folder ``target``; a build that
    leaves more than ``output`` allows fails (nothing is copied).

    :raises ConfigError: for an isolation level the host cannot give.
    """
    return asyncio.run(
        _build(language, source, target, seconds, memory_mb, disk_mb, isolation, output)
    )


@dataclass(frozen=True, slots=True)
class OutputLimit:
    """The most a build may leave: bytes of regular files, and entries."""

    megabytes: int = 64
    files: int = 2000

    def exceeded_by(self, root: Path) -> str:
        """Why the tree at ``root`` is over the limit ("" if it is not). Sizes are
        the files' lengths, holes included: a sparse file is sent whole."""
        size, count = 0, 0
        for folder, dirs, files in os.walk(root, followlinks=False):
            count += len(dirs) + len(files)
            for name in files:
                with contextlib.suppress(OSError):
                    size += os.lstat(os.path.join(folder, name)).st_size
            if count > self.files:
                return f"the build left over {self.files} files (limits.build_files)"
            if size > self.megabytes << 20:
                return (
                    f"the build left over {self.megabytes} MB "
                    f"({size / (1 << 20):.0f} MB so far; limits.build_mb)"
                )
        return ""


async def _build(
    language: Language,
    source: Path,
    target: Path,
    seconds: float,
    memory_mb: int,
    disk_mb: int,
    isolation: str,
    output: OutputLimit | None,
) -> BuildResult:
    command, run = language.commands()
    if command is None:
        _copy_plain(source, target)
        return _check_made(language, run, target, "", 0.0)
    walls = choose(isolation)
    shell = ["/bin/sh", "-c", f"exec 1>&2\n{command}"]
    box = Box(
        walls,
        own_dir=str(source),
        argv=shell,
        expose=language.exposed(),
        name="build",
        disk_limit=disk_mb << 20,
    )
    log: list[str] = []
    size = 0

    def keep(line: str) -> None:
        nonlocal size
        if size < MAX_LOG:
            log.append(line[: MAX_LOG - size])
            size += len(line) + 1

    confinement = Confinement(
        memory_limit=memory_mb << 20,
        max_processes=128,
        network=False,
        single_process=False,
        cgroup=walls.cgroup,
        disk_limit=disk_mb << 20,
    )
    process = AgentProcess(
        shell,
        name="build",
        cwd=box.path,
        stdin=False,
        env=program_environment(box.path, folders=language.folders()),
        confinement=confinement,
        on_stderr=keep,
        box=box,
    )
    started = time.monotonic()
    try:
        await process.start()
        code = await process.wait(timeout=seconds)
        took = time.monotonic() - started
        if code is None:
            await process.kill()
            return BuildResult(False, _text(log), took, f"the build took over {seconds:.0f} s")
        await process.kill()  # what it left running
        await asyncio.sleep(0)  # the last lines of its output
        if process.memory_exceeded():
            why = f"the build went over its {memory_mb} MB memory limit"
            return BuildResult(False, _text(log), took, why)
        if code != 0:
            return BuildResult(False, _text(log), took, f"the build failed (exit code {code})")
        if output is not None and (too_big := output.exceeded_by(Path(box.path))):
            return BuildResult(False, _text(log), took, too_big)
        _copy_plain(Path(box.path), target)
    except ArbiterError as e:
        return BuildResult(False, _text(log), time.monotonic() - started, str(e))
    finally:
        box.close()
    return _check_made(language, run, target, _text(log), took)


def _check_made(language: Language, run: str, target: Path, log: str, took: float) -> BuildResult:
    """Fails a build that did not make the file its run command starts."""
    words = shlex.split(run)
    for word in words[:2]:
        if word.startswith("./"):
            made = target / word[2:]
            if not made.is_file():
                return BuildResult(False, log, took, f"the build made no {word[2:]!r}")
            made.chmod(0o755)
    return BuildResult(True, log, took)


def _copy_plain(source: Path, target: Path) -> None:
    """Copies the regular files and folders of ``source`` into the new ``target``;
    links and special files a build left are not copied."""
    target.mkdir(parents=True)
    for root, dirs, files in os.walk(source, followlinks=False):
        rel = Path(root).relative_to(source)
        for d in dirs:
            if not os.path.islink(os.path.join(root, d)):
                (target / rel / d).mkdir(exist_ok=True)
        for f in files:
            path = os.path.join(root, f)
            if os.path.isfile(path) and not os.path.islink(path):
                shutil.copyfile(path, target / rel / f)
                mode = os.stat(path).st_mode & 0o755
                os.chmod(target / rel / f, mode | 0o644)


def _text(log: list[str]) -> str:
    text = "\n".join(log)
    return text + ("\n[output cut]" if len(text) >= MAX_LOG else "")
