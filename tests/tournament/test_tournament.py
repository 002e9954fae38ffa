"""arbiter tournament, report and export end to end: every game played once, stored as
it ends, resumed after a hard kill, a crashing agent losing only its own games."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
import pytest

from arbiter.cli import main
from arbiter.cli.tournament import read_agents
from arbiter.errors import ConfigError
from tests.referee.test_escapes import tagged
from tests.referee.test_faults import left_behind
from tests.runs import interruptible, stop_now

ARBITER = [sys.executable, "-m", "arbiter.cli"]


def under_way(db: Path) -> int:
    """How many games the database notes as under way (none before it exists)."""
    try:
        with sqlite3.connect(db) as c:
            return int(c.execute("SELECT count(*) FROM running").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def stored(db: Path) -> list[tuple[int, int, int, str]]:
    """The games in the database (none while it is still being created)."""
    try:
        with sqlite3.connect(db) as c:
            query = "SELECT number, first, second, reason FROM games ORDER BY number"
            return list(c.execute(query))
    except sqlite3.OperationalError:
        return []


def votey_program(tmp_path: Path, name: str, engine: str) -> tuple[str, str]:
    """A Votey agent program written under ``tmp_path``: its path, which marks its
    processes in a listing, and the command that runs it."""
    wrapper = tmp_path / f"{name}.py"
    wrapper.write_text(
        "import sys\nfrom arbiter.cli import main\n"
        f"sys.exit(main(['agent', 'votey', '--engine', '{engine}', *sys.argv[1:]]))\n"
    )
    return str(wrapper), f"{sys.executable} {wrapper}"


def two_workers(db: Path, name: str, agents: list[str], *options: str) -> list[str]:
    """The command of a Votey round robin of ``agents`` played two games at a time."""
    argv = [*ARBITER, "tournament", "votey", *options, "--db", str(db)]
    for agent in agents:
        argv += ["--agent", agent]
    return [*argv, "--concurrency", "2", "--name", f"{name}-{os.getpid()}"]


def test_a_round_robin_plays_every_game_once_and_reports(tmp_path, capsys) -> None:
    db = tmp_path / "cup.db"
    argv = ["tournament", "votey", "--agent", "random", "--agent", "greedy", "--agent", "random"]
    argv += ["--move-time", "0.05", "--db", str(db), "--openings", "2", "--rounds", "2"]
    assert main(argv) == 0
    games = stored(db)
    assert [g[0] for g in games] == list(range(1, 13))  # 3 pairings x 2 rounds x 2 games
    out = capsys.readouterr().out
    assert "random'" in out and "crosstable" in out and "Elo" in out
    # run again: nothing left to play, the same table
    assert main(argv) == 0
    assert stored(db) == games
    assert "12 games (12 already played)" in capsys.readouterr().out
    assert main(["report", str(db), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 12 and sum(line["games"] for line in report["lines"]) == 24
    assert sum(line["points"] for line in report["lines"]) == 12
    export = tmp_path / "games.jsonl"
    assert main(["export", str(db), "-o", str(export)]) == 0
    assert len(export.read_text().splitlines()) == 12
    assert main(["replay", str(export)]) == 0
    assert "12 of 12 records verified" in capsys.readouterr().out


def test_a_changed_setting_is_refused_naming_it(tmp_path, capsys) -> None:
    db = tmp_path / "cup.db"
    argv = ["tournament", "votey", "--agent", "random", "--agent", "random", "--db", str(db)]
    assert main([*argv, "--move-time", "0.05"]) == 0
    capsys.readouterr()
    assert main([*argv, "--move-time", "0.1"]) == 1
    err = capsys.readouterr().err
    assert "started with time control 'st=0.05', not 'st=0.1'" in err and err.count("\n") == 1


def test_a_crashing_agent_loses_its_games_and_the_tournament_goes_on(tmp_path) -> None:
    db = tmp_path / "cup.db"
    crash = f"{sys.executable} -m arbiter.cli agent votey --engine random --fault crash"
    argv = ["tournament", "votey", "--agent", "random", "--agent", crash, "--agent", "greedy"]
    assert main([*argv, "--move-time", "1", "--db", str(db)]) == 0
    games = stored(db)
    assert len(games) == 6
    crashed = [g for g in games if 1 in (g[1], g[2])]
    assert len(crashed) == 4 and all(g[3] == "crash" for g in crashed)
    others = [g for g in games if 1 not in (g[1], g[2])]
    assert len(others) == 2 and all(g[3] != "crash" for g in others)


def test_a_hard_kill_loses_no_game_and_a_rerun_plays_only_what_is_missing(tmp_path) -> None:
    db = tmp_path / "cup.db"
    wrapper, program = votey_program(tmp_path, "tagged_agent", "alphabeta:depth=2")
    agents = [program, "greedy", "random"]
    argv = two_workers(db, "kill", agents, "--rounds", "2", "--move-time", "1")
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        children = psutil.Process(process.pid).children(recursive=True)
        if db.exists() and len(stored(db)) >= 2 and under_way(db) and tagged(wrapper):
            break  # games stored, one noted as under way, and the program playing one now
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    before = stored(db)
    assert 2 <= len(before) < 12
    _, alive = psutil.wait_procs(children, timeout=60)
    assert alive == [], "a worker or program outlived the killed tournament"
    assert left_behind(wrapper) == [], "a program outlived the killed tournament"
    # nor a box: the watchdogs removed the killed workers' work directories (waited for
    # as long as a busy machine needs; the loop ends as soon as they are gone)
    killed = {process.pid, *(c.pid for c in children)}
    boxes: list[str] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        boxes = [
            b
            for b in os.listdir(tempfile.gettempdir())
            if b.startswith("arbiter-game-") and b.split("-")[2] in {str(k) for k in killed}
        ]
        if not boxes:
            break
        time.sleep(0.1)
    assert boxes == [], "the killed tournament left its programs' work directories"
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    after = stored(db)
    assert [g[0] for g in after] == list(range(1, 13))
    assert after[: len(before)] == before or set(before) <= set(after)
    assert f"({len(before)} already played)" in done.stdout.replace("\n", " ")
    assert under_way(db) == 0  # the rerun clears what the killed run left under way


def test_ctrl_c_stops_the_games_under_way_in_their_workers_and_keeps_what_finished(
    tmp_path,
) -> None:
    db = tmp_path / "cup.db"
    wrapper, program = votey_program(tmp_path, "thinking_agent", "alphabeta")
    agents = [program, "greedy", "alphabeta:depth=1"]
    argv = two_workers(
        db, "ctrl-c", agents, "--move-time", "30", "--log-dir", str(tmp_path / "logs")
    )
    process = subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
        preexec_fn=interruptible,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (under_way(db) and tagged(wrapper)):
        time.sleep(0.05)
    children = psutil.Process(process.pid).children(recursive=True)
    assert len(children) >= 2  # two workers, at least
    before = stored(db)
    # Ctrl-C at a terminal, twice: the first asks for a drain, the second stops now;
    # the program thinks for up to 30 s a move: the workers stop their games at once
    said = stop_now(process, lambda sig: os.killpg(process.pid, sig))
    out, _ = process.communicate(timeout=20)
    out = "".join(said) + out
    assert process.returncode == 130
    assert "interrupted: the games finished so far are stored" in out
    _, alive = psutil.wait_procs(children, timeout=60)
    assert alive == [], "a worker or program outlived the interrupted tournament"
    assert left_behind(wrapper) == []
    assert set(before) <= set(stored(db)) and len(stored(db)) < 6
    # the games under way ended as games do, each program's transcript saying why
    finished = {g[0] for g in stored(db)}
    texts = {  # each program transcript (only programs have them), by game
        int(log.parent.name.removeprefix("game-")): log.read_text()
        for log in (tmp_path / "logs").glob("game-*/*.log")
    }
    cut = {number for number, text in texts.items() if "(interrupted)" in text}
    assert cut and cut.isdisjoint(finished)
    ends = {number: text.splitlines()[-1] for number, text in texts.items()}
    assert set(texts) <= cut | finished, ends


def test_agents_file_names_each_entry_and_its_mistakes(tmp_path) -> None:
    path = tmp_path / "agents.toml"
    path.write_text(
        '[[agent]]\nname = "deep"\nengine = "alphabeta:depth=3"\n\n'
        f'[[agent]]\nname = "mine"\ncommand = "./my_agent"\ndir = "{tmp_path}"\n'
    )
    deep, mine = read_agents(str(path))
    assert (deep.name, deep.engine, deep.options) == ("deep", "alphabeta", (("depth", 3),))
    assert mine.program is not None and mine.program.cwd == str(tmp_path)
    for text, message in [
        ('[[agent]]\nname = "x"\n', "give either engine or command"),
        ('[[agent]]\nengine = "random"\n', "needs a name"),
        ('[[agent]]\nname = "x"\nengine = "chess"\n', "not a built-in engine"),
        ('[[agent]]\nname = "x"\nengine = "random"\ncolour = 1\n', "unknown key 'colour'"),
        ("agent = 3", "lists no [[agent]]"),
        ("[[agent]\n", "not a TOML file"),
    ]:
        path.write_text(text)
        with pytest.raises(ConfigError, match=re.escape(message)):
            read_agents(str(path))


def test_openings_are_refused_for_programs_of_a_game_that_cannot_set_a_position(
    tmp_path, capsys
) -> None:
    program = f"{sys.executable} -m arbiter.cli agent votey --engine random"
    argv = ["tournament", "votey", "--agent", "random", "--agent", program]
    assert main([*argv, "--openings", "4", "--db", str(tmp_path / "a.db")]) == 1
    assert "votey programs always play from the game's start" in capsys.readouterr().err
    # by default such a tournament plays from the start; checkers programs get openings
    assert main([*argv, "--move-time", "1", "--db", str(tmp_path / "b.db")]) == 0
    assert "openings: none (the game's programs" in capsys.readouterr().out
    from_start = starts(tmp_path / "b.db")
    assert from_start and all(start is None for start in from_start)
    program = f"{sys.executable} -m arbiter.cli agent checkers --engine random"
    argv = ["tournament", "checkers", "--agent", "random", "--agent", program]
    assert main([*argv, "--move-time", "1", "--db", str(tmp_path / "c.db")]) == 0
    assert "openings: the default set" in capsys.readouterr().out
    opened = starts(tmp_path / "c.db")
    assert opened and all(start is not None for start in opened)


def starts(db: Path) -> list[str | None]:
    with sqlite3.connect(db) as c:
        return [r[0] for r in c.execute("SELECT start FROM games")]


def test_changed_openings_are_refused_even_under_the_same_file_name(tmp_path, capsys) -> None:
    from arbiter.games import find_game
    from arbiter.tournament.openings import random_openings

    spec = find_game("checkers")
    path = tmp_path / "starts.txt"
    path.write_text("\n".join(random_openings(spec, 4, 2, seed=1)) + "\n")
    db = str(tmp_path / "cup.db")
    argv = ["tournament", "checkers", "--agent", "random", "--agent", "random", "--db", db]
    argv += ["--move-time", "0.05", "--openings-file", str(path)]
    assert main(argv) == 0
    path.write_text("\n".join(random_openings(spec, 4, 2, seed=2)) + "\n")
    assert main(argv) == 1
    assert "openings digest" in capsys.readouterr().err


def test_report_asks_which_tournament_when_a_file_holds_several(tmp_path, capsys) -> None:
    db = str(tmp_path / "cups.db")
    argv = ["tournament", "votey", "--agent", "random", "--agent", "greedy", "--db", db]
    for name in ("spring", "autumn"):
        assert main([*argv, "--move-time", "0.05", "--name", name]) == 0
    capsys.readouterr()
    assert main(["report", db]) == 1
    assert "several tournaments (spring, autumn)" in capsys.readouterr().err
    assert main(["report", db, "--tournament", "autumn", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["tournament"] == "autumn"
    assert main(["report", db, "--tournament", "winter"]) == 1
    assert "no tournament 'winter'" in capsys.readouterr().err
    assert main(["report", str(tmp_path / "none.db")]) == 1
    assert "no database" in capsys.readouterr().err


def test_a_once_per_move_program_in_two_games_at_once_gets_a_copy_of_its_directory_for_each(
    tmp_path,
) -> None:
    # the agent counts its plies in playdata.txt: two games sharing one directory would
    # mix their counts and files and lose as malformed or illegal
    home = tmp_path / "halma-agent"
    home.mkdir()
    (home / "notes.txt").write_text("the agent's own file, copied for each game\n")
    agents = tmp_path / "agents.toml"
    agents.write_text(
        '[[agent]]\nname = "mine"\n'
        f'command = "{sys.executable} -m arbiter.cli agent halma --engine greedy"\n'
        f'dir = "{home}"\n'
    )
    db = tmp_path / "cup.db"
    argv = ["tournament", "halma", "--agents", str(agents), "--agent", "random"]
    argv += ["--agent", "greedy", "--db", str(db), "--concurrency", "2", "--tc", "60"]
    assert main([*argv, "--max-plies", "16", "--no-openings"]) == 0
    games = stored(db)
    assert len(games) == 6
    assert all(reason in ("move limit", "more time left") for *_, reason in games), games
    assert sorted(p.name for p in home.iterdir()) == ["notes.txt"]  # never written
