"""The ``arbiter`` command end to end, and external agents against in-process ones."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from arbiter.agents.registry import make_agent
from arbiter.cli import main
from arbiter.clock import TimeControl
from arbiter.contract import Program
from arbiter.errors import Reason
from arbiter.games import find_game, game_names
from arbiter.games.votey.referee import VoteySeat
from arbiter.record import read_records
from arbiter.referee.match import play_game
from arbiter.referee.seat import LocalSeat
from tests.recorded import instances
from tests.runs import DRAINING, interruptible

AGENT = [sys.executable, "-m", "arbiter.cli", "agent", "votey"]


def recorded_match(record, words: str) -> list:
    """Runs ``arbiter match WORDS --record RECORD``; returns the records it wrote."""
    assert main(["match", *words.split(), "--record", str(record)]) == 0
    return [r for _, r in read_records(record)]


def test_external_agent_plays_the_same_game_as_in_process() -> None:
    spec = find_game("votey")
    game = spec.make()
    tc = TimeControl.per_move_seconds(30)

    def greedy() -> LocalSeat:
        return LocalSeat(make_agent(spec, "greedy"), game, spec.contest, seed=4)

    local = LocalSeat(make_agent(spec, "alphabeta:depth=2"), game, spec.contest, seed=3)
    external = VoteySeat(
        Program((*AGENT, "--engine", "alphabeta", "--depth", "2", "--seed", "3"), name="ext")
    )
    for first in (0, 1):
        pair_a = [local, greedy()] if first == 0 else [greedy(), local]
        pair_b = [external, greedy()] if first == 0 else [greedy(), external]
        a = asyncio.run(play_game(spec, game, pair_a, tc))
        b = asyncio.run(play_game(spec, game, pair_b, tc))
        assert a.reason is not Reason.ABORTED and not a.reason.is_fault
        assert len(a.moves) > 4
        assert a.moves == b.moves
        assert (a.winner, a.reason) == (b.winner, b.reason)


def test_match_command_records_and_replays(tmp_path, capsys) -> None:
    record = tmp_path / "games.jsonl"
    records = recorded_match(record, "votey greedy random --games 2 --move-time 2 --seed 5")
    out = capsys.readouterr().out
    assert "game 2/2" in out and "greedy:" in out and "Elo difference" in out
    header = out.splitlines()[0]
    assert header.startswith("Votey Checkers: greedy vs random, 2 games, time control "), header
    assert header.endswith(", charged as cpu time, waiting program suspended"), header
    assert [r.players for r in records] == [("greedy", "random"), ("random", "greedy")]
    # each game's line: the running score, the first name's points first
    points = 0.0
    for number, r in enumerate(records, 1):
        out_of = r.outcome
        points += 0.5 if out_of.winner is None else float(r.players[out_of.winner] == "greedy")
        line = next(x for x in out.splitlines() if x.startswith(f"game {number}/2:"))
        assert line.endswith(f"s score greedy {points:g} - {number - points:g} random"), line
    assert main(["replay", str(record)]) == 0
    assert "2 of 2 records verified" in capsys.readouterr().out


def test_a_match_line_gives_a_fault_its_detail_and_a_rule_ending_none(tmp_path, capsys) -> None:
    argv = ["match", "votey", "random", "random", "--games", "1", "--max-plies", "4"]
    assert main(argv) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("game 1/1"))
    assert "1/2-1/2 draw by move limit, 4 plies |" in line, line
    crash = f"{sys.executable} -c 'import sys; sys.exit(3)'"
    assert main(["match", "votey", crash, "random", "--games", "1"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("game 1/1"))
    assert "wins by crash (" in line and "exit" in line, line


def test_match_resumed_from_its_record_says_so_and_plays_the_rest(tmp_path, capsys) -> None:
    record = tmp_path / "games.jsonl"
    recorded_match(record, "votey greedy random --games 2 --move-time 2")
    capsys.readouterr()
    words = ["votey", "greedy", "random", "--games", "4", "--move-time", "2", "--resume"]
    assert main(["match", *words, "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert f"resumed: 2 games already in {record}, score greedy" in out
    assert "game 3/4" in out and "game 1/4" not in out
    # another match's record (other names) is refused, naming the line
    assert main(["match", *words, "--names", "a", "b", "--record", str(record)]) == 1
    err = capsys.readouterr().err
    assert "games.jsonl:1: game 1 (votey, greedy vs random) is not one this match plays" in err
    assert "Traceback" not in err


def test_match_against_external_command(tmp_path, capsys) -> None:
    command = " ".join([*AGENT, "--engine", "random", "--seed", "1"])
    assert main(["match", "votey", command, "greedy", "--games", "1", "--move-time", "5"]) == 0
    assert "1 game, time control st=5" in capsys.readouterr().out


def test_replay_reports_a_tampered_record(tmp_path, capsys) -> None:
    record = tmp_path / "games.jsonl"
    main(["match", "votey", "random", "random", "--games", "1", "--record", str(record)])
    capsys.readouterr()
    text = record.read_text().replace('"moves":["', '"moves":["8888","', 1)
    text = text.replace('"times":[', '"times":[0.1,', 1)
    record.write_text(text)
    # changed after the referee sealed it
    assert main(["replay", str(record)]) == 1
    assert "not written by this referee (a seal that does not match)" in capsys.readouterr().out
    # judged on its moves alone, the change is found too
    assert main(["replay", str(record), "--unsealed"]) == 1
    assert "move 1 '8888'" in capsys.readouterr().out


def test_replay_rejects_a_forged_record_that_plays_correctly(tmp_path, capsys) -> None:
    import json

    record = tmp_path / "games.jsonl"
    main(["match", "votey", "random", "random", "--games", "1", "--record", str(record)])
    capsys.readouterr()
    forged = json.loads(record.read_text())
    forged["players"] = ["mallory", "random"]  # a true game, claimed by someone else
    del forged["seal"]
    with record.open("a") as f:
        f.write(json.dumps(forged) + "\n")
    assert main(["replay", str(record)]) == 1
    out = capsys.readouterr().out
    assert "games.jsonl:1: ok" in out
    assert "games.jsonl:2: votey mallory vs random: not written by this referee (no seal)" in out


def test_perft_prints_depth_and_nodes(capsys) -> None:
    assert main(["perft", "votey", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "depth nodes seconds nodes/s"
    assert [line.split()[:2] for line in lines[1:]] == [["1", "36"], ["2", "1244"]]


def test_console_script_runs_an_agent() -> None:
    done = subprocess.run(
        [*AGENT, "--engine", "random", "1"],
        input="",
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0
    first = done.stdout.split()[0]
    assert len(first) == 4 and first.isdigit()


def test_checkers_match_with_plain_draws(tmp_path, capsys) -> None:
    record = tmp_path / "c.jsonl"
    records = recorded_match(record, "checkers greedy random --games 2 --move-time 2 --plain-draws")
    assert "American checkers" in capsys.readouterr().out
    assert len(records) == 2
    assert all(r.options == {"max_plies": 1000, "plain_draws": True} for r in records)
    assert main(["replay", str(record)]) == 0


def test_replay_reports_each_broken_line_and_checks_the_rest(tmp_path, capsys) -> None:
    record = tmp_path / "games.jsonl"
    main(["match", "votey", "random", "random", "--games", "2", "--record", str(record)])
    capsys.readouterr()
    good = record.read_text().splitlines()
    record.write_text("\n".join([good[0], "{broken", good[1]]) + "\n")
    assert main(["replay", str(record)]) == 1
    out = capsys.readouterr().out
    assert "games.jsonl:2: not JSON" in out
    assert "2 of 3 records verified" in out


def test_replay_reports_a_line_that_is_not_utf8_and_checks_the_rest(tmp_path, capsys) -> None:
    junk = tmp_path / "junk.jsonl"
    good = tmp_path / "good.jsonl"
    main(["match", "votey", "random", "random", "--games", "2", "--record", str(good)])
    capsys.readouterr()
    lines = good.read_bytes().splitlines()
    junk.write_bytes(lines[0] + b"\n\xff\xfe\x00garbage\n" + lines[1] + b"\n")
    assert main(["replay", str(junk)]) == 1
    out = capsys.readouterr().out
    assert "junk.jsonl:2: not UTF-8 text" in out and "2 of 3 records verified" in out


def test_match_with_a_game_clock(tmp_path, capsys) -> None:
    (r,) = recorded_match(tmp_path / "g.jsonl", "checkers alphabeta greedy --games 1 --tc 2+0.1")
    assert "time control 2+0.1" in capsys.readouterr().out
    assert r.time_control == "2+0.1"


def test_bad_time_control_is_a_one_line_error(capsys) -> None:
    assert main(["match", "votey", "random", "random", "--tc", "fast"]) == 1
    assert "invalid time control 'fast'" in capsys.readouterr().err


def test_verbose_agent_reports_its_search_on_stderr() -> None:
    board = "01010101\n10101010\n01010101\n00000000\n00000000\n20202020\n02020202\n20202020\n"
    done = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "agent", "checkers", "1", "-v", "--depth", "3"],
        input=board,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0
    move = done.stdout.strip()
    assert done.stderr.startswith(f"{move}: depth 3, score ")


def test_parallel_games_are_all_played_and_recorded(tmp_path, capsys) -> None:
    record = tmp_path / "p.jsonl"
    records = recorded_match(
        record, "votey greedy random --games 4 --concurrency 2 --move-time 2 --seed 9"
    )
    out = capsys.readouterr().out
    assert out.count("game ") == 4 and "greedy: " in out
    assert sorted(r.round for r in records) == [1, 2, 3, 4]
    assert {r.round: r.players for r in records}[2] == ("random", "greedy")
    assert main(["replay", str(record)]) == 0


def test_parallel_games_repeat_the_sequential_ones(tmp_path) -> None:
    words = "checkers greedy random --games 2 --seed 3"
    one = recorded_match(tmp_path / "a.jsonl", words + " --concurrency 1")  # the least
    two = recorded_match(tmp_path / "b.jsonl", words + " --concurrency 2")
    assert {r.round: r.moves for r in one} == {r.round: r.moves for r in two}


def test_verbose_shows_every_move_of_games_played_in_workers(tmp_path, capsys) -> None:
    (one, two) = recorded_match(
        tmp_path / "v.jsonl", "votey greedy random --games 2 --concurrency 2 -v --seed 4"
    )
    out = capsys.readouterr().out
    for record in (one, two):
        for ply, text in enumerate(record.moves, 1):
            assert f"game {record.round} {ply:4d}." in out
            assert text in out


def test_perft_divide_lists_each_first_move(capsys) -> None:
    assert main(["perft", "checkers", "3", "--divide"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 8 and lines[-1] == "total 302"
    assert lines[0].split()[0] == "9-13"


def test_version_and_help_name_the_games_that_exist(capsys) -> None:
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0 and capsys.readouterr().out.startswith("arbiter ")
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "Games: votey, checkers" in capsys.readouterr().out.replace("\n", " ")


def test_match_header_says_the_contest_clock() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "match", "votey", "random", "random", "--games", "1"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    first = done.stdout.splitlines()[0]
    assert "time control st=60: 60 s per move (the contest's), charged as cpu time" in first


def test_interrupted_match_still_prints_the_games_already_played(tmp_path) -> None:
    import os
    import signal

    record = tmp_path / "i.jsonl"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "arbiter.cli",
            "match",
            "votey",
            "greedy",
            "alphabeta",
            "--games",
            "50",
            "--move-time",
            "0.05",
            "--record",
            str(record),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=interruptible,
    )
    assert proc.stdout is not None
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if line.startswith("game 1/50"):
            break
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C at a terminal sends: a drain
    rest, _ = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert DRAINING in rest and "Elo difference" in rest and "greedy: " in rest
    # the game under way ended as games do and was recorded; no other started
    played = len(record.read_text().splitlines())
    assert played >= 1 and f"stopped after the games under way: {played} of 50 games" in rest
    assert all(r.reason.value != "aborted" for _, r in read_records(str(record)))


def test_solve_answers_a_halma_input_txt_and_names_a_broken_line(tmp_path, capsys) -> None:
    from arbiter.games.halma.contest import input_text

    spec = find_game("halma")
    game = spec.make()
    s = game.initial()
    path = tmp_path / "input.txt"
    path.write_text(input_text(s, 0, 0.5, single=True))
    assert main(["solve", "halma", "--depth", "1", str(path)]) == 0
    move = capsys.readouterr().out
    assert spec.contest.judge(game, s, move, seat=0) in game.legal_moves(s)
    path.write_text(input_text(s, 0, 0.5, single=True).replace("BLACK", "GREEN"))
    assert main(["solve", "halma", str(path)]) == 1
    assert "input.txt line 2: expected BLACK or WHITE, found 'GREEN'" in capsys.readouterr().err


def test_solve_thinks_for_move_time_over_the_input_txt_s_time(
    tmp_path, capsys, monkeypatch
) -> None:
    """``--move-time`` wins over the seconds an input.txt gives; without it the
    input.txt's seconds are the limit."""
    import arbiter.agents.registry as registry
    from arbiter.games.halma.contest import input_text

    limits = []
    made = registry.make_agent

    def watched(*args, **kwargs):
        agent = made(*args, **kwargs)
        choose = agent.choose
        agent.choose = lambda s, limit: (limits.append(limit), choose(s, limit))[1]
        return agent

    monkeypatch.setattr(registry, "make_agent", watched)
    spec = find_game("halma")
    s = spec.make().initial()
    path = tmp_path / "input.txt"
    path.write_text(input_text(s, 0, 0.25, single=True))
    assert main(["solve", "halma", "--move-time", "0.05", str(path)]) == 0
    assert main(["solve", "halma", str(path)]) == 0
    capsys.readouterr()
    _, given = spec.position_file(path.read_text())
    assert given is not None and 0.1 < given <= 0.25  # the input.txt's share of its time
    assert [limit.time for limit in limits] == [0.05, given]


def test_solve_answers_any_game_s_position_text(tmp_path, capsys) -> None:
    spec = find_game("checkers")
    game = spec.make()
    path = tmp_path / "position.txt"
    path.write_text(spec.notation.format_position(game.initial()) + "\n")
    assert main(["solve", "checkers", str(path), "--depth", "2"]) == 0
    text = capsys.readouterr().out.strip()
    assert spec.contest.judge(game, game.initial(), text, seat=0) in game.legal_moves(
        game.initial()
    )


def test_sprt_stops_the_match_once_it_decides(capsys) -> None:
    argv = ["match", "votey", "greedy", "random", "--sprt", "0,200", "--move-time", "0.05"]
    assert main([*argv, "--games", "40"]) == 0
    out = capsys.readouterr().out
    assert "SPRT accepts H1: greedy is at least 200 Elo stronger than random" in out
    played = [line for line in out.splitlines() if line.startswith("game ")]
    assert 6 <= len(played) < 40 and len(played) % 2 == 0  # whole pairs, stopped early
    assert "LLR" in out


def test_a_bad_sprt_is_a_one_line_error(capsys) -> None:
    assert main(["match", "votey", "greedy", "random", "--sprt", "10,0"]) == 1
    assert "elo0 must be below elo1" in capsys.readouterr().err


def test_match_openings_give_each_pair_one_start_and_replay(tmp_path, capsys) -> None:
    path = tmp_path / "games.jsonl"
    argv = ["match", "checkers", "greedy", "random", "--games", "4", "--openings", "6"]
    assert main([*argv, "--move-time", "0.05", "--record", str(path)]) == 0
    starts = [r.start for _, r in read_records(str(path))]
    assert starts[0] == starts[1] != starts[2] == starts[3] and None not in starts
    assert main(["replay", str(path)]) == 0
    assert "4 of 4 records verified" in capsys.readouterr().out


def test_log_dir_keeps_each_program_s_lines_and_the_verdict(tmp_path, capsys) -> None:
    program = f"{sys.executable} -m arbiter.cli agent votey --engine random"
    faulty = f"{program} --fault illegal --fault-ply 2"
    logs = tmp_path / "logs"
    argv = ["match", "votey", program, faulty, "--games", "1", "--move-time", "1"]
    assert main([*argv, "--names", "good", "bad", "--log-dir", str(logs)]) == 0
    good = (logs / "game-0001" / "1-good.log").read_text().splitlines()
    bad = (logs / "game-0001" / "2-bad.log").read_text().splitlines()
    assert any(" > " in line for line in bad) and any(" < " in line for line in bad)
    # what the bad program wrote last is the illegal move the verdict names
    last_written = [line.split(" < ")[1] for line in bad if " < " in line][-1]
    verdict = [line for line in bad if " ! " in line][-1]
    assert f"illegal votey move '{last_written}'" in verdict and "game over: 1-0" in verdict
    assert bad[-1].endswith("> -1")  # then the contest's last word to the offender
    # the good program's first line is its own move, then the bad one's move told to it
    moves = [line for line in good if " < " in line or " > " in line]
    assert " < " in moves[0] and " > " in moves[1]


def test_log_dir_keeps_all_of_a_program_s_standard_error_in_time_order(tmp_path) -> None:
    """Every line a program writes to stderr is in its transcript where it happened,
    not only the last few the process layer keeps for a crash message."""
    chatty = tmp_path / "chatty.py"
    chatty.write_text(
        "import sys, runpy\n"
        "for i in range(60):\n"
        "    print(f'thinking {i}', file=sys.stderr, flush=True)\n"
        "sys.argv = ['arbiter', 'agent', 'votey', '--engine', 'random', '--fault', 'illegal',"
        " '--fault-ply', '2', *sys.argv[1:]]\n"
        "runpy.run_module('arbiter.cli', run_name='__main__')\n"
    )
    program = f"{sys.executable} -m arbiter.cli agent votey --engine random"
    logs = tmp_path / "logs"
    argv = ["match", "votey", program, f"{sys.executable} {chatty}", "--games", "1"]
    assert main([*argv, "--move-time", "1", "--names", "good", "bad", "--log-dir", str(logs)]) == 0
    bad = (logs / "game-0001" / "2-bad.log").read_text().splitlines()
    errors = [line.split(" e ", 1)[1] for line in bad if " e " in line]
    assert errors == [f"thinking {i}" for i in range(60)]
    # written before its first move, so they come before what it wrote
    first_move = next(i for i, line in enumerate(bad) if " < " in line)
    assert max(i for i, line in enumerate(bad) if " e " in line) < first_move


def test_log_dir_keeps_the_standard_error_of_each_run_of_a_halma_program(tmp_path) -> None:
    chatty = tmp_path / "chatty.py"
    chatty.write_text(
        "import sys, runpy\n"
        "print('run', open('input.txt').read().split()[0], file=sys.stderr, flush=True)\n"
        "sys.argv = ['arbiter', 'agent', 'halma', '--engine', 'random']\n"
        "runpy.run_module('arbiter.cli', run_name='__main__')\n"
    )
    program = f"{sys.executable} {chatty}"
    logs = tmp_path / "logs"
    argv = ["match", "halma", program, program, "--games", "1", "--max-plies", "6"]
    assert main([*argv, "--names", "a", "b", "--log-dir", str(logs)]) == 0
    for name in ("1-a", "2-b"):
        log = (logs / "game-0001" / f"{name}.log").read_text().splitlines()
        assert [line.split(" e ", 1)[1] for line in log if " e " in line] == ["run GAME"] * 3


def test_an_engine_table_too_large_is_a_one_line_error(capsys) -> None:
    assert main(["match", "votey", "alphabeta:hash=100000", "random", "--games", "1"]) == 1
    err = capsys.readouterr().err
    assert "hash must be at most 4096" in err and err.count("\n") == 1


@pytest.mark.parametrize("name", game_names())
def test_solve_answers_for_the_seat_to_move_in_its_own_words(name: str, tmp_path, capsys) -> None:
    """A position with the second seat to move is answered in that seat's words (Chinese
    checkers numbers the holes from each player's side): its move text judged as the
    second seat's is a legal move there."""
    spec = find_game(name)
    game = spec.make()
    s = game.apply(game.initial(), game.legal_moves(game.initial())[0])
    assert game.to_move(s) == 1
    path = tmp_path / "position.txt"
    path.write_text(spec.notation.format_position(s) + "\n")
    assert main(["solve", name, str(path), "--depth", "1"]) == 0
    assert spec.contest.judge(game, s, capsys.readouterr().out, seat=1) in game.legal_moves(s)


def test_serve_refuses_a_database_that_is_not_there_and_makes_none(tmp_path, capsys) -> None:
    import socket

    missing = tmp_path / "none.db"
    with socket.socket() as busy:  # were the database made, the port would be refused
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        assert main(["serve", "--db", str(missing), "--port", port]) == 1
    assert f"no database {str(missing)!r}" in capsys.readouterr().err
    assert not missing.exists()


def test_solve_takes_a_position_inline(capsys) -> None:
    start = "......b/......./......./......./......./......./ww..... w 10 - -"
    assert main(["solve", "alquerque", start, "--depth", "2"]) == 0
    spec = find_game("alquerque")
    s = spec.notation.parse_position(start)
    spec.contest.judge(spec.make(), s, capsys.readouterr().out.strip(), seat=0)  # legal
    assert main(["solve", "votey", "nonsense"]) == 1
    err = capsys.readouterr().err
    assert "'nonsense': no such file, nor is it a position (invalid votey position" in err


def test_an_export_to_a_folder_that_is_not_there_is_one_line(tmp_path, capsys) -> None:
    db = str(tmp_path / "t.db")
    assert main(["tournament", "votey", "--agent", "random", "--agent", "greedy", "--db", db]) == 0
    capsys.readouterr()
    assert main(["export", db, "-o", str(tmp_path / "missing" / "dir" / "x.jsonl")]) == 1
    err = capsys.readouterr().err
    assert "cannot write" in err and "No such file or directory" in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_serve_says_a_busy_port_or_a_broken_database_before_listening(tmp_path, capsys) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 1
        out, err = capsys.readouterr()
        assert f"cannot listen on 127.0.0.1:{port}" in err and "listening" not in out
    broken = tmp_path / "broken.db"
    broken.write_text("not a database")
    assert main(["serve", "--db", str(broken)]) == 1
    out, err = capsys.readouterr()
    assert "is not an arbiter results database" in err and err.count("\n") == 1
    assert "listening" not in out


def test_a_reply_that_comes_while_the_referee_looks_is_late_and_kept(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    # the referee watches a program past its wall time before stopping it; a reply in
    # that look still loses on time, but it is said to be late, and by how much, and
    # its transcript keeps it
    monkeypatch.setattr("arbiter.referee.pipe.IDLE_LOOK", 30.0)
    program = "import time; time.sleep(2); print(1434, flush=True); time.sleep(100)"
    command = f"{sys.executable} -c '{program}'"
    argv = ["match", "votey", command, "random", "--games", "1", "--charge", "wall"]
    assert main([*argv, "--tc", "st=0.3", "--log-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "by time (replied " in out and "s late, after its 0.30s wall time)" in out, out
    late = float(out.split("by time (replied ")[1].split("s late")[0])
    assert 1.5 < late < 30, out
    logs = [p.read_text() for p in tmp_path.rglob("*") if p.is_file()]
    assert any("< 1434" in log and "late" in log for log in logs), logs


@pytest.mark.timing
def test_a_program_a_busy_machine_starves_is_said_to_be_starved_not_idle(capsys) -> None:
    # on one core, beside a loop of ordinary priority, the program at the lowest
    # priority (its own and its session's: the kernel groups a session's processes)
    # is runnable and gets next to no CPU: the machine's fault, not its own idleness
    loop = [sys.executable, "-c", "while True: pass"]
    hog = subprocess.Popen(["taskset", "-c", "0", *loop], start_new_session=True)
    starved = (
        "taskset -c 0 nice -n 19 sh -c 'echo 19 > /proc/self/autogroup 2>/dev/null; "
        f'exec {sys.executable} -c "while True: pass"\''
    )
    try:
        argv = ["match", "votey", starved, "random", "--games", "1", "--charge", "wall"]
        assert main([*argv, "--tc", "st=0.5"]) == 0
    finally:
        hog.kill()
        hog.wait()
    out = capsys.readouterr().out
    assert "(starved of CPU: runnable, but a busy machine gave it " in out, out


@pytest.mark.parametrize(
    ("program", "said"),
    [
        ("while True: pass", "(computing: "),
        ("import time; time.sleep(100)", "(idle: waiting for input, or output not flushed?)"),
    ],
)
def test_a_program_out_of_wall_time_is_said_to_compute_or_to_wait(
    program: str, said: str, capsys
) -> None:
    # its CPU since the move began says nothing on a busy machine; its share of a
    # core when it is stopped does
    command = f"{sys.executable} -c '{program}'"
    argv = ["match", "votey", command, "random", "--games", "1", "--charge", "wall"]
    assert main([*argv, "--tc", "st=0.3"]) == 0
    out = capsys.readouterr().out
    assert "by time (no reply within 0.30s wall time " + said in out


@pytest.mark.parametrize(
    ("game", "args", "why"),
    [
        ("alquerque", ["1"], "a CodeCup player is started with no arguments, not ['1']"),
        ("chinese-checkers", ["2"], "a mediator player is started with no arguments, not ['2']"),
        ("halma", ["x"], "a halma agent is run with no arguments, not ['x']"),
        ("votey", ["3"], "a votey program"),
        ("checkers", [], "checkers"),
    ],
)
def test_a_contest_program_started_with_the_wrong_arguments_says_so_in_one_line(
    game: str, args: list[str], why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["agent", game, *args]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("arbiter agent: error: ") and why in err, err
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize(
    ("game", "args", "flags", "clock"),
    [
        ("votey", ["1"], [], "1 s per move"),  # the contest's is a minute a move
        ("alquerque", [], [], "30 s per game"),  # the contest's own game clock
        ("votey", ["1"], ["--move-time", "3"], "3 s per move"),
        ("alquerque", [], ["--tc", "10"], "10 s per game"),
    ],
)
def test_a_built_in_program_keeps_the_clock_its_contest_or_its_options_give(
    game: str,
    args: list[str],
    flags: list[str],
    clock: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import io

    import arbiter.contract

    runs = instances(monkeypatch, arbiter.contract, "AgentRun")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # no game: it ends at once
    main(["agent", game, *args, *flags])
    assert [run.time_control.describe() for run in runs] == [clock], runs
