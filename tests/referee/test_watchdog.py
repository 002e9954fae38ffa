"""The watchdog: when the referee is gone, however it ended, every program it listed
is killed and every cgroup and box folder it listed is removed."""

from __future__ import annotations

import subprocess
from pathlib import Path

from arbiter.referee.cgroups import new_cgroup
from arbiter.referee.sandbox import detect
from arbiter.referee.watchdog import Watchdog
from tests.referee.test_isolation import need


def test_a_referee_gone_leaves_no_program_cgroup_or_box_behind(tmp_path: Path) -> None:
    need("cgroup")
    machine = detect()
    cgroup = new_cgroup(machine.cgroup_version, machine.parents)
    assert cgroup is not None
    program = subprocess.Popen(["sleep", "60"], start_new_session=True)
    forgotten = subprocess.Popen(["sleep", "60"], start_new_session=True)
    for join in cgroup.join_files:  # the program in its cgroup, as the referee puts it
        join.write_text(str(program.pid))
    cgroup.freeze(True)  # suspended, as a program waiting for its turn is
    box = tmp_path / "box"
    (box / "work").mkdir(parents=True)
    (box / "work" / "input.txt").write_text("x")
    dog = Watchdog()
    try:
        dog.watch(program.pid, cgroup)
        dog.watch(forgotten.pid, None)
        dog.forget(forgotten.pid)  # killed and cleaned by the referee itself
        dog.watch_folder(str(box))
        assert dog._proc is not None and dog._proc.stdin is not None
        dog._proc.stdin.close()  # the referee's end of the pipe: as if it died
        assert dog._proc.wait(timeout=30) == 0
        assert program.wait(timeout=10) == -9  # killed by the watchdog
        assert forgotten.poll() is None  # not listed any more: left alone
        assert not any(Path(f).parent.exists() for f in cgroup.join_files)
        assert not box.exists()
    finally:
        cgroup.freeze(False)  # a frozen process dies only once thawed
        for p in (program, forgotten):
            p.kill()
            p.wait()
        cgroup.kill()
        cgroup.remove()
