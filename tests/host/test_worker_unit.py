"""A worker's own judgement of a job before it plays: a program too large to fetch
is its program's fault, a job without a packed program is nobody's."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbiter.host.wire import Player
from arbiter.host.worker import MAX_PROGRAM, Unplayable, Worker


def player(**change: object) -> Player:
    fields: dict[str, object] = {
        "version": 7,
        "program": "a" * 64,
        "size": 1000,
        "name": "alice v1",
        "language": "c",
    }
    return Player.model_validate({**fields, **change})


def test_a_program_too_large_is_its_seats_fault_and_never_fetched(tmp_path: Path) -> None:
    worker = Worker("http://127.0.0.1:9", "c0ffee.secret", tmp_path)  # nothing listens there
    with pytest.raises(Unplayable, match="over the worker's") as refused:
        worker.program(1, player(size=MAX_PROGRAM + 1))
    assert refused.value.culprit == 1
    with pytest.raises(Unplayable, match="no packed program") as missing:
        worker.program(0, player(program=None, size=None))
    assert missing.value.culprit is None
    assert not (tmp_path / "programs").exists()  # nothing was fetched


def test_a_worker_keeps_its_results_apart_per_contest_and_name(tmp_path: Path) -> None:
    one = Worker("http://a:1", "c0ffee.secret", tmp_path, name="lab/7")
    two = Worker("http://a:1", "beef.secret", tmp_path, name="lab/7")
    assert one.spool != two.spool and one.spool.parent == tmp_path / "results"
    assert "/" not in one.spool.name.removeprefix("c0ffee-")
