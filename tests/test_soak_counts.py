"""The soak benchmark counts only what its own games leave behind: another referee's
game running on the machine meanwhile (its work directory in the system's temporary
folder) is not a leftover of the soak's."""

from __future__ import annotations

import importlib.util
import os
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

SOAK = Path(__file__).resolve().parents[1] / "benchmarks" / "soak.py"


def load_soak() -> ModuleType:
    spec = importlib.util.spec_from_file_location("soak_under_test", SOAK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_another_referees_game_is_not_counted_as_left(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    soak = load_soak()
    system = tempfile.gettempdir()
    monkeypatch.setattr(tempfile, "tempdir", tempfile.tempdir)  # restored after
    monkeypatch.setenv("TMPDIR", os.environ.get("TMPDIR", system))
    real = soak.run_series
    foreign: list[str] = []

    def beside_another_referee(*args: Any, **kwargs: Any) -> Any:
        # another referee on this machine starts a game while the soak runs
        foreign.append(tempfile.mkdtemp(prefix="arbiter-game-1-", dir=system))
        return real(*args, **kwargs)

    monkeypatch.setattr(soak, "run_series", beside_another_referee)
    try:
        soak.soak(120, 1, 1, 0, 1, "rlimits")
    finally:
        for folder in foreign:
            os.rmdir(folder)
    said = capsys.readouterr().out
    assert foreign and "work directories left: 0" in said, said
    assert "disks left mounted: 0" in said and "processes left: 0" in said
