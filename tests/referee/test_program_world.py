"""What a program's world holds behind the default walls, each seen by a real
program: a disk capped as a whole (it sees ENOSPC, the referee plays on), a private
``/tmp`` a C program can write, a device path on its command line, a ``PATH`` with
none of the referee's own folders, and ``check-agent --expose`` for a library
folder outside the system's."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arbiter.cli import main
from arbiter.referee.sandbox import detect

from .test_isolation import need

PLAY_ON = (
    "sys.stdout.flush()\n"
    "from arbiter.cli import main\n"
    "sys.exit(main(['agent', 'votey', sys.argv[-1], '--engine', 'random']))\n"
)
"""The end of each probe: it goes on as the built-in random player."""

FILL_WORK = (
    "import errno, os, sys\n"
    "written = 0\n"
    "try:\n"
    "    with open('big', 'wb') as f:\n"
    "        while written < 64:\n"
    "            f.write(bytes(1 << 20)); f.flush(); written += 1\n"
    "except OSError as e:\n"
    "    print('work', written, errno.errorcode[e.errno], file=sys.stderr)\n"
)
"""The start of a probe that writes its work directory full, a MB at a time (64 MB
at most), and says how far it got and why it stopped."""


def play(tmp_path: Path, program: str, *flags: str) -> tuple[str, str]:
    """One Votey game of ``program`` (black) against random; the match's output and
    the program's transcript."""
    logs = tmp_path / "logs"
    argv = ["match", "votey", program, "random", "--games", "1", "--names", "p", "r"]
    code = main([*argv, "--log-dir", str(logs), "--move-time", "5", *flags])
    assert code == 0
    return "", (logs / "game-0001" / "1-p.log").read_text()


def mounts_of_this_referee() -> list[str]:
    with open("/proc/self/mounts") as f:
        return [line for line in f if f"arbiter-game-{os.getpid()}-" in line]


@pytest.mark.parametrize(
    ("level", "walls", "folders"),
    [
        ("auto", ("cgroup", "own_uid", "namespaces"), ("/tmp", "/dev/shm")),
        ("user", ("cgroup", "own_uid"), ("/tmp", "/var/tmp", "/dev/shm")),
    ],
)
def test_a_program_filling_its_disk_sees_enospc_and_the_referee_plays_on(
    tmp_path: Path, capsys, level: str, walls: tuple[str, ...], folders: tuple[str, ...]
) -> None:
    need(*walls)
    if not detect().disks:
        why = "a capped disk needs root and the right to mount"
        if os.environ.get("ARBITER_ISOLATION_TESTS") == "required":
            pytest.fail(why)
        pytest.skip(why)
    probe = tmp_path / "filler.py"
    probe.write_text(
        FILL_WORK + f"for folder in {list(folders)!r}:\n"
        "    try:\n"
        "        open(folder + '/more', 'wb').write(bytes(1 << 20))\n"
        "        print('full', folder, 'ok', file=sys.stderr)\n"
        "    except OSError as e:\n"
        "        print('full', folder, errno.errorcode[e.errno], file=sys.stderr)\n"
        "os.unlink('big')\n"
        "huge = 0\n"  # then a gigabyte into /tmp alone: it ends at the same cap
        "try:\n"
        "    with open('/tmp/huge', 'wb') as f:\n"
        "        while huge < 1024:\n"
        "            f.write(bytes(1 << 20)); f.flush(); huge += 1\n"
        "except OSError as e:\n"
        "    print('huge', huge, errno.errorcode[e.errno], file=sys.stderr)\n"
        "os.unlink('/tmp/huge')\n" + PLAY_ON
    )
    _, log = play(tmp_path, f"{sys.executable} {probe}", "--disk-limit", "8", "--isolation", level)
    found = re.search(r" e work (\d+) (\w+)", log)
    assert found is not None, log
    assert 6 <= int(found[1]) <= 8 and found[2] == "ENOSPC"
    for folder in folders:  # each shares the cap: nothing lands on the machine's disk
        assert f" e full {folder} ENOSPC" in log, log
    huge = re.search(r" e huge (\d+) (\w+)", log)
    assert huge is not None and int(huge[1]) <= 8 and huge[2] == "ENOSPC", log
    out = capsys.readouterr().out
    assert "disk: 8 MB" in out and "by crash" not in out  # it played on
    assert mounts_of_this_referee() == []


@pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")
def test_a_c_program_writes_its_private_tmp_behind_the_default_walls(tmp_path: Path) -> None:
    need("cgroup", "own_uid", "namespaces")
    source = tmp_path / "tmp.c"
    source.write_text(
        "#include <stdio.h>\n"
        "int main(void) {\n"
        '  FILE *t = tmpfile(), *f = fopen("/tmp/x", "w");\n'
        '  fprintf(stderr, "tmpfile %s fopen %s\\n", t ? "ok" : "fail", f ? "ok" : "fail");\n'
        '  puts("1232"); fflush(stdout);\n'
        "  return 0;\n"
        "}\n"
    )
    binary = tmp_path / "tmp"
    subprocess.run(["cc", "-o", str(binary), str(source)], check=True)
    _, log = play(tmp_path, str(binary))
    assert " e tmpfile ok fopen ok" in log, log


def test_a_program_with_a_uid_of_its_own_has_temporary_folders_no_other_may_enter(
    tmp_path: Path,
) -> None:
    need("own_uid", "namespaces")
    probe = tmp_path / "modes.py"
    probe.write_text(
        "import os, stat, sys\n"
        "for d in ('/tmp', '/dev/shm'):\n"
        "    st = os.stat(d)\n"
        "    print('mode', d, oct(stat.S_IMODE(st.st_mode)), st.st_uid == os.getuid(),"
        " file=sys.stderr)\n" + PLAY_ON
    )
    _, log = play(tmp_path, f"{sys.executable} {probe}")
    for folder in ("/tmp", "/dev/shm"):  # the default walls' own folders
        assert f" e mode {folder} 0o700 True" in log, log


def test_a_device_path_on_the_command_line_is_the_programs_own(tmp_path: Path, capsys) -> None:
    probe = tmp_path / "logger.py"
    probe.write_text(
        "import sys\n"
        "with open(sys.argv[2], 'w') as log:\n"
        "    print('logging to', sys.argv[2], file=log)\n" + PLAY_ON
    )
    _, log = play(tmp_path, f"{sys.executable} {probe} --log /dev/stderr")
    assert " e logging to /dev/stderr" in log, log
    assert "by crash" not in capsys.readouterr().out


def test_a_programs_path_holds_its_interpreter_and_the_system_only(
    tmp_path: Path, monkeypatch
) -> None:
    home_tools = tmp_path / "home" / ".cargo" / "bin"
    home_tools.mkdir(parents=True)
    monkeypatch.setenv("PATH", f"{home_tools}:{os.environ['PATH']}")
    probe = tmp_path / "path.py"
    probe.write_text(
        "import os, sys\nprint('PATH=' + os.environ['PATH'], file=sys.stderr)\n" + PLAY_ON
    )
    _, log = play(tmp_path, f"{sys.executable} {probe}")
    found = re.search(r" e PATH=(\S+)", log)
    assert found is not None, log
    assert (
        found[1].split(":")
        == [
            os.path.dirname(sys.executable),
            "/usr/local/bin",
            "/usr/bin",
            "/bin",
        ][-len(found[1].split(":")) :]
    )
    assert str(home_tools) not in found[1] and "/usr/bin" in found[1]


def test_check_agent_exposes_a_library_folder_when_asked(tmp_path: Path, capsys) -> None:
    need("namespaces")
    library = tmp_path / "library"
    library.mkdir()
    (library / "helper.py").write_text(
        "import sys\n"
        "def play():\n"
        "    from arbiter.cli import main\n"
        "    sys.exit(main(['agent', 'votey', sys.argv[-1], '--engine', 'random']))\n"
    )
    program = tmp_path / "program" / "main.py"
    program.parent.mkdir()
    program.write_text(
        f"import sys\nsys.path.insert(0, {str(library)!r})\nimport helper\nhelper.play()\n"
    )
    command = f"{sys.executable} {program}"
    argv = ["check-agent", "votey", command, "--move-time", "2", "--no-burners"]
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert "FAIL  first seat" in out and "No module named 'helper'" in out
    assert main([*argv, "--expose", str(library)]) == 0
    out = capsys.readouterr().out
    assert "all checks passed" in out
    assert "...   first seat: a whole game moving first" in out  # said as it starts


def test_without_the_right_to_mount_each_file_is_held_to_the_disk_limit(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    probe = tmp_path / "filler.py"
    probe.write_text(FILL_WORK + "os.unlink('big')\n" + PLAY_ON)
    monkeypatch.setenv("ARBITER_WALLS_OFF", "disk")
    detect.cache_clear()
    try:
        _, log = play(tmp_path, f"{sys.executable} {probe}", "--disk-limit", "8")
    finally:
        monkeypatch.delenv("ARBITER_WALLS_OFF")
        detect.cache_clear()
    assert " e work 8 EFBIG" in log, log
    assert "disk: 8 MB a file" in capsys.readouterr().out


def test_a_transcript_names_the_command_as_its_owner_knows_it(tmp_path: Path) -> None:
    # a contest runs "{python} main.py" with the machine's interpreter: the program's
    # owner reads the contest's command, not the machine's paths
    import asyncio
    import sys

    from arbiter.agents.random import RandomAgent
    from arbiter.clock import TimeControl
    from arbiter.contract import Program, Supervision
    from arbiter.games import find_game
    from arbiter.games.votey.referee import VoteySeat
    from arbiter.referee.match import play_game
    from arbiter.referee.seat import LocalSeat

    (tmp_path / "main.py").write_text("print('1434', flush=True)\nimport time; time.sleep(5)\n")
    spec = find_game("votey")
    logs = tmp_path / "logs"
    program = Program.from_command(
        f"{sys.executable} main.py", cwd=str(tmp_path), name="bot", shown="python3 main.py"
    )
    seat = VoteySeat(program, supervision=Supervision(log_dir=str(logs)))
    white = LocalSeat(RandomAgent(), spec.make({"max_plies": 2}), spec.contest)
    game = spec.make({"max_plies": 2})
    asyncio.run(play_game(spec, game, [seat, white], TimeControl.parse("st=5")))
    log = (logs / "1-bot.log").read_text()
    assert "! started: python3 main.py 1\n" in log, log
    assert sys.executable not in log
