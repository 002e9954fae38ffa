"""The typed game contract: mypy rejects a game that misses or misspells part of it, and
the spec checks rule options."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from arbiter.errors import ConfigError
from arbiter.games import find_game

ROOT = Path(__file__).resolve().parent.parent

GOOD_NOTATION = (ROOT / "tests" / "fakegame" / "notation.py").read_text()
GOOD_PROTOCOL = (ROOT / "tests" / "fakegame" / "protocol.py").read_text()

SPEC_MODULE = """
from arbiter.contract import GameSpec, Loader, PlayerSide, RefereeSide
from brokengame import notation, protocol
from tests.fakegame import evaluate
from tests.fakegame.rules import Move, Race, State

SPEC: GameSpec[State, Move] = GameSpec(
    name="broken",
    title="Broken",
    seat_names=("up", "down"),
    rules=Race,
    notation=notation,
    contest=protocol,
    evaluation=evaluate,
    time_control=protocol.TIME_CONTROL,
    supervision=protocol.SUPERVISION,
    player_side=Loader("brokengame.protocol"),
    referee_side=Loader("brokengame.protocol"),
)
# as every game does: mypy holds the two sides of the protocol to the contract
_player: PlayerSide[State, Move] = protocol
_referee: RefereeSide[State, Move] = protocol
"""


def mypy_on(
    tmp_path: Path, notation: str, protocol: str, *packages: str
) -> subprocess.CompletedProcess[str]:
    """Runs ``mypy --strict`` on a game package made of the given modules (and on
    ``packages``)."""
    pkg = tmp_path / "brokengame"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "notation.py").write_text(notation)
    (pkg / "protocol.py").write_text(protocol)
    (pkg / "spec.py").write_text(SPEC_MODULE)
    env = dict(os.environ, MYPYPATH=os.pathsep.join([str(ROOT / "src"), str(ROOT), str(tmp_path)]))
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "-p",
            "brokengame",
            *(a for p in packages for a in ("-p", p)),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


def test_the_whole_test_game_meets_the_contract(tmp_path) -> None:
    done = mypy_on(tmp_path, GOOD_NOTATION, GOOD_PROTOCOL, "tests.fakegame")
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(
    ("module", "old", "new", "complaint"),
    [
        ("notation", "def draw_board(", "def draw_bord(", "draw_board"),
        (
            "notation",
            "def format_move(m: Move, *, seat: int)",
            "def format_move(m: Move)",
            "format_move",
        ),
        (
            "notation",
            "def parse_move(text: str, *, seat: int) -> Move:",
            "def parse_move(text: str, *, seat: int) -> str:",
            "parse_move",
        ),
        ("protocol", "def adjudicate(", "def adjudication(", "adjudicate"),
        ("protocol", "def serve(", "def serves(", "PlayerSide"),
        ("protocol", "def program_seat(", "def program_set(", "RefereeSide"),
        (
            "protocol",
            "def judge(game: Game[State, Move], s: State, text: str, *, seat: Player)",
            "def judge(game: Game[State, Move], s: State, text: str, *, seat: str)",
            "judge",
        ),
    ],
)
def test_mypy_rejects_a_game_that_breaks_the_contract(
    tmp_path, module, old, new, complaint
) -> None:
    notation, protocol = GOOD_NOTATION, GOOD_PROTOCOL
    if module == "notation":
        assert old in notation
        notation = notation.replace(old, new)
    else:
        assert old in protocol
        protocol = protocol.replace(old, new)
    done = mypy_on(tmp_path, notation, protocol)
    assert done.returncode == 1
    # the complaint is where the game is put together, naming the broken function
    at_spec = [line for line in done.stdout.splitlines() if line.startswith("brokengame/spec.py")]
    assert any(complaint in line for line in at_spec), done.stdout


def test_rule_options_are_checked_by_the_spec() -> None:
    spec = find_game("checkers")
    assert spec.make({"plain_draws": True, "max_plies": 50}).max_plies == 50  # type: ignore[attr-defined]
    with pytest.raises(ConfigError, match="has no rule option 'komi'"):
        spec.make({"komi": 6})
    with pytest.raises(ConfigError, match="'max_plies' must be at least 1"):
        spec.make({"max_plies": 0})
    with pytest.raises(ConfigError, match="'plain_draws' must be true or false"):
        spec.make({"plain_draws": "yes"})
    with pytest.raises(ConfigError, match="whole number"):
        spec.make({"max_plies": 2.5})
