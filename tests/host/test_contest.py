"""A whole contest on a real server: the organiser made from the command line, three
contestants registering over HTTP, two starter kits (Python and C) accepted by the
gate and a broken program refused with its reason, a Swiss round played by the
server's own local workers, standings and replays published; and what one
contestant may not see of another's, and a form without its CSRF token, refused."""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from tests.host.running import (
    contest_server,
    csrf,
    descendants,
    kill_a_worker_mid_game,
    person,
    settled,
    upload,
)

KITS = Path(__file__).parents[2] / "src" / "arbiter" / "games" / "alquerque" / "kits"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("contest")
    text = (
        'name = "Test Cup"\ngame = "alquerque"\n[format]\nkind = "swiss"\nrounds = 3\n'
        "[workers]\nlocal = 2\nlease_seconds = 6\n"
    )
    with contest_server(folder, text) as (url, _):
        yield url, folder


@pytest.fixture(scope="module")
def contest(server: tuple[str, Path]) -> dict[str, Any]:
    """Three entrants, their versions settled, and round 1 played."""
    url, _ = server
    alice, bob, carol = (person(url, n) for n in ("alice", "bob", "carol"))
    versions = {
        "alice": upload(alice, "main.py", (KITS / "python" / "main.py").read_bytes()),
        "bob": upload(bob, "main.c", (KITS / "c" / "main.c").read_bytes()),
        # a C program that builds and exits at once: the gate refuses it
        "carol": upload(carol, "main.c", b"int main(void) { return 0; }\n"),
    }
    states = {
        name: settled(client, versions[name])
        for name, client in (("alice", alice), ("bob", bob), ("carol", carol))
    }
    boss = person(url, "boss", register=False)
    made = boss.post("/organiser/rounds", data={"csrf": csrf(boss, "/organiser")})
    assert made.status_code == 303, made.text[:500]
    deadline = time.monotonic() + 240
    while True:
        table = alice.get("/api/standings").json()
        if table["rounds"] and table["rounds"][0]["state"] == "done":
            break
        assert time.monotonic() < deadline, table
        time.sleep(0.5)
    return {
        "clients": {"alice": alice, "bob": bob, "carol": carol, "boss": boss},
        "versions": versions,
        "states": states,
        "table": table,
    }


def test_starter_kits_pass_the_gate_and_a_broken_program_is_refused_with_its_reason(
    contest: dict[str, Any],
) -> None:
    states = contest["states"]
    assert states["alice"]["state"] == "accepted", states["alice"]
    assert states["bob"]["state"] == "accepted", states["bob"]
    refused = states["carol"]
    assert refused["state"] == "refused"
    assert "first seat" in refused["reason"] and "crash" in refused["reason"], refused
    failed = [c for c in refused["checks"] if not c["passed"]]
    assert failed and all("crash" in c["verdict"] for c in failed)
    page = contest["clients"]["carol"].get(f"/versions/{contest['versions']['carol']}")
    assert page.status_code == 200 and "FAIL: first seat" in page.text


def test_a_round_is_played_and_its_standings_and_replays_are_published(
    contest: dict[str, Any],
) -> None:
    table = contest["table"]
    rows = {row["name"]: row for row in table["rows"]}
    # two entrants (carol was refused): one pairing, both colours, every game once
    assert set(rows) == {"alice", "bob"}
    assert rows["alice"]["games"] == rows["bob"]["games"] == 2
    assert table["games"] == 2
    assert rows["alice"]["points"] + rows["bob"]["points"] == 2
    # the contest's own 12-0 scoring is shown
    assert table["contest_scored"]
    bob = contest["clients"]["bob"]
    page = bob.get("/contestants/alice")
    ids = sorted(set(re.findall(r'href="/games/(\d+)\?contest=', page.text)))
    assert len(ids) == 2
    for game_id in ids:
        replay = bob.get(f"/api/contest/games/{game_id}").json()
        assert replay["game"] == "alquerque" and len(replay["frames"]) > 1
        assert len(replay["times"]) == len(replay["frames"]) - 1
        # bob sees his own program's stderr link, never alice's
        seat_of_bob = [p.startswith("bob") for p in replay["players"]]
        assert [link is not None for link in replay["logs"]] == seat_of_bob


def test_a_contestant_cannot_open_anothers_sources_logs_or_checks(
    contest: dict[str, Any],
) -> None:
    bob = contest["clients"]["bob"]
    theirs = contest["versions"]["alice"]
    for path in (f"/versions/{theirs}", f"/versions/{theirs}/source", f"/api/versions/{theirs}"):
        assert bob.get(path).status_code == 404, path
    mine = contest["versions"]["bob"]
    assert bob.get(f"/versions/{mine}/source").content == (KITS / "c" / "main.c").read_bytes()
    page = bob.get("/contestants/alice")
    game_id = re.findall(r'href="/games/(\d+)\?contest=', page.text)[0]
    replay = bob.get(f"/api/contest/games/{game_id}").json()
    alice_seat = 1 + [p.startswith("alice") for p in replay["players"]].index(True)
    assert bob.get(f"/games/{game_id}/logs/{alice_seat}").status_code == 404
    assert bob.get(f"/games/{game_id}/logs/{3 - alice_seat}").status_code == 200
    # nobody logged in sees no one's
    anonymous = httpx.Client(base_url=str(bob.base_url), timeout=30)
    assert anonymous.get(f"/versions/{mine}/source").status_code == 404
    # a contestant is not the organiser
    assert bob.get("/organiser").status_code == 403
    # and the organiser is no contestant: no page of entrant's, no records
    for path in ("/contestants/boss", "/contestants/boss/games.jsonl"):
        refused = anonymous.get(path)
        assert refused.status_code == 404 and "no contestant" in refused.text, path


def test_a_form_without_its_csrf_token_is_refused(contest: dict[str, Any]) -> None:
    boss = contest["clients"]["boss"]
    for data in ({}, {"csrf": "forged"}):
        done = boss.post("/organiser/pause", data=data)
        assert done.status_code == 403, done.text[:300]
        assert "CSRF" in done.text
    settings = boss.get("/organiser")
    assert "Pause play" in settings.text  # the forged request changed nothing


def test_a_worker_killed_mid_game_loses_no_result_and_its_game_is_played_again(
    server: tuple[str, Path], contest: dict[str, Any]
) -> None:
    import sqlite3

    _, folder = server
    boss = contest["clients"]["boss"]
    database = sqlite3.connect(folder / "cup.db")
    assert (
        boss.post("/organiser/rounds", data={"csrf": csrf(boss, "/organiser")}).status_code == 303
    )
    game_id = kill_a_worker_mid_game(folder / "cup.db", 2)
    deadline = time.monotonic() + 120
    while True:
        table = boss.get("/api/standings").json()
        if len(table["rounds"]) == 2 and table["rounds"][1]["state"] == "done":
            break
        assert time.monotonic() < deadline, table
        time.sleep(0.5)
    games = database.execute(
        "SELECT games.id, games.state, attempts FROM games JOIN rounds ON rounds.id = round_id "
        "WHERE rounds.number = 2"
    ).fetchall()
    assert games and all(state == "done" for _, state, _ in games)
    assert dict((g, a) for g, _, a in games)[game_id] >= 2  # played again elsewhere
    # each game of the two rounds counted once in the standings
    assert table["games"] == 2 + len(games)


ATTACK = """
import os, socket, sys

def attempt(what, action):
    try:
        action()
        return "REACHED " + what
    except Exception as e:
        return "blocked " + what + " (" + type(e).__name__ + ")"

results = [
    attempt("database", lambda: open({database!r}, "rb").read(16)),
    attempt("key", lambda: open({key!r}).read()),
    attempt("sources", lambda: open({source!r}).read()),
    attempt("listing", lambda: os.listdir({folder!r})),
    attempt("network", lambda: socket.create_connection(("127.0.0.1", {port}), timeout=3)),
    attempt("signal", lambda: os.kill({pid}, 0)),
]
print("; ".join(results), file=sys.stderr)
sys.exit(1)
"""


def test_a_submitted_program_that_attacks_the_server_reaches_none_of_it(
    server: tuple[str, Path], contest: dict[str, Any]
) -> None:
    """Its build and its checks run behind the walls of play: it cannot read the
    database, the key that signs sessions, another contestant's sources, list the
    contest's folder, open the network or signal the server."""
    url, folder = server
    port = int(url.rsplit(":", 1)[1])
    server_pid = next(  # this test's server, a child of this process
        p.pid for p, line in descendants() if "--port" in line and str(port) in line
    )
    alice_version = contest["versions"]["alice"]
    source = ATTACK.format(
        database=str(folder / "cup.db"),
        key=str(folder / "cup-data" / "secret.key"),
        source=str(folder / "cup-data" / "versions" / str(alice_version) / "source" / "main.py"),
        folder=str(folder / "cup-data"),
        port=port,
        pid=server_pid,
    )
    # the paths are real: the referee's own user can read them
    assert (folder / "cup-data" / "secret.key").exists()
    mallory = person(url, "mallory")
    version = upload(mallory, "main.py", source.encode())
    report = settled(mallory, version)
    assert report["state"] == "refused"
    said = "\n".join(line for c in report["checks"] for line in c["transcript"])
    for what in ("database", "key", "sources", "listing", "network", "signal"):
        assert f"blocked {what}" in said, said
    assert "REACHED" not in said


def test_a_request_larger_than_any_upload_is_refused_unread(contest: dict[str, Any]) -> None:
    alice = contest["clients"]["alice"]
    huge = b"x" * (3 << 20)  # past the 1 MB upload limit and the 2 MB floor
    done = alice.post(
        "/versions",
        data={"csrf": csrf(alice, "/me"), "language": "c"},
        files={"source": ("main.c", huge)},
    )
    assert done.status_code == 413
    before = len(alice.get("/me").text)
    small = alice.post(  # within the body limit, past the contest's upload limit
        "/versions",
        data={"csrf": csrf(alice, "/me"), "language": "c"},
        files={"source": ("main.c", b"x" * (1100 << 10))},
    )
    assert small.status_code == 400 and "larger than the limit of 1.0 MB" in small.text
    assert len(alice.get("/me").text) == before  # no version was made


def test_an_address_holds_a_few_live_pages_and_no_more(server: tuple[str, Path]) -> None:
    url, _ = server
    with contextlib.ExitStack() as held, httpx.Client(base_url=url, timeout=30) as client:
        # eight, as the README promises
        streams = [held.enter_context(client.stream("GET", "/api/events")) for _ in range(8)]
        assert all(s.status_code == 200 for s in streams)
        with client.stream("GET", "/api/events") as refused:
            assert refused.status_code == 429
            assert "live pages" in refused.read().decode()
    # closed, they are counted out: a page opens again
    with httpx.Client(base_url=url, timeout=30) as client:
        deadline = time.monotonic() + 30
        while True:
            with client.stream("GET", "/api/events") as again:
                if again.status_code == 200:
                    break
            assert time.monotonic() < deadline, "the closed streams were never counted out"
            time.sleep(0.5)


def test_a_live_page_hears_the_standings_when_they_change(server: tuple[str, Path]) -> None:
    url, _ = server
    boss = person(url, "boss", register=False)
    with (
        httpx.Client(base_url=url, timeout=30) as client,
        client.stream("GET", "/api/events") as live,
    ):
        assert live.status_code == 200
        assert live.headers["content-type"].startswith("text/event-stream")
        assert live.headers["x-frame-options"] == "DENY"  # the server's headers too
        lines = live.iter_lines()
        assert next(lines) == "retry: 2000"
        for action in ("pause", "resume"):  # news: the standings are computed again
            data = {"csrf": csrf(boss, "/organiser"), "confirm": "yes"}
            done = boss.post(f"/organiser/{action}", data=data)
            assert done.status_code == 303
        deadline = time.monotonic() + 30
        event = ""
        for line in lines:
            if line.startswith("event: "):
                event = line.removeprefix("event: ")
            if line.startswith("data: "):
                assert event == "standings" and "rows" in json.loads(line[6:])
                break
            assert time.monotonic() < deadline, "no standings reached the live page"
        assert client.post("/api/events").status_code == 405


def test_logging_out_ends_a_copied_session_on_the_server(server: tuple[str, Path]) -> None:
    url, _ = server
    dave = person(url, "dave")
    with httpx.Client(base_url=url, timeout=30, cookies=dave.cookies) as thief:
        assert thief.get("/me").status_code == 200
        assert dave.post("/logout", data={"csrf": csrf(dave, "/me")}).status_code == 303
        assert thief.get("/me").status_code == 401
