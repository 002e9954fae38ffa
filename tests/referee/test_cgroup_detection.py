"""Which cgroups the referee finds, on machines other than this one: the mounts, the
referee's own cgroup and the folders it may write are set up here, so each kind of
machine (unified, hybrid, v1 only, none) is judged as it would be there."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbiter.referee import sandbox

V1 = [
    ("/sys/fs/cgroup/cpu,cpuacct", "cgroup", {"rw", "cpu", "cpuacct"}),
    ("/sys/fs/cgroup/memory", "cgroup", {"rw", "memory"}),
    ("/sys/fs/cgroup/pids", "cgroup", {"rw", "pids"}),
]
OWN = {"": "/user.slice/me", "cpuacct": "/me", "memory": "/me", "pids": "/me"}


def machine(
    monkeypatch: pytest.MonkeyPatch,
    mounts: list[tuple[str, str, set[str]]],
    writable: set[str] | None = None,
) -> None:
    monkeypatch.setattr(sandbox, "_mounts", lambda: mounts)
    monkeypatch.setattr(sandbox, "_own_cgroups", lambda: OWN)
    monkeypatch.setattr(
        sandbox, "_writable_dir", lambda path: writable is None or str(path) in writable
    )


def test_a_unified_hierarchy_gives_the_referees_own_cgroup_as_parent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    machine(monkeypatch, [("/proc", "proc", {"rw"}), ("/sys/fs/cgroup", "cgroup2", {"rw"})])
    assert sandbox._cgroups("") == (
        "cgroup v2",
        (("unified", "/sys/fs/cgroup/user.slice/me"),),
    )


def test_a_hybrid_machine_uses_its_v1_controllers_unless_told_v2(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hybrid = [*V1, ("/sys/fs/cgroup/unified", "cgroup2", {"rw"})]
    machine(monkeypatch, hybrid)
    kind, parents = sandbox._cgroups("")
    assert kind == "cgroup v1"
    assert dict(parents) == {
        "cpuacct": "/sys/fs/cgroup/cpu,cpuacct/me",
        "memory": "/sys/fs/cgroup/memory/me",
        "pids": "/sys/fs/cgroup/pids/me",
    }  # no freezer mounted: the one controller left out
    assert sandbox._cgroups("v2") == (
        "cgroup v2",
        (("unified", str(Path("/sys/fs/cgroup/unified/user.slice/me"))),),
    )
    assert sandbox._cgroups("rlimits") == ("rlimits", ())


def test_cgroups_the_referee_may_not_write_are_none(monkeypatch: pytest.MonkeyPatch) -> None:
    machine(monkeypatch, [("/sys/fs/cgroup", "cgroup2", {"rw"})], writable=set())
    assert sandbox._cgroups("") == ("rlimits", ())
    # v1 without the CPU controller cannot charge a program: no cgroups
    machine(monkeypatch, V1[1:], writable={"/sys/fs/cgroup/memory/me"})
    assert sandbox._cgroups("v1") == ("rlimits", ())
