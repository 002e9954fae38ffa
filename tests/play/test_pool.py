"""The worker pool's slots: a worker that replaces a dead one takes the free slot, so
with ``--pin`` the replacement runs on the dead worker's cores, not on a living one's."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

from arbiter.play.pool import WorkerPool
from arbiter.record import GameRecord
from arbiter.referee.events import EventSink, MovePlayed


def _start(folder: Path, slot: int) -> None:
    # written whole, then named: another worker's _slots never reads it half written
    part = folder / f"part-{os.getpid()}"
    part.write_text(str(slot))
    os.replace(part, folder / f"start-{os.getpid()}")


def _slots(folder: Path) -> list[int]:
    return sorted(int(p.read_text()) for p in folder.glob("start-*"))


def _play(folder: Path, job: Any, events: EventSink) -> GameRecord:
    """``die`` kills its worker the first time; ``wait`` keeps its worker busy until a
    third worker has started, so the dead one's replacement is spawned, not handed to it."""
    if job == "die" and not (folder / "died").exists():
        (folder / "died").touch()
        os._exit(1)
    if job == "wait":
        deadline = time.monotonic() + 60
        while len(_slots(folder)) < 3 and time.monotonic() < deadline:
            time.sleep(0.02)
    return job  # type: ignore[no-any-return]  # the pool hands it back as it is


def _forfeit(job: Any, moves: Sequence[MovePlayed], why: str) -> GameRecord:
    raise AssertionError(f"no game should be forfeited: {job} {why}")


def test_a_replacement_worker_takes_the_dead_workers_slot(tmp_path: Path) -> None:
    pool: WorkerPool[str] = WorkerPool(
        2, partial(_play, tmp_path), _forfeit, start=partial(_start, tmp_path), key=str
    )
    done = sorted(job for job, _ in pool.run(["die", "wait"], lambda event: None))
    assert done == ["die", "wait"]  # the dead worker's game played again, once
    assert (tmp_path / "died").exists()
    # slot 0 died and was taken again; slot 1 was alive all along and is not shared
    assert _slots(tmp_path) == [0, 0, 1]
