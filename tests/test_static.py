"""The source stays ruff-clean and passes ``mypy --strict``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *argv], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_ruff_clean() -> None:
    done = run("ruff", "check", "--output-format", "concise", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict() -> None:
    done = run("mypy", "--strict", "src")
    assert done.returncode == 0, done.stdout + done.stderr
