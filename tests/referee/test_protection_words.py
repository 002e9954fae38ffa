"""What ``arbiter doctor`` says of a machine's walls, for machines other than this one
(each :class:`Protection` made here as detection would find it there), and the two
kernel requests a referee makes of itself: to reap orphans, to die with its parent."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

from arbiter.referee.sandbox import Protection

TOOLS = (("sh", "/bin/sh"), ("unshare", "/usr/bin/unshare"), ("mount", "/bin/mount"))


def said(protection: Protection, topic: str) -> str:
    """The one line of the description on ``topic``, after its colon."""
    (line,) = [x for x in protection.describe() if x.strip().startswith(topic)]
    return line.split(": ", 1)[1]


def test_a_bare_machine_says_what_each_missing_wall_needs() -> None:
    bare = Protection("rlimits", (), (("sh", "/bin/sh"),), network_namespaces=False)
    lines = bare.describe()
    assert lines[0] == "confinement: rlimits" and "no cgroup: CPU and memory" in lines[1]
    assert "  prlimit: not found" in lines and "  sh: /bin/sh" in lines
    assert said(bare, "programs die with the referee") == "no (setpriv missing)"
    assert said(bare, "programs cut off from the network").startswith("no (needs root")
    assert said(bare, "what a program writes capped").startswith("no (needs root")
    assert said(bare, "programs share").startswith("yes: the machine's /tmp")
    assert said(bare, "a uid of its own") == "no (needs root and setpriv)"
    assert said(bare, "PID, mount") == "no (install bubblewrap)"


@pytest.mark.parametrize(
    ("disks", "namespaces", "tools", "shared"),
    [
        (True, True, TOOLS, "no: behind namespaces"),
        (True, False, TOOLS, "no at user (a mount namespace of its own); yes below user"),
        (True, False, TOOLS[:2], "yes: the machine's"),  # no mount: no namespace of its own
        (False, False, TOOLS, "yes: the machine's"),  # no capped disk to put them on
    ],
)
def test_the_temporary_folders_are_private_only_where_a_mount_makes_them(
    disks: bool, namespaces: bool, tools: tuple[tuple[str, str], ...], shared: str
) -> None:
    machine = Protection(
        "cgroup v2",
        (("unified", "/sys/fs/cgroup/x"),),
        tools,
        True,
        disks=disks,
        namespaces=namespaces,
    )
    assert said(machine, "programs share").startswith(shared)


def test_a_v1_machine_names_the_controllers_it_lacks() -> None:
    v1 = Protection("cgroup v1", (("cpuacct", "/sys/fs/cgroup/cpuacct/me"),), (), False)
    assert any(x.startswith("  missing controllers: ") and "memory" in x for x in v1.describe())
    assert "  cpuacct: cgroups made under /sys/fs/cgroup/cpuacct/me" in v1.describe()


def test_namespaces_say_whether_bubblewrap_needs_a_user_namespace() -> None:
    found = (("bwrap", "/usr/bin/bwrap"),)
    assert said(Protection("rlimits", (), found, True, root=True, namespaces=True), "PID") == (
        "yes: bubblewrap"
    )
    user = Protection("rlimits", (), found, True, namespaces=True)
    assert said(user, "PID") == "yes: bubblewrap (in a user namespace)"
    assert said(Protection("rlimits", (), found, True), "PID").startswith("no (bubblewrap is here")


ASKS = """\
import ctypes, signal, sys
from arbiter.referee.sandbox import become_subreaper, die_with_parent
libc = ctypes.CDLL(None, use_errno=True)
got = ctypes.c_int(0)
print(die_with_parent(signal.SIGUSR1), become_subreaper())
libc.prctl(2, ctypes.byref(got), 0, 0, 0)  # PR_GET_PDEATHSIG
reaper = ctypes.c_int(0)
libc.prctl(37, ctypes.byref(reaper), 0, 0, 0)  # PR_GET_CHILD_SUBREAPER
print(got.value, reaper.value)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux's")
def test_the_kernel_is_asked_to_reap_orphans_and_end_a_process_with_its_parent() -> None:
    done = subprocess.run(
        [sys.executable, "-c", ASKS], capture_output=True, text=True, check=True, timeout=60
    )
    answered, kept = done.stdout.splitlines()
    assert answered == "True True"  # each says it was granted
    assert kept == f"{int(signal.SIGUSR1)} 1"  # and the kernel holds what was asked


def test_the_uids_of_programs_are_named_first_to_last() -> None:
    machine = Protection("rlimits", (), (), False, root=True, own_uids=True, uids=range(2000, 2100))
    assert said(machine, "a uid of its own") == "yes: 2000-2099, one free uid for each program"
