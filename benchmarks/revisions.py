"""Before and after in one run: an earlier revision of arbiter built beside the working
tree, and a benchmark run against each in a process of its own.

Two compiled cores cannot be loaded into one Python process (both are
``arbiter._core``), so a benchmark given ``--against REV`` runs itself again in a
child process per side, with ``PYTHONPATH`` pointing at that side's package, and
prints the two sides' figures together. The sides take turns, each repeat, so a
machine whose speed drifts (a busy neighbour, a CPU's clock) touches both alike; the
best of the repeats is kept, as timeit does, since every disturbance only slows.

The earlier revision is taken from git (``git archive``) and built with pip into
``build/revisions/<commit>`` once; later runs reuse it. Raised: ``RevisionError`` with
git's or pip's last line where the revision is unknown or does not build.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "build" / "revisions"


class RevisionError(RuntimeError):
    """An earlier revision that could not be found or built."""


def _git(*args: str) -> bytes:
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True)
    if done.returncode != 0:
        last = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["failed"]
        raise RevisionError(f"git {' '.join(args)}: {last[0]}")
    return done.stdout


def built(revision: str) -> Path:
    """The folder to put on ``PYTHONPATH`` for ``revision``, its core built there."""
    commit = _git("rev-parse", "--verify", f"{revision}^{{commit}}").decode().strip()
    site = CACHE / commit
    if (site / "arbiter").is_dir():
        return site
    CACHE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
        source = Path(tmp) / "source"
        source.mkdir()
        archive = Path(tmp) / "source.tar"
        archive.write_bytes(_git("archive", "--format=tar", commit))
        with tarfile.open(archive) as tar:
            tar.extractall(source, filter="data")
        staged = Path(tmp) / "site"
        print(f"building {revision} ({commit[:10]}) into {site} ...", file=sys.stderr)
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "install",
                "--quiet",
                "--no-deps",
                "--target",
                str(staged),
                str(source),
            ],
            capture_output=True,
        )
        if done.returncode != 0 or not list((staged / "arbiter").glob("_core*.so")):
            last = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or [
                "no compiled core was built"
            ]
            raise RevisionError(f"{revision} does not build: {last[0]}")
        shutil.move(str(staged), site)
    return site


def run_side(script: Path, site: Path, args: list[str]) -> Any:
    """Runs ``script`` (given ``--json``) on the package in ``site``; its JSON output."""
    env = dict(os.environ, PYTHONPATH=str(site), PYTHONDONTWRITEBYTECODE="")
    done = subprocess.run(
        [sys.executable, str(script), "--json", *args], env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise RevisionError(f"{script.name} on {site}: {done.stderr.strip()[-400:]}")
    return json.loads(done.stdout)


def sides(script: Path, revision: str, args: list[str], repeat: int) -> tuple[Any, Any]:
    """The figures of ``script`` run on ``revision`` and on the working tree, each
    the list of runs (``repeat`` of them, alternating sides); says which cores ran."""
    before_site = built(revision)
    now_site = ROOT / "src"
    before: list[Any] = []
    now: list[Any] = []
    for turn in range(repeat):
        order = [(before_site, before), (now_site, now)]
        for site, into in order if turn % 2 == 0 else reversed(order):
            into.append(run_side(script, site, args))
    print(f"before: {revision}, {before[0]['core']}; after: working tree, {now[0]['core']}")
    return before, now
