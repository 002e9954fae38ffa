"""The contest server in a real headless Chromium (Debian's, driven by Playwright),
as its users meet it: the organiser logs in and hands out invitations, two
contestants register with them and upload a C and a Python starter kit, a third's
broken program is refused with its reason shown, the organiser starts a round, the
standings already open in a contestant's browser fill in as the games end (pushed by
the server), a game replays on the board, another's source stays hidden, a form
without its CSRF token is refused, and the pages fit a 390 px phone. Where a
PostgreSQL server is given (CI), the whole contest runs on PostgreSQL. Where a
PostgreSQL server is given (CI), the whole contest runs on PostgreSQL. Screenshots go
to ``build/screenshots`` (or ``$ARBITER_SCREENSHOTS``).

CI installs Chromium and sets ``ARBITER_BROWSER_TESTS=required``, so there these
tests run or fail, never skip.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.chromium import SHOTS, launch, skip_without_chromium
from tests.host.conftest import POSTGRES, fresh_postgres
from tests.host.running import PASSWORD, contest_server

KITS = Path(__file__).parents[2] / "src" / "arbiter" / "games" / "alquerque" / "kits"

pytestmark = skip_without_chromium


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launch() as chromium:
        yield chromium


def person(browser: Any, url: str, *, phone: bool = False) -> Any:
    size = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 900}
    page = browser.new_context(viewport=size, base_url=url).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    # the content security policy refuses nothing a page of the server needs
    page.on(
        "console",
        lambda m: "Content Security Policy" in m.text and page.errors.append(m.text),
    )
    return page


def sign_in(page: Any, name: str, code: str | None = None) -> None:
    """Logs ``name`` in, or registers it with an invitation ``code``."""
    path = "/login" if code is None else "/register"
    page.goto(path)
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", PASSWORD)
    if code is not None:
        page.fill("input[name=code]", code)
    page.click(f"form[action='{path}'] button")
    page.wait_for_url("**/me")


def upload(page: Any, path: Path, language: str) -> str:
    page.goto("/me")
    page.select_option("select[name=language]", language)
    page.set_input_files("input[name=source]", str(path))
    page.click("form[action='/versions'] button")
    page.wait_for_url("**/versions/*")
    # the page reloads itself while the version is built and checked
    expect(page.locator("#state")).to_have_text(re.compile("^(accepted|refused)"), timeout=120_000)
    return str(page.text_content("#state"))


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"host-{name}.png"), full_page=True)


def js(value: float) -> str:
    """A number as a page's script writes it: 2.0 as 2."""
    return str(int(value)) if float(value).is_integer() else str(value)


def fits(page: Any) -> bool:
    """True if nothing on the page is wider than the window."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def too_wide(page: Any) -> list[str]:
    """The elements reaching past the window's right edge, with their text's start and
    where they end: what a failed :func:`fits` says."""
    return list(
        page.evaluate(
            """() => [...document.querySelectorAll('body *')]
                .filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5)
                .slice(0, 6)
                .map(e => `${e.tagName.toLowerCase()}#${e.id}.${e.className.baseVal ?? e.className}`
                    + ` to ${Math.round(e.getBoundingClientRect().right)} px:`
                    + ` ${(e.textContent || '').trim().slice(0, 60)}`)"""
        )
    )


@pytest.fixture
def database() -> Iterator[str | None]:
    """The contest's database: a fresh PostgreSQL one where CI gives a server (so the
    whole server runs on PostgreSQL there), else the default SQLite file."""
    if POSTGRES is None:
        yield None
        return
    with fresh_postgres() as url:
        yield url


@pytest.mark.early
def test_a_contest_run_from_the_browser(browser: Any, tmp_path: Path, database: str | None) -> None:
    text = 'name = "Browser Cup"\ngame = "alquerque"\nregistration = "invite"\n'
    text += f'database = "{database}"\n' if database else ""
    text += "[workers]\nlocal = 2\n"
    with contest_server(tmp_path, text) as (url, _):
        boss = person(browser, url)
        sign_in(boss, "boss")
        codes = []
        for _ in range(3):
            boss.goto("/organiser")
            boss.click("form[action='/organiser/invite'] button")
            codes.append(boss.text_content("#invitation"))
        alice, bob, carol = (person(browser, url) for _ in range(3))
        watcher = person(browser, url, phone=True)
        for page, name, code in (
            (alice, "alice", codes[0]),
            (bob, "bob", codes[1]),
            (carol, "carol", codes[2]),
        ):
            sign_in(page, name, code)
        assert upload(alice, KITS / "python" / "main.py", "python").startswith("accepted")
        assert upload(bob, KITS / "c" / "main.c", "c").startswith("accepted")
        broken = tmp_path / "broken.c"
        broken.write_text("int main(void) { return 0; }\n")
        said = upload(carol, broken, "c")
        assert said.startswith("refused") and "first seat" in said and "crash" in said
        assert carol.locator("h3.refused").count() >= 1  # each failed check, with its transcript
        shoot(carol, "refused")

        # the standings open on a phone before the round, filled in by the server
        watcher.goto("/")
        # the page fills its table when the standings arrive
        expect(watcher.locator("#standings")).to_contain_text("no games yet")
        boss.goto("/organiser")
        boss.click("#new-round")
        expect(watcher.locator("#rounds")).to_contain_text("round 1: done", timeout=120_000)
        rows = watcher.locator("#standings tbody tr")
        assert rows.count() == 2
        names = {rows.nth(i).locator("td").nth(1).text_content() for i in range(2)}
        assert names == {"alice", "bob"}
        # Alquerque's 12-0 contest points arrived with their own column heading
        headings = watcher.locator("#standings thead th").all_text_contents()
        assert "contest" in headings and len(headings) == rows.nth(0).locator("td").count()
        # every cell says what the server's table says, column under its heading
        table = json.loads(watcher.request.get(f"{url}/api/standings").text())
        drawn = [rows.nth(i).locator("td").all_text_contents() for i in range(2)]
        for rank, (row, cells) in enumerate(zip(table["rows"], drawn, strict=True), 1):
            said = dict(zip(headings, cells, strict=True))
            error = "∞" if row["error"] is None else js(row["error"])
            assert said == {
                "#": str(rank),
                "entrant": row["name"],
                "points": js(row["points"]),
                "games": js(row["games"]),
                "+": js(row["wins"]),
                "=": js(row["draws"]),
                "−": js(row["losses"]),
                "contest": js(row["contest_points"]),
                "irreg.": js(row["faults"]),
                "Elo ± 95%": f"{js(row['elo'])} ± {error}",
            }, said
        assert watcher.text_content("#phase") == "Test rounds."
        assert fits(watcher), f"the standings are wider than a phone: {too_wide(watcher)}"
        shoot(watcher, "standings-phone")

        # a game replayed on the board, on a phone
        # the round's ratings are stored just after it ends (later on a loaded machine)
        for _ in range(120):
            watcher.goto("/contestants/alice")
            if watcher.locator("#rating svg circle").count():
                break
            watcher.wait_for_timeout(500)
        assert watcher.locator("#rating svg circle").count() == 1  # after round 1
        assert fits(watcher), too_wide(watcher)
        watcher.click("a[href^='/games/']")
        watcher.wait_for_selector("#moves li")
        assert watcher.locator("#moves li").count() > 1
        # two columns (a number, then each side's move with its time), a pace to watch at
        first = watcher.locator('#moves li[data-ply="1"]')
        assert first.get_attribute("data-no") == "1." and first.locator("small.time").count()
        watcher.select_option("#pace", "250")
        watcher.click("#play")
        plies = watcher.locator("#moves li").count()
        # it plays on by itself (a loaded machine may show moves 2 and 4, never 3: any
        # move past the second will do)
        watcher.wait_for_function(
            "() => { const m = document.querySelector('#status').textContent"
            ".match(/^after move (\\d+) of (\\d+)$/); return m && Number(m[1]) >= 3; }"
        )
        assert watcher.text_content("#status").endswith(f" of {plies}")
        watcher.click("#play")  # pause
        paused = watcher.text_content("#status")
        watcher.wait_for_timeout(600)
        assert watcher.text_content("#status") == paused
        watcher.keyboard.press("End")
        assert "after move" in watcher.text_content("#status")
        assert watcher.locator("g.cell.last").count() >= 2  # the last move, highlighted
        assert fits(watcher), f"the replay is wider than a phone: {too_wide(watcher)}"
        shoot(watcher, "replay-phone")

        # the game's page, without ?contest=, links its owner to their program's
        # transcript and no one else's; a watcher sees none
        game = watcher.url.split("?")[0].rsplit("/", 1)[1]
        assert watcher.locator("#logs a").count() == 0
        version = alice.url.rsplit("/", 1)[1]
        alice.goto(f"/games/{game}")
        expect(alice.locator("#logs a")).to_have_count(1)
        expect(alice.locator("#logs a")).to_contain_text("alice v1's transcript")
        alice.click("#logs a")
        # the contest's command, as its page gives it, not the worker's interpreter
        expect(alice.locator("body")).to_contain_text("started: python3 main.py")

        # what is not one's own stays hidden; a form without its token is refused
        assert bob.goto(f"/versions/{version}/source").status == 404
        assert bob.goto(f"/versions/{version}").status == 404
        forged = boss.request.post(f"{url}/organiser/pause", form={"name": ""})
        assert forged.status == 403 and "CSRF" in forged.text()
        # the rating plot keeps its own size on a wide screen: its labels stay small
        boss.goto("/contestants/alice")
        label = boss.locator("#rating svg text").first.bounding_box()
        assert label is not None and label["height"] < 16, label
        # every page fits a phone: the organiser's tables and buttons too
        for name, paths in (
            ("boss", ["/organiser", "/contestants/alice", "/rounds/1", f"/versions/{version}"]),
            ("alice", ["/", "/contest", "/kits", "/me", f"/versions/{version}", f"/games/{game}"]),
        ):
            phone = person(browser, url, phone=True)
            sign_in(phone, name)
            for path in paths:
                phone.goto(path)
                assert fits(phone), f"{path} is wider than a phone for {name}: {too_wide(phone)}"
            if name == "boss":
                phone.goto("/organiser")
                phone.click("form[action='/organiser/pause'] button")
                expect(phone.locator("h1")).to_have_text("Pause play?")
                assert fits(phone), (
                    f"the confirmation page is wider than a phone: {too_wide(phone)}"
                )
                shoot(phone, "organiser-phone")
            assert not phone.errors, phone.errors
        anonymous = person(browser, url, phone=True)
        for path in ("/login", "/register", "/contestants/bob"):
            anonymous.goto(path)
            assert fits(anonymous), f"{path} is wider than a phone: {too_wide(anonymous)}"
        for page in (boss, alice, bob, carol, watcher):
            assert not page.errors, page.errors
