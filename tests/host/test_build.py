"""A build's output as the contestant reads it: whole when it is short, its first
64 KiB and a mark when a compiler floods."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from arbiter.host.build import MAX_LOG, build
from arbiter.host.languages import Language
from arbiter.referee.sandbox import detect


def printing(lines: int, status: int) -> Language:
    """A language whose compile step prints ``lines`` numbered lines of 60 characters,
    then exits with ``status``; its program is ``main``, copied as it is."""
    script = (
        f"import sys\\nfor i in range({lines}): print(f'line {{i:05d}} ' + 'x' * 49)\\n"
        f"sys.exit({status})"
    )
    return Language(
        key="talky",
        title="Talky",
        suffixes=(".txt",),
        compile=f'{{python}} -c "$(printf "{script}")" && cp main prog',
        run="./prog",
    )


def test_a_short_build_log_is_kept_whole(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main").write_text("#!/bin/sh\n")
    built = build(printing(3, 1), tmp_path / "src", tmp_path / "out", seconds=60, memory_mb=512)
    assert not built.ok
    assert built.log.splitlines() == [f"line {i:05d} " + "x" * 49 for i in range(3)]


def test_a_flooding_build_keeps_its_first_64_kib_and_says_it_was_cut(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main").write_text("#!/bin/sh\n")
    built = build(printing(5000, 1), tmp_path / "src", tmp_path / "out", seconds=60, memory_mb=512)
    assert not built.ok
    head, mark = built.log.rsplit("\n", 1)
    assert mark == "[output cut]"
    assert len(head) == MAX_LOG == 64 * 1024
    printed = "\n".join(f"line {i:05d} " + "x" * 49 for i in range(5000))
    assert head == printed[:MAX_LOG]


def language(compile: str | None) -> Language:
    """A language whose compile step is ``compile`` and whose program is ``prog``."""
    return Language(key="plain", title="Plain", suffixes=(".sh",), compile=compile, run="./prog")


def test_a_build_that_outlives_its_seconds_fails_and_leaves_nothing_running(
    tmp_path: Path,
) -> None:
    """A compiler that never ends is stopped at the build's seconds, its children with
    it (the suite's end checks that nothing it started still runs), and said so."""
    (tmp_path / "src").mkdir()
    hanging = language("sleep 300 & sleep 300; cp main prog")
    built = build(hanging, tmp_path / "src", tmp_path / "out", seconds=1, memory_mb=512)
    assert not built.ok and built.problem == "the build took over 1 s"
    assert not (tmp_path / "out").exists()


def test_a_build_is_judged_by_its_exit_code_and_by_the_program_it_made(tmp_path: Path) -> None:
    """A failing compiler fails the build with its exit code; one that succeeds
    without making the program its run command starts fails by naming it; a build
    that makes it leaves it executable; a language with nothing to build copies the
    sources as they are and needs the program among them."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main").write_text("#!/bin/sh\necho 1\n")
    failed = build(language("exit 3"), tmp_path / "src", tmp_path / "a", seconds=60, memory_mb=512)
    assert not failed.ok and failed.problem == "the build failed (exit code 3)"
    none = build(language("true"), tmp_path / "src", tmp_path / "b", seconds=60, memory_mb=512)
    assert not none.ok and none.problem == "the build made no 'prog'"
    made = build(
        language("cp main prog"), tmp_path / "src", tmp_path / "c", seconds=60, memory_mb=512
    )
    assert made.ok and made.problem == ""
    assert (tmp_path / "c" / "prog").stat().st_mode & 0o111 == 0o111
    plain = build(language(None), tmp_path / "src", tmp_path / "d", seconds=60, memory_mb=512)
    assert not plain.ok and plain.problem == "the build made no 'prog'"
    # a run command that starts the program through another (sh ./prog) needs it too
    wrapped = Language(key="sh", title="Sh", suffixes=(".sh",), compile="true", run="sh ./prog")
    none = build(wrapped, tmp_path / "src", tmp_path / "w", seconds=60, memory_mb=512)
    assert not none.ok and none.problem == "the build made no 'prog'"
    (tmp_path / "src" / "prog").write_text("#!/bin/sh\necho 1\n")
    (tmp_path / "src" / "prog").chmod(0o644)
    copied = build(language(None), tmp_path / "src", tmp_path / "e", seconds=60, memory_mb=512)
    assert copied.ok and (tmp_path / "e" / "prog").read_text() == "#!/bin/sh\necho 1\n"
    assert (tmp_path / "e" / "prog").stat().st_mode & 0o111 == 0o111


@pytest.mark.skipif(
    not detect().network_namespaces, reason="network namespaces need root and unshare"
)
def test_a_build_reaches_no_network(tmp_path: Path) -> None:
    """A contestant's build runs behind the walls its program runs behind: it cannot
    fetch from, or send the sources to, anywhere (not even this machine's loopback)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main").write_text("#!/bin/sh\necho 1\n")
    (tmp_path / "src" / "reach.py").write_text(
        "import socket\n"
        "try:\n"
        f"    socket.create_connection(('127.0.0.1', {port}), timeout=2)\n"
        "    print('network connected')\n"
        "except OSError:\n"
        "    print('network cut off')\n"
    )
    reaching = language("{python} reach.py && cp main prog")
    built = build(reaching, tmp_path / "src", tmp_path / "out", seconds=60, memory_mb=512)
    server.close()
    assert built.ok and built.log.splitlines() == ["network cut off"]
