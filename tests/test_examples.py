"""The learned checkers player (``examples/``), in under half a minute: the training script's
whole loop at a small size (random games through the batched environments, a fit,
one self-play round), a value that has learnt what a checkers player must, and its
program through the contest's own gate."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from arbiter import core
from arbiter.games import find_game

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

pytestmark = pytest.mark.skipif(not core.available(), reason="the compiled core is not built")


@pytest.fixture(scope="module")
def weights(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("learned") / "value.npz"
    done = subprocess.run(
        [
            sys.executable,
            str(EXAMPLES / "train_checkers.py"),
            *("--minutes", "0.2", "--random-games", "800", "--rounds", "1"),
            *("--gate-games", "2", "--processes", "1", "--out", str(out)),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "random games:" in done.stdout
    assert re.search(r"self-play round 1: .* scored [\d.]+/2 .*: (kept|refused)", done.stdout)
    return out


def _value_of(weights: Path, text: str) -> float:
    sys.path.insert(0, str(EXAMPLES))
    try:
        from learned_checkers import LearnedEvaluation
    finally:
        sys.path.remove(str(EXAMPLES))
    position = find_game("checkers").notation.parse_position(text)
    return LearnedEvaluation.load(weights).value(position)


def test_the_learned_value_prefers_the_side_with_more_pieces(weights: Path) -> None:
    # a label of the wrong sign, or one seat's results given to the other, would learn
    # the opposite: the side to move a man up scores above the same side a man down
    with np.load(weights) as saved:
        assert saved["weights"].shape == (8 * 8 * 3,)
    spec = find_game("checkers")
    start = spec.notation.format_position(spec.make().initial())
    rows, side = start.split()  # the contest's board code: 1 red, 2 white; red to move
    assert side == "1"
    up = rows.replace("2", "0", 1)  # a white man gone
    down = rows.replace("1", "0", 1)  # a red man gone
    assert _value_of(weights, f"{up} 1") > _value_of(weights, f"{down} 1")
    assert _value_of(weights, f"{down} 2") > _value_of(weights, f"{up} 2")


def test_the_learned_program_passes_check_agent(weights: Path) -> None:
    program = f"{sys.executable} {EXAMPLES / 'learned_checkers.py'} --weights {weights}"
    done = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "check-agent", "checkers", program],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "all checks passed" in done.stdout


def test_a_missing_weights_file_is_one_line() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "learned_checkers.py"), "--weights", "/nowhere.npz", "1"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "cannot read weights /nowhere.npz" in done.stderr
