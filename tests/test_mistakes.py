"""Every mistake a user can make on the command line is answered with one line that
names what was wrong, never a traceback, and the right exit status: 1 for a mistake
found while running (a file, a program, a setting's value), 2 for one the command line
itself shows (an unknown flag, a number out of range). Each row is one mistake."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from arbiter.cli import main

VOTEY_RECORD = {
    "game": "votey",
    "players": ["a", "b"],
    "moves": [],
    "times": [],
    "winner": 0,
    "reason": "forfeit",
}

FILES = {
    "corrupt.db": b"garbage\x00\x01 not sqlite",
    "empty.jsonl": b"",
    "bad.jsonl": b"{not json\n",
    "votey.jsonl": json.dumps(VOTEY_RECORD).encode() + b"\n",
    "bad.pdn": b'[Event "unclosed\n1. 9-14 *\n',
    "results.db": b"SQLite format 3\x00" + bytes(84),
    "twins.toml": (
        b'[[agent]]\nname = "a"\nengine = "random"\n[[agent]]\nname = "a"\nengine = "greedy"\n'
    ),
    "crlf.py": b"#!/usr/bin/env python3\r\nprint(1)\r\n",
    "plain.py": b"#!/usr/bin/env python3\nprint(1)\n",  # readable, not executable
    "over.txt": b"01010101/10101010/01010101/00000000/00000000/00000000/00000000/00000000 2\n",
    "position.txt": b"not a position\n",
    "won.txt": b"......b./......../w..w..../......../....w.../......../......../........ b\n",
    "notoml.toml": b"game = \n",
    "chess.toml": b'game = "chess"\n',
    "zone.toml": b'game = "votey"\nopens = "2026-01-01T00:00"\n',
    "order.toml": (b'game = "votey"\nopens = "2026-02-01T00:00Z"\ncloses = "2026-01-01T00:00Z"\n'),
    "unknown.toml": b'game = "votey"\ncolour = "red"\n',
    "kind.toml": b'game = "votey"\n[format]\nkind = "knockout"\n',
    "rounds.toml": b'game = "votey"\n[format]\nkind = "swiss"\nrounds = 0\n',
    "top.toml": b'game = "votey"\n[final]\nrounds = 2\ntop = 1\n',
    "both.toml": b'game = "votey"\ndescription = "x"\ndescription_file = "x.md"\n',
    "nodesc.toml": b'game = "votey"\ndescription_file = "missing.md"\n',
    "every.toml": b'game = "votey"\n[schedule]\nevery = "soon"\n',
    "first.toml": b'game = "votey"\n[schedule]\nfirst = 2026-12-01T18:00:00Z\n',
    "firstzone.toml": b'game = "votey"\n[schedule]\nevery = "1h"\nfirst = 2026-12-01T18:00:00\n',
    "clock.toml": b'game = "votey"\nclock = "0"\n',
    "clocktable.toml": b'game = "votey"\n[clock]\ntc = "1"\n',
    "sprt.toml": b'game = "votey"\n[candidates]\nsprt = "x"\n',
    "language.toml": b'game = "votey"\n[languages.cobol]\nsuffixes = [".cob"]\n',
}


@pytest.fixture
def files(tmp_path: Path) -> Path:
    for name, data in FILES.items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "adir").mkdir()
    (tmp_path / "crlf.py").chmod(0o755)
    return tmp_path


MISTAKES: list[tuple[str, int, str]] = [
    # programs and agents
    ("match votey alphabeta no-such-program-xyz", 1, "no-such-program-xyz"),
    ("match votey alphabeta 'unbalanced", 1, "invalid command"),
    ("match votey alphabeta /nonexistent/agent", 1, "no such file"),
    ("match votey random {tmp}/adir", 1, "a directory, not a program"),
    ("check-agent votey {tmp}/adir", 1, "a directory, not a program"),
    ("match votey random {tmp}/crlf.py", 1, "has Windows line ends"),
    ("match votey random {tmp}/plain.py", 1, "plain.py': not an executable file"),
    ("check-agent votey ''", 1, "is neither a built-in engine"),
    ("match votey alphabeta:depth=1000 random", 1, "depth must be at most 64"),
    ("match votey alphabeta:depth random", 1, "option 'depth' needs a value (depth=N)"),
    ("match votey alphabeta:depth=x random", 1, "depth must be a whole number"),
    ("match votey greedy:depth=2 random", 1, "unknown option 'depth=2' for greedy"),
    ("match votey alphabeta:hash=0 random", 1, "hash must be a whole number >= 1"),
    ("match votey alphabeta:nodes=-5 random", 1, "nodes must be a whole number >= 1"),
    ("play votey --engine nosuch", 1, "unknown engine 'nosuch'"),
    ("agent votey 1 --engine nosuch", 1, "unknown engine 'nosuch'"),
    ("agent votey 3", 1, "PROGRAM 1 or PROGRAM 2"),
    ("play votey --as purple", 1, "unknown side 'purple'"),
    ("play halma --as purple", 1, "expected black or white"),
    # clocks, openings, SPRT, walls
    ("match votey random random --tc 0", 1, "leaves no time to move"),
    ("match votey random random --tc st=0", 1, "leaves no time to move"),
    ("match votey random random --tc 1:-30", 1, "'1:-30' is not a time"),
    ("match votey random random --tc 40/", 1, "'40/': nothing after '/' (as in 40/300"),
    ("match votey random random --tc 300+", 1, "'300+': nothing after '+' (as in"),
    ("match votey random random --max-plies 0", 1, "--max-plies must be at least 1"),
    ("match votey random random --tc abc", 1, "'abc' is not a time"),
    ("check-agent votey random --tc 0", 1, "leaves no time to move"),
    ("match votey random random --sprt bad", 1, "invalid SPRT 'bad'"),
    ("match votey random random --openings-file /nonexistent", 1, "cannot read openings"),
    ("match votey random random --openings-file {tmp}/won.txt", 1, "the game is already over"),
    ("match votey random random --expose /nonexistent", 1, "--expose: no such path"),
    ("match votey random random --log-dir /proc/no/logs", 1, "--log-dir: cannot write into"),
    ("tournament votey --agent random --agent greedy --log-dir /proc/no", 1, "--log-dir:"),
    ("match halma random random --dirs /nonexistent .", 1, "no directory"),
    # files: records, databases, positions, kits
    ("match votey random random --record /nonexistent/x.jsonl", 1, "cannot write"),
    ("replay /nonexistent/games.jsonl", 1, "cannot read"),
    ("replay {tmp}/empty.jsonl", 1, "holds no game records"),
    ("replay {tmp}/adir", 1, "Is a directory"),
    ("replay {tmp}/bad.pdn", 1, 'a "[" that does not open a tag pair'),
    ("replay /nonexistent/contest.tar.gz", 1, "--public-key"),
    ("replay x.jsonl --public-key /nonexistent/contest.pub", 1, "cannot read public"),
    ("export /nonexistent/t.db", 1, "no database"),
    ("export {tmp}/corrupt.db", 1, "is not an arbiter results database"),
    ("export {tmp}/adir", 1, "is a directory, not a results database"),
    ("export {tmp}/bad.jsonl", 1, "bad.jsonl:1: not JSON"),
    ("export {tmp}/empty.jsonl", 1, "holds no game records"),
    ("export {tmp}/votey.jsonl --format pdn", 1, "PDN is for checkers"),
    ("export {tmp}/votey.jsonl -o /nonexistent/dir/x.pgn --format pgn", 1, "cannot write"),
    ("export {tmp}/corrupt.db -o {tmp}/corrupt.db", 1, "is the file being exported"),
    ("export {tmp}/votey.jsonl -o {tmp}/votey.jsonl", 1, "is the file being exported"),
    ("export {tmp}/votey.jsonl -o {tmp}/results.db", 1, "is a database: an export never"),
    ("report /nonexistent/t.db", 1, "no database"),
    ("report {tmp}/corrupt.db", 1, "is not an arbiter results database"),
    ("report {tmp}/adir", 1, "is a directory, not a results database"),
    ("tournament votey --agent random --agent greedy --db {tmp}/corrupt.db", 1, "results database"),
    ("tournament votey --agents {tmp}/twins.toml", 1, "the name 'a' is agent 1's too"),
    ("tournament votey --agent random", 1, "needs two agents or more (--agent SPEC, or --agents"),
    ("perft votey 2 --position bad", 1, "expected 8 rows joined by '/' and 'b' or 'w'"),
    ("perft checkers 2 --position bad", 1, "expected 8 rows joined by '/' and '1' or '2'"),
    ("solve halma /nonexistent/input.txt", 1, "cannot read"),
    ("solve votey", 1, "give the votey position: its one-line text, a file holding it"),
    ("solve halma {tmp}/empty.jsonl", 1, "is empty: it should hold a halma position"),
    ("solve checkers {tmp}/over.txt", 1, "game is over in that position: won by red (no pieces)"),
    ("replay {tmp}/results.db", 1, "is a results database: arbiter export"),
    ("solve votey {tmp}/adir", 1, "Is a directory"),
    ("solve votey {tmp}/position.txt", 1, "invalid votey position"),
    ("kit votey cobol", 1, "no votey kit in 'cobol'"),
    ("kit chess python", 1, "unknown game 'chess'"),
    ("kit votey python /proc/no/kit", 1, "cannot write the kit into"),
    ("serve --config /nonexistent/agents.toml", 1, "cannot read agents from"),
    # the contest server and its workers
    ("host /nonexistent/cup.toml", 1, "cannot read contest file"),
    ("host {tmp}/adir", 1, "cannot read contest file"),
    ("host {tmp}/notoml.toml", 1, "is not TOML"),
    ("host {tmp}/chess.toml", 1, "game must be one of"),
    ("host {tmp}/zone.toml", 1, "has no time zone"),
    ("host {tmp}/order.toml", 1, "closes must come after opens"),
    ("host {tmp}/unknown.toml", 1, "unknown setting 'colour'"),
    ("host {tmp}/kind.toml", 1, "kind must be one of"),
    ("host {tmp}/rounds.toml", 1, "rounds must be a whole number from"),
    ("host {tmp}/top.toml", 1, "top must be 0 (no round robin) or at least 2"),
    ("host {tmp}/both.toml", 1, "give description or description_file, not both"),
    ("host {tmp}/nodesc.toml", 1, "description_file 'missing.md'"),
    ("host {tmp}/every.toml", 1, "[schedule]: every:"),
    ("host {tmp}/first.toml", 1, "[schedule]: first needs every"),
    ("host {tmp}/firstzone.toml", 1, "[schedule]: first: 2026-12-01T18:00:00 has no time zone"),
    ("host {tmp}/clock.toml", 1, "clock:"),
    ("host {tmp}/clocktable.toml", 1, "clock must be a string"),
    ("host {tmp}/sprt.toml", 1, "[candidates]: sprt:"),
    ("host {tmp}/language.toml", 1, "run must name the command"),
    ("worker notaurl --token x", 1, "'notaurl' is not a server's address"),
    ("worker ftp://host/ --token x", 1, "is not a server's address"),
    ("worker http://127.0.0.1:9", 2, "a worker needs its token"),
    # the command line itself
    ("", 2, "the following arguments are required: COMMAND"),
    ("nosuch", 2, "invalid choice: 'nosuch'"),
    ("match chess a b", 2, "invalid choice: 'chess'"),
    ("match votey a b --games 0", 2, "'0' must be from 1"),
    ("match votey a b --games 99999999999999999999", 2, "must be from 1"),
    ("match votey a b --move-time -1", 2, "must be a positive number"),
    ("match votey a b --depth 1000", 2, "--depth"),
    ("match votey random random --plain-draws", 2, "unrecognized arguments: --plain-draws"),
    ("match votey random random --concurrency 0", 2, "must be at least 1"),
    ("match votey random random --openings 3 --openings-file x", 2, "not allowed with"),
    ("match votey random random --isolation moon", 2, "invalid choice: 'moon'"),
    ("match votey random random --disk-limit x", 2, "'x' is not a number"),
    ("match votey random random --network maybe", 2, "unrecognized arguments: maybe"),
    ("tournament votey --agent a --agent b --format knockout", 2, "invalid choice"),
    ("tournament votey --agent a --agent b --seed -1", 2, "'-1' must be 0 or more"),
    ("tournament votey --config /nonexistent.toml", 2, "unrecognized arguments: --config"),
    ("perft votey -1", 2, "'-1' must be from 1 to 30"),
    ("perft votey 99", 2, "'99' must be from 1 to 30"),
    ("perft votey 2 --position", 2, "expected one argument"),
    ("solve votey --move-time -1", 2, "must be a positive number"),
    ("serve --port 0", 2, "'0' must be from 1 to 65535"),
    ("serve --port 70000", 2, "must be from 1 to 65535"),
    ("report", 2, "the following arguments are required: DB"),
    ("host", 2, "the following arguments are required: CONTEST.toml"),
    ("agent nosuch", 2, "invalid choice: 'nosuch'"),
]


def test_the_table_covers_every_command() -> None:
    from arbiter.cli import COMMANDS

    assert len(MISTAKES) >= 80
    named = {words.split()[0] for words, _, _ in MISTAKES if words}
    assert named >= set(COMMANDS) - {"doctor"}  # doctor takes nothing to get wrong


@pytest.mark.parametrize(("words", "status", "message"), MISTAKES, ids=[m[0] for m in MISTAKES])
def test_a_mistake_is_one_line_naming_it(
    words: str,
    status: int,
    message: str,
    files: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("ARBITER_WORKER_TOKEN", raising=False)
    monkeypatch.delenv("ARBITER_PASSWORD", raising=False)
    argv = words.replace("{tmp}", str(files)).split()  # no row has a space in a word
    try:
        code = main(argv)
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    assert code == status, err
    assert message in err, err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert "Traceback" not in err + out


AGENT_INPUT: list[tuple[str, str, str]] = [
    ("agent checkers 2", "hello\n", "'hello' is not a board row of 8 digits 0-4"),
    ("agent checkers 1", "00000000\n", "input ended after 1 of 8 rows"),
    ("agent checkers 1", "0101010x\n", "'0101010x' is not a board row of 8 digits 0-4"),
    ("agent votey 2", "hello\n", "bad opponent move"),
    ("agent alquerque", "hello\n", "bad move from the jury"),
    ("agent chinese-checkers", "hello\n", "expected 1 or 2 first"),
]


@pytest.mark.parametrize(
    ("words", "given", "message"), AGENT_INPUT, ids=[m[0] for m in AGENT_INPUT]
)
def test_a_line_an_agent_cannot_read_is_one_line_and_status_1(
    words: str,
    given: str,
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(given))
    try:
        code = main(words.split())
    except SystemExit as e:
        code = e.code
    assert code == 1
    _, err = capsys.readouterr()
    assert message in err and err.count("\n") == 1, err


def test_a_program_found_on_path_with_windows_line_ends_is_named_so(
    files: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # found by its bare name on PATH, as well as by a path: the same one line
    monkeypatch.setenv("PATH", f"{files}{os.pathsep}{os.environ['PATH']}")
    assert main(["match", "votey", "random", "crlf.py"]) == 1
    err = capsys.readouterr().err
    assert "has Windows line ends" in err and err.count("\n") == 1, err
