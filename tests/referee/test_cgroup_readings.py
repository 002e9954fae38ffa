"""What a program's cgroup reads and writes, in both versions, from folders laid out
as the kernel lays them out: the CPU time that charges a move, the memory that rules
on the limit, the kernel's out-of-memory kill, and a controller that is missing (its
measure is None, so the referee falls back to the process's own times, never to 0)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbiter.referee.cgroups import Cgroup


def folder(path: Path, files: dict[str, str]) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (path / name).write_text(text)
    return path


def readings(group: Cgroup) -> tuple[float | None, int | None, bool]:
    """What the cgroup's files say (read from files laid out here, not measured)."""
    return group.cpu_time(), group.memory(), group.oom_killed()


def test_a_unified_cgroup_reads_its_cpu_time_memory_and_oom_kill(tmp_path: Path) -> None:
    d = folder(
        tmp_path,
        {
            "cpu.stat": "usage_usec 2500000\nuser_usec 2000000\nsystem_usec 500000\n",
            "memory.stat": "anon 4096\nfile 999999\nanon_thp 8192\n",
            "memory.events": "low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n",
        },
    )
    cpu, memory, killed = readings(Cgroup(2, {"unified": d}))
    assert cpu == pytest.approx(2.5)
    assert memory == 4096  # anonymous memory only, not the page cache
    assert killed


def test_a_v1_cgroup_reads_each_measure_from_its_own_controller(tmp_path: Path) -> None:
    group = Cgroup(
        1,
        {
            "cpuacct": folder(tmp_path / "cpuacct", {"cpuacct.usage": "1500000000\n"}),
            "memory": folder(
                tmp_path / "memory",
                {
                    "memory.stat": "cache 1\nrss 5\ntotal_rss 100\ntotal_rss_huge 20\n",
                    "memory.oom_control": "oom_kill_disable 0\nunder_oom 0\noom_kill 0\n",
                },
            ),
        },
    )
    cpu, memory, killed = readings(group)
    assert cpu == pytest.approx(1.5)
    assert memory == 120
    assert not killed  # a count of 0 is no kill


@pytest.mark.parametrize("version", [1, 2])
def test_a_missing_controller_measures_nothing_rather_than_zero(
    tmp_path: Path, version: int
) -> None:
    assert readings(Cgroup(version, {})) == (None, None, False)
    empty = Cgroup(version, {"unified": tmp_path, "cpuacct": tmp_path, "memory": tmp_path})
    assert readings(empty) == (None, None, False)  # the controller's folder, not its file


def test_a_cpu_stat_without_its_usage_line_measures_nothing(tmp_path: Path) -> None:
    group = Cgroup(2, {"unified": folder(tmp_path, {"cpu.stat": "user_usec 7\n"})})
    assert readings(group)[0] is None


def test_limits_are_written_where_each_version_keeps_them(tmp_path: Path) -> None:
    unified = folder(tmp_path / "v2", {"memory.max": "", "memory.swap.max": "", "pids.max": ""})
    Cgroup(2, {"unified": unified}).limit(memory=1 << 20, processes=7)
    assert (unified / "memory.max").read_text() == str(1 << 20)
    assert (unified / "memory.swap.max").read_text() == "0"  # no way around it by swap
    assert (unified / "pids.max").read_text() == "7"
    v1_memory = folder(tmp_path / "memory", {"memory.limit_in_bytes": ""})
    v1_pids = folder(tmp_path / "pids", {"pids.max": ""})
    Cgroup(1, {"memory": v1_memory, "pids": v1_pids}).limit(memory=4096, processes=3)
    assert (v1_memory / "memory.limit_in_bytes").read_text() == "4096"
    assert (v1_pids / "pids.max").read_text() == "3"
    untouched = folder(tmp_path / "none", {"pids.max": "max"})
    Cgroup(2, {"unified": untouched}).limit(memory=None, processes=None)
    assert (untouched / "pids.max").read_text() == "max"  # None: no limit written
