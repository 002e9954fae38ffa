"""A program's own uid: taken for one game, and looked for leftovers only when needed.

Looking for what still runs under a uid reads every process of the machine. The
referee does it when it cannot know the answer: when the uid's last holder died
without letting it go, or when a run of the program ended without its cgroup seen
empty. A uid let go with nothing of it running is marked so in its lock file, and
the next holder takes it without looking.
"""

from __future__ import annotations

import asyncio
import os
import pwd
import shutil
import subprocess
import time
from collections.abc import Iterator

import pytest

from arbiter.errors import ConfigError
from arbiter.referee import uids as uids_module
from arbiter.referee.box import Box
from arbiter.referee.isolation import choose
from arbiter.referee.process import AgentProcess
from arbiter.referee.sandbox import Confinement, detect
from arbiter.referee.uids import lease_uid

from .test_isolation import need

ALONE = (
    "test_a_uid_whose_holder_died_is_swept_before_it_is_used_again",
    "test_a_uid_let_go_clean_is_taken_without_a_look",
)
"""The tests that take a uid of their own, each one of the last uids of the machine's
range: other tests' programs take the first free ones, and these run at once on
different workers."""


@pytest.fixture
def one_uid(request: pytest.FixtureRequest) -> range:
    """A range of one program uid, this test's alone (see :data:`ALONE`)."""
    need("own_uid")
    uid = detect().uids[-1 - ALONE.index(request.node.originalname)]
    return range(uid, uid + 1)


@pytest.fixture
def looks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The uids the referee looked through the machine's processes for."""
    seen: list[int] = []
    real = uids_module.kill_uid

    def counted(uid: int) -> bool:
        seen.append(uid)
        return real(uid)

    monkeypatch.setattr(uids_module, "kill_uid", counted)
    yield seen


def stray(uid: int) -> subprocess.Popen[bytes]:
    """A process running under ``uid`` outside any program's cgroup (what a program
    could leave behind if it escaped its walls, or its referee died)."""
    setpriv = shutil.which("setpriv")
    assert setpriv is not None
    process = subprocess.Popen(
        [setpriv, "--reuid", str(uid), "--regid", str(uid), "--clear-groups", "sleep", "60"],
        start_new_session=True,
    )
    deadline = time.monotonic() + 10
    while not uids_module._uid_of(process.pid, uid):  # until it has become ``uid``
        assert time.monotonic() < deadline, "the stray never took its uid"
        time.sleep(0.01)
    return process


def die_holding(lease: uids_module.UidLease) -> None:
    """What a referee killed outright does to its uid: the lock goes with the
    process, and nothing is written."""
    assert lease._fd is not None
    os.close(lease._fd)
    uids_module._HELD.discard(lease.uid)


def test_a_uid_whose_holder_died_is_swept_before_it_is_used_again(
    one_uid: range, looks: list[int]
) -> None:
    lease = lease_uid(one_uid)
    left = stray(lease.uid)
    try:
        die_holding(lease)
        again = lease_uid(one_uid)
        assert again.uid == lease.uid and looks[-1] == lease.uid
        assert left.wait(timeout=10) == -9  # killed before the uid was handed out
        again.release()
    finally:
        left.kill()
        left.wait()


def test_a_uid_let_go_clean_is_taken_without_a_look(one_uid: range, looks: list[int]) -> None:
    lease_uid(one_uid).release(empty=True)
    looks.clear()
    lease = lease_uid(one_uid)
    assert looks == []  # marked clean: nothing to look for
    lease.release()  # not known empty: looked for, then marked clean
    assert looks == [lease.uid]
    lease = lease_uid(one_uid)
    assert looks == [lease.uid]
    die_holding(lease)
    lease_uid(one_uid).release(empty=True)
    assert looks == [lease.uid, lease.uid]  # the mark went with the dead holder


def test_a_uid_an_account_of_the_machine_has_is_never_a_programs() -> None:
    """A program run as ``nobody`` (or any account) could reach that account's files
    and processes: a range that holds one skips it, and a range of nothing else is
    refused by name."""
    need("own_uid")
    accounts = {entry.pw_uid for entry in pwd.getpwall()}
    account = next(u for u in sorted(accounts) if u > 1000 and u + 1 not in accounts)
    lease = lease_uid(range(account, account + 2))
    try:
        assert lease.uid == account + 1
    finally:
        lease.release(empty=True)
    with pytest.raises(ConfigError, match=f"every program uid \\({account}-{account}\\)"):
        lease_uid(range(account, account + 1))


def box_with_a_run(*, cgroup: bool = True) -> tuple[Box, AgentProcess]:
    """A box behind every wall and a program to run in it (with or without a cgroup)."""
    need("own_uid", "namespaces", "cgroup")
    box = Box(choose("auto", detect()), argv=["/bin/cat"])
    run = AgentProcess(["/bin/cat"], box=box, cwd=box.path, confinement=Confinement(cgroup=cgroup))
    return box, run


async def run_to_end(process: AgentProcess) -> None:
    await process.start()
    await process.end(grace=0.1)


def test_a_box_whose_runs_ended_with_their_cgroups_empty_lets_its_uid_go_unlooked(
    looks: list[int],
) -> None:
    box, process = box_with_a_run()
    looks.clear()  # taking the uid may look, if a run killed outright held it last
    asyncio.run(run_to_end(process))
    uid = box.uid
    assert box.contained
    box.close()
    assert uid not in looks


@pytest.mark.parametrize("how", ["a run never seen to end", "a run without a cgroup"])
def test_a_box_that_cannot_know_its_uid_is_empty_sweeps_it(how: str, looks: list[int]) -> None:
    box, process = box_with_a_run(cgroup=how != "a run without a cgroup")
    uid = box.uid
    assert uid is not None

    async def play() -> None:
        await process.start()
        if how != "a run never seen to end":  # else: a referee stopped mid-game
            await process.end(grace=0.1)
        left = stray(uid)
        try:
            assert not box.contained
            box.close()
            assert uid in looks
            assert left.wait(timeout=10) == -9
        finally:
            left.kill()
            left.wait()
            await process.kill()

    asyncio.run(play())


@pytest.mark.skipif(os.geteuid() != 0, reason="the lock folder is root's")
def test_a_lock_folder_others_may_write_in_is_never_used(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    # anyone who may write in it could plant a lock and hold a uid out of use, or
    # swap a lock for a link: the folder must be root's and written by root alone
    shared = tmp_path_factory.mktemp("shared") / "uids"
    shared.mkdir(mode=0o777)
    shared.chmod(0o777)
    private = tmp_path_factory.mktemp("private") / "uids"
    monkeypatch.setattr(uids_module, "_LOCK_DIRS", (str(shared), str(private)))
    assert uids_module._lock_dir() == private
    private.chmod(0o770)  # writable by its group: no better
    temporary = tmp_path_factory.mktemp("tmp")
    (temporary / "arbiter-uids-0").mkdir(mode=0o777)
    (temporary / "arbiter-uids-0").chmod(0o777)  # made by another before the referee
    monkeypatch.setattr(uids_module.tempfile, "gettempdir", lambda: str(temporary))
    with pytest.raises(ConfigError, match="private folder"):
        uids_module._lock_dir()
