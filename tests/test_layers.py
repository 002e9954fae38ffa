"""The layering: no module uses a layer above its own or another game, none in a circle
(Python and C), and a contest program's side loads nothing of the referee."""

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
            "arbiter.clock (clock) uses arbiter.referee.seat (referee)",
        ),
        (  # the base is a ladder: the clock comes after the game, not before
            "game.py",
            "from arbiter.clock import Clock",
            "arbiter.game (game) uses arbiter.clock (clock)",
        ),
        (
            "games/halma/player.py",
            "    from arbiter.referee.file_seat import FileSeat",
            "arbiter.games.halma.player (engines) uses arbiter.referee.file_seat",
        ),
        (  # one game never uses another, even in the same layer
            "games/halma/rules.py",
            "from arbiter.games.chinese_checkers.rules import Move",
            "arbiter.games.halma.rules uses arbiter.games.chinese_checkers.rules, another game's",
        ),
        (  # a module named in a string is imported when it is called
            "referee/match.py",
            "LATE = Loader('arbiter.play.series')",
            "arbiter.referee.match (referee) uses arbiter.play.series (play)",
        ),
        (
            "games/votey/rules.py",
            "    importlib.import_module('arbiter.games.votey.player')",
            "arbiter.games.votey.rules (rules) uses arbiter.games.votey.player (engines)",
        ),
        ("record.py", "from arbiter import errors, game, record as _r", ""),
        (
            "contract/agent.py",
            "from arbiter.contract import spec",
            "circle: arbiter.contract.agent",
        ),
    ],
)
def test_an_upward_use_a_sideways_one_or_a_circle_is_named(
    tmp_path: Path, module: str, line: str, fault: str
) -> None:
    shutil.copytree(SRC / "arbiter", tmp_path / "arbiter", ignore=shutil.ignore_patterns("*.so"))
    path = tmp_path / "arbiter" / module
    if line.startswith(" "):  # inside a function: it counts too
        line = "def late():\n" + line
    path.write_text(path.read_text() + "\n" + line + "\n")
    faults = check(tmp_path)
    if fault:
        assert any(fault in f for f in faults), faults
    else:  # a name that is no module of arbiter's, or a use of a lower layer
        assert faults == []


@pytest.mark.parametrize(
    ("source", "line", "fault"),
    [
        (  # a kernel using the module's glue table: the old circle
            "halma.c",
            'int late(void) { return find_vt("votey") != 0; }',
            "csrc/halma.c:",
        ),
        ("votey.c", "int late2(void) { return HALMA_VT.state_size; }", "another game's kernel"),
        ("lists.c", "void late3(void) { votey_init(); }", "(lists and glue) uses csrc/votey.c"),
        ("glue.c", "void late4(void) { (void)SearcherType; }", "a layer above it"),
    ],
)
def test_the_compiled_core_is_layered_too(
    tmp_path: Path, source: str, line: str, fault: str
) -> None:
    shutil.copytree(SRC / "arbiter", tmp_path / "arbiter", ignore=shutil.ignore_patterns("*.so"))
    path = tmp_path / "arbiter" / "csrc" / source
    path.write_text(path.read_text() + "\n" + line + "\n")
    faults = check(tmp_path)
    assert any(fault in f for f in faults), faults


def test_a_file_in_no_layer_is_named(tmp_path: Path) -> None:
    shutil.copytree(SRC / "arbiter", tmp_path / "arbiter", ignore=shutil.ignore_patterns("*.so"))
    (tmp_path / "arbiter" / "stray.py").write_text("X = 1\n")
    (tmp_path / "arbiter" / "csrc" / "stray.c").write_text("int stray(void) { return 1; }\n")
    faults = check(tmp_path)
    assert "stray.py is in no layer of arbiter.tools.layers (expected one)" in faults
    assert "stray.c is in no layer of arbiter.tools.layers (expected one)" in faults


def test_the_check_runs_as_a_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "arbiter.tools.layers"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no upward use, no game using another, no circle" in done.stdout


def test_a_contest_program_loads_no_referee_and_no_process_library() -> None:
    """What ``arbiter agent`` imports for every game: the referee side, asyncio and
    psutil would cost every Halma move their start-up, as would the means of the
    faulty engine (threads, processes) and the browser's boards."""
    code = (
        "import sys\n"
        "from arbiter.cli import main\n"
        "from arbiter.cli.parser import build_parser\n"
        "from arbiter.games import GAME_NAMES, find_game\n"
        "for name in GAME_NAMES:\n"
        "    build_parser(['agent', name])\n"
        "    find_game(name).player_side()\n"
        "loaded = [m for m in sys.modules if m.startswith('arbiter.referee')\n"
        "          or m in ('arbiter.agents.faulty', 'arbiter.contract.layout')\n"
        "          or m.split('.')[0] in ('asyncio', 'psutil', 'sqlite3', 'rich')]\n"
        "print(' '.join(loaded))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == []
