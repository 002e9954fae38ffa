"""``--pin``: each program of a game on a core of its own, set before it starts (the
program's first look at its cores already sees one), and refused by name where the
machine has too few cores."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from arbiter.cli import main
from arbiter.host.kits import kits

CORES = sorted(os.sched_getaffinity(0))

SAYS_ITS_CORES = """import os, runpy, sys
print("cores", sorted(os.sched_getaffinity(0)), file=sys.stderr, flush=True)
runpy.run_path({kit!r}, run_name="__main__")
"""


@pytest.mark.skipif(len(CORES) < 2, reason="--pin needs two cores")
def test_each_program_runs_on_a_core_of_its_own_from_its_start(tmp_path: Path) -> None:
    kit = next(k for k in kits("votey") if k.language == "python")
    program = tmp_path / "cores.py"
    program.write_text(SAYS_ITS_CORES.format(kit=str(kit.folder / "main.py")))
    command = f"{sys.executable} {program}"
    logs = tmp_path / "logs"
    argv = ["match", "votey", command, command, "--games", "2", "--pin", "--log-dir", str(logs)]
    assert main(argv) == 0
    for game in ("game-0001", "game-0002"):
        said = {}
        for log in (logs / game).glob("*.log"):
            line = next(x for x in log.read_text().splitlines() if " e cores " in x)
            said[log.name[0]] = line.split(" e cores ", 1)[1]
        assert said == {"1": f"[{CORES[0]}]", "2": f"[{CORES[1]}]"}, said


def test_too_few_cores_for_the_games_at_once_are_named(
    capsys: pytest.CaptureFixture[str],
) -> None:
    many = len(CORES)  # two cores a game: as many games as cores need twice as many
    argv = ["match", "votey", "random", "random", "--pin", "--concurrency", str(many)]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert f"need {2 * many} cores, this process may use {len(CORES)}" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.skipif(len(CORES) < 2, reason="--pin needs two cores")
def test_a_machine_without_taskset_is_told_what_pinning_needs(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    real = shutil.which
    monkeypatch.setattr(
        shutil, "which", lambda name, *a, **k: None if name == "taskset" else real(name, *a, **k)
    )
    assert main(["match", "votey", "random", "random", "--pin"]) == 1
    err = capsys.readouterr().err
    assert "--pin needs taskset (util-linux) to set a program's cores" in err
    assert len(err.strip().splitlines()) == 1
