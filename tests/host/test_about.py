"""The contest page: the organiser's description (Markdown, raw HTML escaped), the
game's rules and protocol from its own folder, the clock and limits in words, each
language's exact commands, the calendar, the ranking rule and the public key."""

from __future__ import annotations

import html
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from arbiter.games import GAME_NAMES, find_game, game_names
from arbiter.host.about import clock_words, guide_html
from arbiter.host.app import create_app
from arbiter.host.config import from_dict
from arbiter.host.db import Database
from arbiter.host.service import Service
from arbiter.host.signing import public_key


def test_the_contest_page_says_everything_a_contestant_needs(tmp_path: Path) -> None:
    (tmp_path / "about.md").write_text(
        "# Welcome\n\nPlay **well**. <script>alert(1)</script>\n", encoding="utf-8"
    )
    closes = datetime.now(UTC) + timedelta(days=3)
    config = from_dict(
        {
            "game": "halma",
            "description_file": "about.md",
            "closes": closes.isoformat(),
            "rank_by": "points",
            "schedule": {"every": "6h"},
            "final": {"rounds": 3, "top": 4},
            "limits": {"memory_mb": 300, "disk_mb": 20},
        },
        base=tmp_path,
        stem="cup",
        where="cup.toml",
    )
    db = Database(config.database)
    app = create_app(config, Service(config, tmp_path / "cup.toml", db))
    with TestClient(app) as client:
        page = client.get("/contest").text
        pem = client.get("/contest.pub").text
    assert "<h1>Welcome</h1>" in page and "<strong>well</strong>" in page
    assert "<script>alert" not in page  # the description's HTML is shown, never run
    assert "CPU time of the whole process tree" in page
    assert "memory: 300 MB resident for the program and all it starts" in page
    assert "disk: 20 MB written in all" in page
    assert "<code>{python}" not in page and "python3" in page  # commands as run
    assert "g++" in page or "gcc" in page  # a compiled language's compile command
    assert "every 6 hours" in page and "Uploads close at" in page
    assert "top 4" in page and "game points (a win 1, a draw ½)" in page
    assert "J" in page and "input.txt" in page  # Halma's protocol, from its folder
    assert public_key(pem.encode(), "/contest.pub") is not None
    assert pem.strip().splitlines()[1] in page


DEVELOPERS_WORDS = ("``", ":mod:", ":class:", ":func:", "arbiter.", "seat 0", "seat 1", "max_plies")
"""What the rules' and protocol's docstrings say that a contestant's page must not."""


@pytest.mark.parametrize("game", sorted(game_names()))
def test_every_game_states_its_rules_and_protocol_for_contestants(game: str) -> None:
    config = from_dict({"game": game}, base=Path("."), stem="c", where="c.toml")
    guide = guide_html(config)
    if guide is None:  # a game of no folder of its own: the page says there is none
        assert find_game(game).guide is None and game not in GAME_NAMES
        return
    for heading in ("The board", "A move", "The end", "Your program"):
        assert f"<h3>{heading}</h3>" in guide, (game, heading)
    assert not [w for w in DEVELOPERS_WORDS if w in guide], game
    assert "<pre><code>" in guide  # an example, as the programs see it
    # the example's first move is the first mover's legal move as the contest reads it
    spec = find_game(game)
    assert any(_legal_first(spec, text) for text in _examples(guide)), game
    assert clock_words(config).startswith(config.time_control.describe())
    suspended = "the waiting program is suspended" in clock_words(config)
    assert suspended == find_game(game).supervision.suspend, game


def _examples(guide: str) -> list[str]:
    """Each example block's text, and each line a program writes (``< ...``) in them."""
    blocks = [html.unescape(b.split("</code></pre>")[0]) for b in guide.split("<pre><code>")[1:]]
    written = [line.strip()[2:] for b in blocks for line in b.splitlines() if "< " in line]
    return [b.strip() for b in blocks] + written


def _legal_first(spec: Any, text: str) -> bool:
    game = spec.make()
    try:
        spec.contest.judge(game, game.initial(), text, seat=0)
    except Exception:
        return False
    return True


def test_the_calendar_is_told_in_the_tense_of_the_moment_asked(tmp_path: Path) -> None:
    """Before uploads open they "open", after they "opened"; before the close they
    "close", from it on they "closed"; a contest without either takes them at any time.
    Each format's test rounds and the schedule's span are said as a person says them."""
    from arbiter.host.about import calendar_lines
    from arbiter.host.calendar import words

    opens = datetime(2026, 3, 1, 12, tzinfo=UTC)
    closes = opens + timedelta(days=10)

    def said(at: datetime, **contest: Any) -> list[str]:
        config = from_dict(
            {"game": "votey", **contest}, base=tmp_path, stem="cup", where="cup.toml"
        )
        return calendar_lines(config, at)

    both = {"opens": opens.isoformat(), "closes": closes.isoformat()}
    before, during = said(opens - timedelta(seconds=1), **both), said(opens, **both)
    after = said(closes, **both)
    assert before[0].startswith("Uploads open at ") and before[1].startswith("Uploads close at ")
    assert during[0].startswith("Uploads opened at ") and during[1].startswith("Uploads close")
    assert after[1].startswith("Uploads closed at ")
    anytime = said(opens, format={"kind": "ladder", "placement_games": 6})
    assert anytime[0] == "Uploads are taken at any time."
    assert anytime[1] == (
        "Test rounds: a ladder, 6 placement games a new version, when the organiser starts them."
    )
    scheduled = said(opens, format={"kind": "round-robin"}, schedule={"every": "90m"})
    assert "Test rounds: a round robin, " in scheduled[1] and "every 90 minutes" in scheduled[1]
    assert [words(timedelta(seconds=s)) for s in (45, 60, 5400, 7200, 86400, 90000)] == [
        "45 seconds", "1 minute", "90 minutes", "2 hours", "1 day", "25 hours",
    ]  # fmt: skip


def test_each_language_is_listed_with_its_commands_as_the_contest_runs_them(
    tmp_path: Path,
) -> None:
    """The contest page's languages: endings, the compile command as run (``{python}``
    shown as ``python3``, never this machine's path) or that there is none, the run
    command, and whether this server can build it."""
    from dataclasses import astuple

    from arbiter.host.about import languages
    from arbiter.host.languages import available

    (tmp_path / "notes.txt").write_text("not a compiler\n")
    config = from_dict(
        {
            "game": "votey",
            "languages": {
                "bin": {"title": "A binary", "suffixes": [".bin", ".elf"], "run": "./main"},
                "pyc": {
                    "title": "Checked Python",
                    "suffixes": [".py"],
                    "compile": "{python} -m py_compile main.py",
                    "run": "{python} main.py",
                },
                "odd": {  # a compiler this machine does not have: no build here
                    "title": "Odd",
                    "suffixes": [".odd"],
                    "compile": "no-such-compiler-here main.odd",
                    "run": "./main",
                },
                "plain": {  # named by a path to a file that is no program: none either
                    "title": "Plain",
                    "suffixes": [".pln"],
                    "compile": f"{tmp_path / 'notes.txt'} main.pln",
                    "run": "./main",
                },
            },
        },
        base=tmp_path,
        stem="cup",
        where="cup.toml",
    )
    lines = {line.key: line for line in languages(config)}
    binary = ("bin", "A binary", ".bin .elf", "(none: run as uploaded)", "./main", True)
    assert astuple(lines["bin"]) == binary
    checked = lines["pyc"]
    assert (checked.compile, checked.run) == ("python3 -m py_compile main.py", "python3 main.py")
    assert "{" not in "".join(f"{line.compile} {line.run}" for line in lines.values())
    assert all(line.here == available(config.languages[k]) for k, line in lines.items())
    assert lines["pyc"].here and not lines["odd"].here and not lines["plain"].here
