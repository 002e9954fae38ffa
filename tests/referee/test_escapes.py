"""Faults that once hung the referee or let processes outlive it, each with real
processes: the referee stopped by a signal, an engine searching too deep, output
nobody reads."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from arbiter.referee.sandbox import detect
from tests.runs import fault_tag, interruptible, stop_now

from .test_faults import left_behind

AGENT = [sys.executable, "-m", "arbiter.cli", "agent", "votey", "--engine", "random"]
MATCH = [sys.executable, "-m", "arbiter.cli", "match", "votey"]


def tagged(tag: str) -> list[int]:
    return [
        p.pid
        for p in psutil.process_iter(["cmdline"])
        if tag in " ".join(p.info["cmdline"] or ()) and p.pid != os.getpid()
    ]


def faulty(fault: str, tag: str) -> str:
    return " ".join([*AGENT, "--fault", fault, "--fault-tag", tag])


def start_match(fault: str, tag: str, *extra: str) -> subprocess.Popen[str]:
    """A match whose first program commits ``fault`` at its first move. Against a
    detaching program the opponent sleeps at its first move, so the game (0.2 s of
    random moves otherwise) holds its detached burner until the referee is stopped."""
    opponent = faulty("sleep", tag) if fault == "detach" else "random"
    return subprocess.Popen(
        [*MATCH, faulty(fault, tag), opponent, "--games", "4", "--move-time", "30", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=interruptible,
    )


def wait_for(predicate, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def programs_of(tag: str, *, burners: bool = False) -> list[int]:
    """The tagged processes that are programs (not the referee or its workers), or
    only the burners they detached."""
    found = []
    for pid in tagged(tag):
        try:
            cmd = " ".join(psutil.Process(pid).cmdline())
        except psutil.Error:
            continue
        if " match " not in cmd and (not burners or "while True" in cmd):
            found.append(pid)
    return found


def under_way(fault: str, tag: str) -> bool:
    """The faulty program is at its fault: asleep, or its detached burner started."""
    return bool(programs_of(tag, burners=fault == "detach"))


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
@pytest.mark.parametrize("fault", ["sleep", "detach"])
def test_a_referee_stopped_by_a_signal_ends_its_programs_and_sums_up(sig, fault) -> None:
    tag = fault_tag()
    referee = start_match(fault, tag)
    # the referee has said what it plays (its first line, before any game starts), so
    # the signal finds it in its match whatever the machine's load; then the sleeper is
    # waiting for its move, or the detached burner has left its group
    assert referee.stdout is not None
    before = referee.stdout.readline()
    assert " vs " in before, before + referee.communicate(timeout=30)[1]
    wait_for(lambda: under_way(fault, tag))
    if sig == signal.SIGINT:  # the first Ctrl-C drains: the second stops it now
        before += "".join(stop_now(referee, referee.send_signal))
    else:
        referee.send_signal(sig)
    out, err = referee.communicate(timeout=30)
    out = before + out
    assert referee.returncode == 130, err
    assert "interrupted after 0 of 4 games" in out, out + err  # the first game is held
    assert "Elo difference" in out
    assert left_behind(tag) == []


@pytest.mark.parametrize("concurrency", ["1", "2"])
def test_programs_and_workers_die_with_a_referee_killed_outright(concurrency) -> None:
    tag = fault_tag()
    referee = start_match("detach", tag, "--concurrency", concurrency)
    try:  # a loaded machine (a Ray instance starting beside it) can take its time
        wait_for(lambda: under_way("detach", tag), seconds=90)
    except AssertionError:
        referee.kill()
        out, err = referee.communicate(timeout=30)
        raise AssertionError(f"no program and detached child seen:\n{out}\n{err}") from None
    referees = {referee.pid, *(p.pid for p in psutil.Process(referee.pid).children())}
    disks = boxes_mounted(referees)
    referee.kill()  # SIGKILL: no clean-up of its own
    referee.communicate(timeout=30)
    assert left_behind(tag) == []  # programs, their detached children, pool workers
    if detect().disks:  # the programs' capped disks, unmounted by the watchdog
        assert disks
        wait_for(lambda: boxes_mounted(referees) == [])


def boxes_mounted(referees: set[int]) -> list[str]:
    """The capped disks mounted for the boxes of the referee processes ``referees``."""
    with open("/proc/self/mounts") as f:
        points = [line.split()[1] for line in f]
    return [p for p in points for pid in referees if f"/arbiter-game-{pid}-" in p]


@pytest.mark.timing
def test_an_engine_that_searches_too_deep_stops_when_its_time_is_up() -> None:
    done = subprocess.run(
        [*MATCH, "alphabeta:depth=60", "random", "--games", "1", "--move-time", "0.2"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "random wins by time" in done.stdout


@pytest.mark.parametrize("newline", [True, False])
def test_a_10_mb_line_is_malformed_and_hangs_nothing(tmp_path: Path, newline: bool) -> None:
    flood = tmp_path / "flood.py"
    flood.write_text(
        "import sys, time\n"
        f"sys.stdout.write('1' * 10_000_000 + {'chr(10)' if newline else repr('')})\n"
        "sys.stdout.flush()\ntime.sleep(600)\n"
    )
    done = subprocess.run(
        [
            *MATCH,
            f"{sys.executable} {flood}",
            "random",
            "--games",
            "2",
            "--concurrency",
            "2",
            "--move-time",
            "5",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout.count("by malformed output (line longer than") == 2, done.stdout


def test_statistics_written_after_the_game_are_drained(tmp_path: Path) -> None:
    # a program that plays its game to the end, then writes 1 MB it was never asked for
    stats = tmp_path / "stats.py"
    stats.write_text(
        "import sys\n"
        "from arbiter.agents.random import RandomAgent\n"
        "from arbiter.clock import TimeControl\n"
        "from arbiter.contract import AgentRun\n"
        "from arbiter.games import find_game\n"
        "spec = find_game('votey')\n"
        "run = AgentRun(TimeControl(), sys.stdin, sys.stdout, sys.stderr)\n"
        "spec.serve(RandomAgent(), spec.make(), sys.argv[1:], run)\n"
        "for i in range(20000):\n"
        "    print('stat', i, 'x' * 40)\n"
    )
    done = subprocess.run(
        [
            *MATCH,
            "random",
            f"{sys.executable} {stats}",
            "--games",
            "2",
            "--concurrency",
            "2",
            "--move-time",
            "5",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("game ") == 2
    assert "by connected" in done.stdout and "malformed" not in done.stdout


def test_debug_lines_before_a_move_are_malformed_and_hang_nothing(tmp_path: Path) -> None:
    chatty = tmp_path / "chatty.py"
    chatty.write_text(
        "import time\nfor i in range(20000):\n    print('debug', i, 'x' * 40)\n"
        "print('1434', flush=True)\ntime.sleep(600)\n"
    )
    done = subprocess.run(
        [*MATCH, f"{sys.executable} {chatty}", "random", "--games", "1", "--move-time", "5"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "by malformed output (invalid votey move 'debug 0" in done.stdout


def test_binary_junk_is_kept_escaped_and_replays(tmp_path: Path) -> None:
    from arbiter.play.replay import replay
    from arbiter.record import read_records

    junk = tmp_path / "junk.py"
    junk.write_text(
        "import sys, time\nsys.stdout.buffer.write(b'\\xff\\xfe14\\n')\n"
        "sys.stdout.flush()\ntime.sleep(600)\n"
    )
    record = tmp_path / "r.jsonl"
    subprocess.run(
        [*MATCH, f"{sys.executable} {junk}", "random", "--games", "1", "--record", str(record)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    ((_, game),) = list(read_records(record))
    assert (game.winner, str(game.reason)) == (1, "malformed output")
    assert game.offending == "\\xff\\xfe14"
    assert replay(game) == game.outcome


def test_programs_run_in_a_directory_of_their_own_with_a_minimal_environment(
    tmp_path: Path, monkeypatch
) -> None:
    import asyncio

    from arbiter.agents.random import RandomAgent
    from arbiter.clock import TimeControl
    from arbiter.contract import Program, Supervision
    from arbiter.games import find_game
    from arbiter.games.votey.referee import VoteySeat
    from arbiter.referee.match import play_game
    from arbiter.referee.seat import LocalSeat

    spy = tmp_path / "spy.py"
    spy.write_text(
        "import os, sys\n"
        "print('seen', repr((os.getcwd(), os.environ.get('SECRET'), "
        "os.environ.get('SHARED'), sorted(os.environ))), file=sys.stderr)\n"
        "print('1418', flush=True)\n"
    )
    monkeypatch.setenv("SECRET", "hunter2")
    monkeypatch.setenv("SHARED", "ok")
    spec = find_game("votey")
    seen = []
    for passed in ((), ("SHARED",)):
        logs = tmp_path / f"logs{len(passed)}"
        seat = VoteySeat(
            Program((sys.executable, "spy.py"), name="spy"),  # a path relative to here
            supervision=Supervision(pass_env=passed, log_dir=str(logs)),
        )
        monkeypatch.chdir(tmp_path)
        white = LocalSeat(RandomAgent(), spec.make(), spec.contest)
        asyncio.run(play_game(spec, spec.make(), [seat, white], TimeControl.parse("st=5")))
        line = next(x for x in (logs / "1-spy.log").read_text().splitlines() if " e seen " in x)
        seen.append(eval(line.split(" e seen ", 1)[1]))
    first, second = seen
    cwd, secret, shared, names = first
    assert cwd != str(tmp_path) and not Path(cwd).exists()  # its own, removed after
    assert secret is None and shared is None
    shell = {"PWD", "OLDPWD", "SHLVL", "_", "LC_CTYPE"}  # what the launching shell adds
    assert set(names) <= {"PATH", "LANG", "LC_ALL", "TZ", "HOME", "TMPDIR", "ARBITER_GAMES"} | shell
    assert second[2] == "ok" and second[1] is None


@pytest.mark.skipif(
    not __import__("arbiter.referee.sandbox", fromlist=["detect"]).detect().network_namespaces,
    reason="network namespaces need root and unshare",
)
def test_programs_are_cut_off_from_this_machine_unless_given_the_network(
    tmp_path: Path,
) -> None:
    import socket

    from arbiter.cli import main

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import socket, sys\n"
        "try:\n"
        f"    socket.create_connection(('127.0.0.1', {port}), timeout=2); r = 'connected'\n"
        "except OSError:\n"
        "    r = 'cut off'\n"
        "print('network', r, file=sys.stderr)\n"
        "print('1418', flush=True)\n"
    )
    command = f"{sys.executable} {probe}"
    seen = []
    for flags in ([], ["--network"]):
        logs = tmp_path / f"logs{len(flags)}"
        argv = ["match", "votey", command, "random", "--games", "1", "--names", "probe", "r"]
        assert main([*argv, "--log-dir", str(logs), *flags]) == 0
        text = (logs / "game-0001" / "1-probe.log").read_text()
        seen += [
            line.split(" e network ", 1)[1] for line in text.splitlines() if " e network " in line
        ]
    server.close()
    assert seen == ["cut off", "connected"]


def test_doctor_says_what_holds_programs(capsys) -> None:
    from arbiter.cli import main
    from arbiter.referee.sandbox import detect

    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"confinement: {detect().kind}")
    assert "programs die with the referee" in out


def test_doctor_names_what_a_machine_unlike_this_one_lacks() -> None:
    from arbiter.referee.sandbox import Protection

    v1 = Protection(
        "cgroup v1",
        (("cpuacct", "/sys/fs/cgroup/cpuacct/x"), ("memory", "/sys/fs/cgroup/memory/x")),
        (("bwrap", "/usr/bin/bwrap"),),
        network_namespaces=False,
    )
    said = v1.describe()
    assert said[0] == "confinement: cgroup v1"
    assert "  missing controllers: pids, freezer (psutil measures instead)" in said
    assert any("bubblewrap is here but cannot make namespaces" in line for line in said)
    assert any("cut off from the network: no" in line for line in said)
    full = Protection("cgroup v2", (("unified", "/sys/fs/cgroup/x"),), (), True, namespaces=True)
    assert not any("missing controllers" in line for line in full.describe())
    bare = Protection("rlimits", (), (), network_namespaces=False).describe()
    assert bare[1].startswith("  no cgroup: CPU and memory measured with psutil")
    assert "  programs die with the referee: no (setpriv missing)" in bare


def test_bad_settings_and_broken_records_are_one_line_errors_from_the_command(
    tmp_path: Path,
) -> None:
    for flags, message in (
        (["--tc", "0"], "leaves no time to move"),
        (["--tc", "st=0"], "leaves no time to move"),
        (["--tc", "1:-30"], "'1:-30' is not a time"),
        (["--games", "99999999999999999999"], "must be from 1 to"),
        (["--depth", "1000"], "must be from 1 to 64"),
    ):
        done = subprocess.run(
            [*MATCH, "random", "random", *flags], capture_output=True, text=True, timeout=60
        )
        assert done.returncode in (1, 2) and message in done.stderr, done.stderr
        assert "Traceback" not in done.stderr
    broken = tmp_path / "broken.jsonl"
    head = '{"game":"votey","players":["a","b"],"moves":[],"winner":0,"reason":"time"'
    broken.write_bytes(
        (
            head
            + ',"options":{"max_plies":"x"}}\n'
            + head
            + ',"seed":Infinity}\n'
            + "[" * 100_000
            + "]" * 100_000
            + "\n"
        ).encode()
        + b"\xff\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "replay", str(broken), "--unsealed"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr + done.stdout
    assert "0 of 4 records verified" in done.stdout
