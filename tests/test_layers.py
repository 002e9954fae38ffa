"""The layering: no module imports from a layer above its own, none in a circle, and a
contest program's side loads nothing of the referee."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arbiter.tools.layers import check

SRC = Path(__file__).resolve().parent.parent / "src"


def test_no_module_imports_from_a_layer_above_or_in_a_circle() -> None:
    assert check(SRC) == []


@pytest.mark.parametrize(
    ("module", "line", "fault"),
    [
        (
            "clock.py",
            "from arbiter.referee.seat import LocalSeat",
            "arbiter.clock (base) imports arbiter.referee.seat (referee)",
        ),
        (
            "games/halma/player.py",
            "    from arbiter.referee.file_seat import FileSeat",
            "arbiter.games.halma.player (engines) imports arbiter.referee.file_seat",
        ),
        ("game.py", "from arbiter import record", "circle: arbiter.game, arbiter.record"),
    ],
)
def test_an_upward_import_or_a_circle_is_named(tmp_path: Path, module, line, fault) -> None:
    shutil.copytree(SRC / "arbiter", tmp_path / "arbiter", ignore=shutil.ignore_patterns("*.so"))
    path = tmp_path / "arbiter" / module
    if line.startswith(" "):  # inside a function: it counts too
        line = "def late():\n" + line
    path.write_text(path.read_text() + "\n" + line + "\n")
    faults = check(tmp_path)
    assert any(fault in f for f in faults), faults


def test_a_contest_program_loads_no_referee_and_no_process_library() -> None:
    """What ``arbiter agent`` imports for every game: the referee side, asyncio and
    psutil would cost every Halma move their start-up, as would the means of the
    faulty engine (threads, processes) and the browser's boards."""
    code = (
        "import sys\n"
        "from arbiter.cli import main\n"
        "from arbiter.cli.options import build_parser\n"
        "from arbiter.games import GAME_NAMES, find_game\n"
        "for name in GAME_NAMES:\n"
        "    build_parser(['agent', name])\n"
        "    find_game(name).player_side()\n"
        "loaded = [m for m in sys.modules if m.startswith('arbiter.referee')\n"
        "          or m in ('arbiter.agents.faulty', 'arbiter.layout')\n"
        "          or m.split('.')[0] in ('asyncio', 'psutil', 'sqlite3', 'rich')]\n"
        "print(' '.join(loaded))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == []
