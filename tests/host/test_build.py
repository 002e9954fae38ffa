"""A build's output as the contestant reads it: whole when it is short, its first
64 KiB and a mark when a compiler floods."""

from __future__ import annotations

from pathlib import Path

from arbiter.host.build import MAX_LOG, build
from arbiter.host.languages import Language


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
