"""A whole contest in a real headless Chromium, CodeCup's way: a contest page that says
everything, uploads refused once the calendar closes them, a game watched move by
move while it is played, a contestant debugging their own irregular game from its
replay (and not another's), a candidate tested against the field without touching
the standings, and a final of Swiss then a top-4 double round robin ranked by
contest points with the tie-break named.

The irregular game is a time loss: ``alice``'s program thinks half a second a move
for a few moves, on a contest clock of 3 s a game, and passes the gate because the
gate plays on ``check_clock`` (60 s). CI installs Chromium and requires these tests.
"""

from __future__ import annotations

import itertools
import json
import re
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from playwright.sync_api import expect

from tests.chromium import launch, skip_without_chromium
from tests.host.running import contest_server, csrf
from tests.host.running import person as client_of
from tests.host.running import upload as upload_by_form
from tests.host.test_browser import person, shoot, sign_in

KIT = Path(__file__).parents[2] / "src" / "arbiter" / "games" / "alquerque" / "kits" / "python"

pytestmark = skip_without_chromium

SLEEPY = (
    "    global thought\n    thought += 1\n    if 4 <= thought <= 11:\n        time.sleep(0.5)\n"
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launch() as chromium:
        yield chromium


def sleepy_kit() -> bytes:
    """The Python kit, thinking half a second on each of its moves 4 to 11."""
    text = (KIT / "main.py").read_text()
    text = text.replace("import random\n", "import random\nimport time\n\nthought = 0\n", 1)
    text = text.replace(
        '    """The move to play: here the longest capture, else any move."""\n',
        '    """The move to play: here the longest capture, else any move."""\n' + SLEEPY,
        1,
    )
    assert "time.sleep" in text
    return text.encode()


def accepted(client: httpx.Client, version: int, timeout: float = 180) -> None:
    """Waits for a version's gate (its page reloads itself in a browser)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = client.get(f"/api/versions/{version}").json()
        if state["state"] in ("accepted", "refused"):
            assert state["state"] == "accepted", state["reason"]
            return
        time.sleep(0.5)
    raise AssertionError(f"version {version} still {state['state']}")


def round_done(client: httpx.Client, number: int, timeout: float = 240) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rounds = client.get("/api/standings").json()["rounds"]
        if any(r["number"] == number and r["state"] == "done" for r in rounds):
            return
        time.sleep(0.5)
    raise AssertionError(f"round {number} not done: {rounds}")


def post(client: httpx.Client, path: str, **form: str) -> httpx.Response:
    return client.post(path, data={"csrf": csrf(client, "/organiser"), **form})


@pytest.mark.early
def test_a_whole_contest_from_the_contestants_and_the_organisers_browsers(
    browser: Any, tmp_path: Path
) -> None:
    text = """name = "Final Cup"
game = "alquerque"
clock = "3"
check_clock = "60"
description = "# The Final Cup\\n\\nWin **everything**."
[format]
kind = "round-robin"
[final]
rounds = 1
top = 4
[candidates]
previous_pairs = 2
[workers]
local = 2
[schedule]
every = "1h"
"""
    # the schedule's first test round is tomorrow: today's are started by hand
    first = (datetime.now(UTC) + timedelta(days=1)).replace(second=0, microsecond=0)
    text += f"first = {first.strftime('%Y-%m-%dT%H:%M:%SZ')}\n"
    with contest_server(tmp_path, text) as (url, _):
        kit = (KIT / "main.py").read_bytes()
        clients = {}
        for name in ("alice", "bob", "carol", "dave", "erin"):
            clients[name] = client_of(url, name)
        versions = {
            name: upload_by_form(c, "main.py", sleepy_kit() if name == "alice" else kit, "python")
            for name, c in clients.items()
        }
        for name, version in versions.items():
            accepted(clients[name], version)
        boss = client_of(url, "boss", register=False)

        # the standings say when the schedule starts the first test round
        watcher = person(browser, url)
        watcher.goto("/")
        when = first.strftime("%Y-%m-%d %H:%M UTC")
        expect(watcher.locator("#next-round")).to_have_text(
            f"The next test round starts at {when}."
        )
        watcher.goto("/contest")
        expect(watcher.locator("#calendar")).to_contain_text(f"every 1 hour from {when}")
        # a test round; alice's games are slow enough to be watched move by move
        assert post(boss, "/organiser/rounds").status_code == 303
        live = None
        deadline = time.monotonic() + 120
        while live is None and time.monotonic() < deadline:
            for game_id in range(1, 21):
                data = boss.get(f"/api/contest/games/{game_id}").json()
                playing = data.get("live") and any("alice" in p for p in data["players"])
                if playing and 1 <= len(data["frames"]) - 1 <= 8:
                    live = game_id
                    break
            time.sleep(0.2)
        assert live is not None, "no game of alice's was seen being played"
        watcher.goto(f"/games/{live}")
        expect(watcher.locator("#result")).to_contain_text("being played by")
        seen = watcher.locator("#moves li").count()
        expect(watcher.locator("#moves li")).not_to_have_count(seen, timeout=20_000)
        shoot(watcher, "live-game")
        # the game ends on the page that watched it: alice's move that came too late
        expect(watcher.locator("#result")).to_contain_text("Result:", timeout=30_000)
        expect(watcher.locator("#fault")).to_contain_text("time")
        assert watcher.locator("#logs a").count() == 0  # an anonymous watcher: no logs
        round_done(boss, 1)

        # alice debugs: her irregular games, one's replay with her transcript beside it
        alice = person(browser, url)
        sign_in(alice, "alice")
        alice.goto("/me")
        irregular = alice.locator("#irregular tbody tr")
        assert irregular.count() >= 1 and "time" in irregular.first.text_content()
        alice.locator("#irregular a[href^='/games/']").first.click()
        expect(alice.locator("#seat-log-box")).to_be_visible()
        expect(alice.locator("#contest-back a")).to_have_attribute("href", "/")
        alice.click("#fault")
        expect(alice.locator("#status")).to_contain_text("time")
        expect(alice.locator("#seat-log")).to_contain_text("game over")
        alice.click('#moves li[data-ply="1"]')
        expect(alice.locator("#seat-log")).not_to_contain_text("game over")
        expect(alice.locator("#seat-log")).to_contain_text("! reply 1,")
        shoot(alice, "own-transcript")
        game = alice.url.rsplit("/", 1)[1]
        seat = 1 if "alice" in alice.locator("#players").text_content().split(" vs ")[0] else 2
        # at her own move the part up to that move's reply, at the other's move what
        # she was sent since her last reply: her second move (ply seat + 2) and the
        # move before it both show the second part of her transcript
        for ply in (seat + 1, seat + 2):
            alice.click(f'#moves li[data-ply="{ply}"]')
            expect(alice.locator("#seat-log")).to_contain_text("! reply 2,")
            expect(alice.locator("#seat-log")).not_to_contain_text("! reply 1,")
        bob = person(browser, url)
        sign_in(bob, "bob")
        assert bob.goto(f"/games/{game}/logs/{seat}").status == 404  # not bob's to open
        assert alice.goto(f"/games/{game}/logs/{seat}").status == 200

        # bob tests a candidate against the field: the standings do not move
        before = json.loads(watcher.goto("/api/standings").text())["rows"]
        bob.goto("/me")
        bob.select_option("select[name=language]", "python")
        bob.set_input_files("input[name=source]", str(KIT / "main.py"))
        bob.check("input[name=trial]")
        bob.click("form[action='/versions'] button")
        bob.wait_for_url("**/versions/*")
        expect(bob.locator("#state")).to_have_text(re.compile("^accepted"), timeout=120_000)
        expect(bob.locator("#trial")).to_be_visible()
        bob.click("#evaluate")
        expect(bob.locator("h3", has_text="Evaluation 1: done")).to_be_visible(timeout=120_000)
        assert bob.locator("table.evaluation tbody tr").count() == 5  # four others, his own
        expect(bob.locator("p.sprt")).to_contain_text("against your current version")
        shoot(bob, "candidate")
        after = json.loads(watcher.goto("/api/standings").text())["rows"]
        assert after == before
        # which of bob's versions plays, on his page and the public one
        for page, path in ((bob, "/me"), (watcher, "/contestants/bob")):
            page.goto(path)
            marks = page.locator("td[data-mark]")
            expect(marks).to_have_count(2)
            said = sorted(marks.all_text_contents())
            assert said == ["accepted, candidate (not entered)", "accepted, playing"], said
        # the evaluation's games are bob's own, apart and labelled: no one else's page
        # lists them, nor his public list
        bob.goto("/contestants/bob")
        listed = bob.locator("#candidate-list tbody tr")
        assert listed.count() >= 5 and "bob v2" in listed.first.text_content()
        for page, name in ((watcher, "bob"), (watcher, "carol"), (alice, "bob")):
            page.goto(f"/contestants/{name}")
            assert page.locator("#candidate-list").count() == 0
            rounds = page.locator("#game-list tbody tr td:nth-child(2)").all_text_contents()
            assert rounds and all(not r.startswith("-") for r in rounds), rounds
        shoot(bob, "candidate-games")

        # the final: begun by the organiser (asked to confirm), Swiss, then the top 4,
        # each round started by the schedule once the last ends
        organiser = person(browser, url)
        sign_in(organiser, "boss")
        organiser.goto("/organiser")
        organiser.click("form[action='/organiser/begin-final'] button")
        expect(organiser.locator("#consequence")).to_contain_text("The final begins now")
        organiser.click("#confirm")
        expect(organiser.locator("#audit")).to_contain_text("begin-final")
        bob.goto("/me")
        expect(bob.locator("td[data-mark='frozen for the final']")).to_have_count(1)
        for number in (2, 3):  # the schedule plays the final's rounds one after another
            round_done(boss, number)
        organiser.goto("/organiser")
        expect(organiser.locator("#no-round")).to_contain_text("the final has been played")
        rounds = organiser.locator("#round-list").text_content()
        assert "round 2 (final, swiss): done" in rounds
        assert re.search(r"round 3 \(final, round-robin\): done, 12 games", rounds)
        assert "candidate evaluation 1" in rounds
        shoot(organiser, "organiser-final")

        watcher.goto("/")
        expect(watcher.locator("#ranking")).to_contain_text(
            "Ranked by contest points, then fewer irregular losses, then rating."
        )
        table = json.loads(watcher.goto("/api/standings").text())
        assert table["phase"] == "final"
        points = [r["contest_points"] for r in table["rows"]]
        assert points == sorted(points, reverse=True)
        ties = [(r["contest_points"], r["faults"]) for r in table["rows"]]
        assert all(a[1] <= b[1] for a, b in itertools.pairwise(ties) if a[0] == b[0])
        # a person plays an entrant's program on the contest's board, behind its walls
        alice.goto("/contestants/bob")
        alice.select_option("#play-entrant select[name=side]", "first")
        alice.click("#play-entrant button")
        alice.wait_for_url("**/play/*")
        alice.wait_for_selector("g.cell.movable")
        alice.click("g.cell.movable .hit >> nth=0", force=True)
        alice.wait_for_selector("g.cell.target")
        alice.click("g.cell.target .hit >> nth=0", force=True)
        # bob's program answers through the referee: two moves listed, alice to move
        expect(alice.locator("#moves li")).to_have_count(2, timeout=20_000)
        expect(alice.locator("#status")).to_contain_text("Your move")
        shoot(alice, "versus-entrant")
        for page in (watcher, alice, bob, organiser):
            assert not page.errors, page.errors


def test_a_closed_contest_says_so_and_refuses_an_upload_with_its_reason(
    browser: Any, tmp_path: Path
) -> None:
    closes = (datetime.now(UTC) - timedelta(hours=1)).replace(microsecond=0)
    text = (
        'name = "Closed Cup"\ngame = "votey"\n'
        f'closes = "{closes.isoformat()}"\n'
        'description = "Rules **first**."\n[workers]\nlocal = 0\n'
    )
    with contest_server(tmp_path, text) as (url, _):
        client_of(url, "zoe")
        page = person(browser, url)
        sign_in(page, "zoe")
        expect(page.locator("#uploads-shut")).to_contain_text("uploads closed at")
        answer = page.request.post(
            f"{url}/versions",
            multipart={
                "csrf": page.get_attribute("meta[name=csrf-token]", "content"),
                "language": "python",
                "source": {"name": "main.py", "mimeType": "text/plain", "buffer": b"print(1)\n"},
            },
        )
        assert answer.status == 400
        assert "upload refused: uploads closed at" in answer.text()
        page.goto("/contest")
        expect(page.locator("#description strong")).to_have_text("first")
        expect(page.locator("#clock")).to_contain_text("60 s per move")
        expect(page.locator("#clock")).to_contain_text("CPU time")
        expect(page.locator("#calendar")).to_contain_text("Uploads closed at")
        python = page.locator("#languages tr[data-language=python]")
        expect(python).to_contain_text("python3")
        c = page.locator("#languages tr[data-language=c]")
        expect(c.locator("td").nth(2)).to_contain_text("gcc")
        expect(page.locator("#public-key")).to_contain_text("BEGIN PUBLIC KEY")
        shoot(page, "contest-page")
        assert not page.errors, page.errors
