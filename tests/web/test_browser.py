"""The pages in a real headless Chromium (Debian's, driven by Playwright): every board
played by clicking, capture and hop chains entered landing by landing, a replay
stepped with the keyboard, standings following a tournament as it runs. Screenshots
of each board, at desktop and phone widths, go to ``build/screenshots`` (or
``$ARBITER_SCREENSHOTS``).

CI installs Chromium and sets ``ARBITER_BROWSER_TESTS=required``, so there these
tests run or fail, never skip; elsewhere they skip when no Chromium is installed.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from arbiter.contract.probes import find_position
from arbiter.games import find_game, game_names
from arbiter.web.app import create_app
from tests.chromium import SHOTS, launch, skip_without_chromium

pytestmark = skip_without_chromium


def move_path(game: str, s: Any, m: Any) -> tuple[int, ...]:
    """The cells a person clicks for the legal move ``m`` of ``game`` in ``s``."""
    return find_game(game).board_view().clicks.move_path(s, m)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("web") / "results.db"


@pytest.fixture(scope="module")
def url(db: Path) -> Iterator[str]:
    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(create_app(str(db)), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launch() as chromium:
        yield chromium


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert not errors, errors


def shoot(page: Any, name: str) -> None:
    """Saves the page at desktop and phone widths."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-desktop.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(200)
    page.screenshot(path=str(SHOTS / f"{name}-phone.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def pieces(page: Any) -> dict[str, str]:
    return dict(
        page.eval_on_selector_all(
            "g.cell[data-piece]", "cells => cells.map(c => [c.dataset.cell, c.dataset.piece])"
        )
    )


def click_cell(page: Any, cell: int) -> None:
    """Clicks a cell's hit circle as found at that instant.

    The board is redrawn whole on every update the server pushes, so a mouse click
    aimed at a circle found a moment before can meet its replacement half drawn
    ("element is not visible"); the event is dispatched to the circle the query finds
    in the same page task instead. Real mouse clicks, hit-testing included, are
    played by test_each_board_is_played_by_clicking_and_the_engine_answers.
    """
    page.locator(f'g.cell[data-cell="{cell}"] .hit').dispatch_event("click")


def moves_listed(page: Any) -> int:
    return int(page.locator("#moves li").count())


def new_game(page: Any, url: str, body: dict[str, Any]) -> str:
    """Starts a game through the API (as the start page does) and opens its page."""
    r = page.request.post(
        f"{url}/api/sessions", data=json.dumps(body), headers={"Content-Type": "application/json"}
    )
    assert r.ok, r.text()
    sid = r.json()["id"]
    page.goto(f"{url}/play/{sid}")
    page.wait_for_selector("svg#board g.cell")
    return str(sid)


BOARDS = [name for name in game_names() if find_game(name).board is not None]
"""Every game with a board: the five contests' and the toy game's (tests/nim)."""


@pytest.mark.parametrize("game", BOARDS)
def test_each_board_is_played_by_clicking_and_the_engine_answers(
    page: Any, url: str, game: str
) -> None:
    page.goto(url)
    page.select_option("#play select[name=game]", game)
    page.select_option("#play select[name=engine]", "random")
    page.fill("#play input[name=move_time]", "0.2")
    page.click("#start-play")
    page.wait_for_url("**/play/*")
    page.wait_for_selector("g.cell.movable, g.cell.must")
    before = pieces(page)  # none at the start of a game of drops
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    # the first piece that may move, then landing points until the move is played
    page.click("g.cell.movable .hit, g.cell.must .hit", force=True)
    for _ in range(20):
        page.wait_for_selector("g.cell.target, #moves li", timeout=5000)
        if moves_listed(page):
            break
        status = page.text_content("#status") or ""
        target = page.locator("g.cell.target").first
        if "again to end it there" in status and not target.count():
            page.click("g.cell.selected .hit", force=True)
        else:
            # the board may be redrawn without targets before the click lands: the
            # last click ended the move and the server's update came after the look
            # above; the next round of the loop sees the move listed
            with contextlib.suppress(PlaywrightTimeout):
                target.locator(".hit").click(force=True, timeout=2000)
        page.wait_for_timeout(100)
    page.wait_for_function("document.querySelectorAll('#moves li').length >= 2", timeout=15000)
    after = pieces(page)
    assert after != before
    # the engine's move highlighted: its start and landing, or the one cell of a move
    # of one click (Nim's stone, a drop)
    spec = find_game(game)
    rules, view = spec.make(), spec.board_view()
    start = rules.initial()
    one_cell = len(view.clicks.move_path(start, rules.legal_moves(start)[0])) == 1
    assert page.locator("g.cell.last").count() >= (1 if one_cell else 2)
    assert "Your move" in (page.text_content("#status") or "")
    shoot(page, f"board-{game}")


CHAINS = {
    "checkers": lambda rules, s: any(len(m.captures) >= 2 for m in rules.legal_moves(s)),
    "alquerque": lambda rules, s: any(len(m.captures) >= 2 for m in rules.legal_moves(s)),
    "halma": lambda rules, s: any(len(m.hops) >= 3 for m in rules.legal_moves(s)),
}


@pytest.mark.parametrize("game", ["checkers", "alquerque", "halma"])
def test_a_chain_is_entered_by_clicking_each_landing(page: Any, url: str, game: str) -> None:
    spec = find_game(game)
    rules = spec.make()
    text = find_position(spec, CHAINS[game], 2, 400)
    assert text is not None
    s = spec.notation.parse_position(text)
    m = max(rules.legal_moves(s), key=lambda m: len(move_path(game, s, m)))
    path = list(move_path(game, s, m))
    new_game(
        page,
        url,
        {
            "game": game,
            "side": spec.seat_names[s.to_move],
            "position": text,
            "engine": "random",
            "move_time": 0.2,
        },
    )
    if game != "halma":
        assert page.locator("g.cell.must").count() >= 1  # the capture is compulsory
    for i, cell in enumerate(path):
        if i:
            # only the legal continuations are offered, this landing among them
            page.wait_for_selector(f'g.cell.target[data-cell="{cell}"]')
        click_cell(page, cell)
        page.wait_for_timeout(150)
    if not moves_listed(page):  # a hop chain that could go on: stop at its last landing
        click_cell(page, path[-1])
    page.wait_for_function("document.querySelectorAll('#moves li').length >= 1")
    first = page.locator("#moves li").first.text_content() or ""
    assert first.split("  (")[0] == " / ".join(
        line.strip() for line in spec.notation.format_move(m, seat=0).splitlines()
    )
    shoot(page, f"chain-{game}")


def test_a_replay_is_stepped_with_the_keyboard(page: Any, url: str, tmp_path: Path) -> None:
    record = tmp_path / "games.jsonl"
    argv = ["match", "checkers", "random", "random", "--games", "1", "--move-time", "0.05"]
    subprocess.run(
        [sys.executable, "-m", "arbiter.cli", *argv, "--record", str(record)],
        check=True,
        capture_output=True,
    )
    plies = len(json.loads(record.read_text().splitlines()[0])["moves"])
    page.goto(url)
    page.set_input_files("#record-file", str(record))
    page.wait_for_url("**/replay")
    page.wait_for_selector("#moves li")
    assert not page.is_visible("#choose-box")  # one game in the file: nothing to choose
    start = pieces(page)
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert page.text_content("#status") == f"after move 3 of {plies}"
    assert pieces(page) != start
    page.keyboard.press("ArrowLeft")
    assert page.text_content("#status") == f"after move 2 of {plies}"
    page.keyboard.press("End")
    assert page.text_content("#status") == f"after move {plies} of {plies}"
    page.keyboard.press("Home")
    assert page.text_content("#status") == "the start" and pieces(page) == start
    page.click('#moves li[data-ply="5"]')
    assert page.text_content("#status") == f"after move 5 of {plies}"
    assert (
        page.locator("#moves li.current").text_content()
        == page.locator('#moves li[data-ply="5"]').text_content()
    )
    shoot(page, "replay-checkers")


GATED = """\
import os, sys, time
gate = sys.argv[1]
while not os.path.exists(os.path.join(gate, "open")):  # held until the test opens it
    time.sleep(0.05)
os.execv(sys.executable, [sys.executable, "-m", "arbiter.cli", "agent", "votey",
                          "--engine", "random", *sys.argv[2:]])
"""


def test_standings_follow_a_tournament_while_it_runs(page: Any, url: str, db: Path) -> None:
    # one agent is held at its first move until the page has seen the tournament
    # under way, so the page sees it running however fast the machine plays
    gate = Path(tempfile.mkdtemp(prefix="arbiter-gate-"))
    os.chmod(gate, 0o755)  # the held program runs under a uid of its own
    (gate / "gated.py").write_text(GATED)
    os.chmod(gate / "gated.py", 0o644)
    command = [
        sys.executable,
        "-m",
        "arbiter.cli",
        "tournament",
        "votey",
        "--agent",
        f"{sys.executable} {gate / 'gated.py'} {gate}",
        "--agent",
        "alphabeta:depth=2",
        "--agent",
        "greedy",
        "--rounds",
        "2",
        "--move-time",
        "20",
        "--db",
        str(db),
        "--name",
        "live",
    ]
    tournament = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while page.request.get(f"{url}/api/tournaments/live").status != 200:
            assert time.monotonic() < deadline, "the tournament never appeared"
            time.sleep(0.2)
        page.goto(f"{url}/tournament/live")
        seen: list[str] = []
        while time.monotonic() < deadline:
            text = page.text_content("#progress") or ""
            if text and (not seen or seen[-1] != text):
                seen.append(text)
            if "to go (updating)" in text:
                (gate / "open").touch()
            if text.startswith("all "):
                break
            page.wait_for_timeout(250)
        assert seen[-1] == "all 12 games played", seen
        assert any("to go (updating)" in t for t in seen), seen  # seen while it ran
        assert page.locator("#standings tr").count() == 4  # a header and three agents
        assert page.locator("#recent a").count() == 12
        page.set_viewport_size({"width": 390, "height": 844})
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= 390, f"the standings page is {wide} px wide on a 390 px phone"
        page.set_viewport_size({"width": 1280, "height": 900})
        shoot(page, "standings")
        page.click("#recent a >> nth=0")
        page.wait_for_url("**/replay?**")
        page.wait_for_selector("#moves li")
    finally:
        (gate / "open").touch()
        tournament.wait(60)
        shutil.rmtree(gate, ignore_errors=True)
        assert tournament.returncode == 0, tournament.stderr.read() if tournament.stderr else ""


def test_the_start_page_fits_a_phone(browser: Any, url: str) -> None:
    """390 px (a common phone): its forms' long engine and game names once made it
    415 px wide (a fieldset is as wide as its widest content unless told otherwise)."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        phone = context.new_page()
        phone.goto(url)
        phone.wait_for_selector("#play select[name=engine] option", state="attached")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()


def test_the_board_and_clocks_are_drawn_as_the_server_says_and_flip_whole(
    page: Any, url: str
) -> None:
    """What the game page draws from the server's snapshot: each piece on its cell in
    its seat's colour, each seat's clock in its own row as minutes and seconds, the
    buttons a person may press, the move list numbered by moves; and the flip turns
    the cells and the clocks together."""
    game = "checkers"
    sid = new_game(page, url, {"game": game, "engine": "random", "clock": "600", "move_time": 0.2})
    snap = page.request.get(f"{url}/api/sessions/{sid}").json()
    layout = page.request.get(f"{url}/api/games/{game}/board").json()
    assert pieces(page) == snap["pieces"] and snap["pieces"]
    drawn = page.eval_on_selector_all(
        "g.cell[data-piece] circle.piece",
        "cs => cs.map(c => [c.parentElement.dataset.piece, c.getAttribute('class')])",
    )
    for piece, classes in drawn:
        assert f"c-{layout['colours'][int(piece[0])]}" in classes.split(), (piece, classes)

    def clock_rows() -> tuple[str, str]:
        return page.text_content("#clock-1") or "", page.text_content("#clock-0") or ""

    def who(row: str) -> str:
        return row[: row.rfind(")") + 1]

    human = snap["human"]
    flipped = human != layout["bottom"]
    top, bottom = clock_rows()
    # the seat at the bottom of the board has its clock at the bottom
    below = 1 - layout["bottom"] if flipped else layout["bottom"]
    assert f"({snap['seat_names'][below]})" in bottom
    assert f"({snap['seat_names'][1 - below]})" in top
    for row in (top, bottom):
        minutes = row.rsplit(")", 1)[1]
        assert minutes in ("10:00.0",) or minutes.startswith("9:5"), row  # m:ss.s of 600 s
    seat_row = "#clock-0" if below == snap["to_move"] else "#clock-1"
    assert "running" in (page.get_attribute(seat_row, "class") or "").split()
    assert page.is_disabled("#undo") and page.is_enabled("#resign") == snap["your_turn"]

    def centre(cell: int) -> tuple[float, float]:
        x, y = page.eval_on_selector(
            f'g.cell[data-cell="{cell}"] circle.hit',
            "c => [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))]",
        )
        return float(x), float(y)

    corner = layout["cells"][0]
    before = centre(corner["id"])
    page.click("#flip")
    after = centre(corner["id"])
    assert (before[0] + after[0], before[1] + after[1]) == (layout["width"], layout["height"])
    new_top, new_bottom = clock_rows()
    assert (who(new_top), who(new_bottom)) == (who(bottom), who(top))  # the clocks turn too
    page.click("#flip")
    assert centre(corner["id"]) == before
    assert pieces(page) == snap["pieces"]  # the flip moves the drawing, not the pieces

    rules = find_game(game).make()
    s = find_game(game).notation.parse_position(snap["position"])
    path = list(move_path(game, s, rules.legal_moves(s)[0]))
    for i, cell in enumerate(path):
        # each click once the page offers its cell (a click before that, on a busy
        # machine, met a board not yet ready for it and made no move)
        offered = ("g.cell.target",) if i else ("g.cell.movable", "g.cell.must")
        page.wait_for_selector(
            ", ".join(f'{o}[data-cell="{cell}"]' for o in offered), timeout=15000
        )
        click_cell(page, cell)
    page.wait_for_function("document.querySelectorAll('#moves li').length >= 2", timeout=15000)
    numbers = page.eval_on_selector_all("#moves li", "ls => ls.map(l => l.dataset.no || '')")
    assert numbers[:2] == ["1.", ""]  # a number for each move pair, not each ply
    assert page.locator("#moves li.current").get_attribute("data-ply") == str(len(numbers))
    page.wait_for_function("!document.querySelector('#undo').disabled", timeout=15000)
    assert pieces(page) == page.request.get(f"{url}/api/sessions/{sid}").json()["pieces"]


def test_the_start_page_starts_a_game_on_the_chosen_side_and_a_match_to_watch(
    page: Any, url: str, db: Path
) -> None:
    """The start page's two forms send what was chosen (the game, the person's side,
    the clock and the position; the two engines of a match in their order) and list
    the database's tournaments."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "arbiter.cli",
            "tournament",
            "nim",
            "--agent",
            "random",
            "--agent",
            "greedy",
            "--rounds",
            "1",
            "--db",
            str(db),
            "--name",
            "starters",
        ],
        check=True,
        capture_output=True,
    )
    page.goto(url)
    page.select_option("#play select[name=game]", "votey")
    labels = page.eval_on_selector_all(
        "#play select[name=side] option", "os => os.map(o => o.text)"
    )
    assert labels == ["black (first)", "white (second)"]
    page.select_option("#play select[name=side]", "white")
    page.select_option("#play select[name=engine]", "random")
    page.fill("#play input[name=move_time]", "0.2")
    page.fill("#play input[name=clock]", "300+2")
    page.click("#start-play")
    page.wait_for_url("**/play/*")
    sid = page.url.rsplit("/", 1)[1]
    snap = page.request.get(f"{url}/api/sessions/{sid}").json()
    assert snap["game"] == "votey" and snap["human"] == 1
    assert snap["clocks"][1] == 300  # the person's, not yet started; the engine's has its 2
    page.wait_for_selector("#moves li")  # the engine, black, moved first

    page.goto(url)
    listed = page.locator("#tournaments a", has_text="starters")
    assert listed.get_attribute("href") == "/tournament/starters"
    assert (listed.text_content() or "").startswith("starters (nim, 2 agents, ")
    page.select_option("#watch select[name=game]", "alquerque")
    page.select_option("#watch select[name=a]", "greedy")
    page.select_option("#watch select[name=b]", "random")
    page.fill("#watch input[name=move_time]", "0.1")
    page.click("#start-watch")
    page.wait_for_url("**/play/*")
    match = page.request.get(f"{url}/api/sessions/{page.url.rsplit('/', 1)[1]}").json()
    assert match["game"] == "alquerque" and match["human"] is None
    assert [p.split(":")[0] for p in match["players"]] == ["greedy", "random"]
    page.wait_for_function("document.querySelectorAll('#moves li').length >= 2", timeout=15000)
    assert page.is_hidden("#undo") and page.is_hidden("#resign")  # nobody's to take back


def test_a_flipped_board_turns_its_lines_end_to_end(page: Any, url: str) -> None:
    """Alquerque's board is points joined by lines: the flip turns both ends of every
    line with the points, so each still joins the points it joined."""
    new_game(page, url, {"game": "alquerque", "engine": "random", "move_time": 0.2})
    layout = page.request.get(f"{url}/api/games/alquerque/board").json()
    w, h = layout["width"], layout["height"]

    def lines() -> list[list[float]]:
        return page.eval_on_selector_all(
            "g.lines line",
            "ls => ls.map(l => ['x1', 'y1', 'x2', 'y2'].map(k => Number(l.getAttribute(k))))",
        )

    drawn = lines()
    assert drawn == [list(line) for line in layout["lines"]] and drawn
    page.click("#flip")
    assert lines() == [[w - a, h - b, w - c, h - d] for a, b, c, d in drawn]
