"""The pages whose lists grow with the contest: an entrant's games a page at a time
with links that walk the whole list, its signed records streamed, the organiser's
page counting from the rounds' own columns, and an export started from the
organiser's page, followed, and downloaded."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from arbiter.host import accounts, listing
from arbiter.host.app import create_app
from arbiter.host.candidates import evaluate
from arbiter.host.config import load
from arbiter.host.db import Database
from arbiter.host.models import Account, ExportJob, Game, Version
from arbiter.host.rounds import finish_round_if_done, make_round, rerun_round
from arbiter.host.routes import public
from arbiter.host.service import Service
from arbiter.host.signing import ContestKey, public_key, record_signed
from arbiter.host.storage import sqlite_file
from arbiter.record import GameRecord
from tests.host.contests import play_round, version
from tests.host.test_candidates import candidate_of
from tests.host.test_guards import PASSWORD, csrf

Site = tuple[TestClient, Database, ContestKey]


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Site]:
    """A round robin of three, played twice over (12 games, alice in 8): the first
    round's records signed as they were stored, the second's not (as a contest
    upgraded from before records were signed when stored); lists of 3 a page."""
    monkeypatch.setattr(listing, "PAGE", 3)
    (tmp_path / "cup.toml").write_text('game = "alquerque"\n[format]\nkind = "round-robin"\n')
    config = load(tmp_path / "cup.toml")  # the export's process reads the file
    db = Database(config.database)
    key = ContestKey.of_folder(config.folder)
    with db.session() as s:
        accounts.create(s, "boss", PASSWORD, role="organiser")
        for name in ("alice", "bob", "carol"):
            s.add(version(accounts.create(s, name, PASSWORD).id, 1))
        s.commit()
    for number in (1, 2):
        with db.session() as s:
            make_round(s, config)
        play_round(db, config, key if number == 1 else None)
        with db.session() as s:
            assert finish_round_if_done(s, number)
    app = create_app(config, Service(config, tmp_path / "cup.toml", db))
    with TestClient(app, follow_redirects=False) as client:
        yield client, db, key
    db.close()


def test_an_entrants_games_are_paged_and_every_one_is_shown_once(site: Site) -> None:
    client, db, _ = site
    with db.session() as s:
        alice = s.scalar(select(Account.id).where(Account.name == "alice"))
        hers = {
            g
            for g in s.scalars(
                select(Game.id).where(
                    (Game.first_account_id == alice) | (Game.second_account_id == alice)
                )
            )
        }
    assert len(hers) == 8
    seen: list[int] = []
    path = "/contestants/alice"
    while path:
        page = client.get(path)
        assert page.status_code == 200 and "Games (8)" in page.text
        table = page.text.split('id="game-list"')[1].split("</table>")[0]
        seen += [int(g) for g in re.findall(r'<a href="/games/(\d+)', table)]
        older = re.search(r'href="(/contestants/alice\?before=\d+)#games"', page.text)
        path = older.group(1) if older else ""
    assert seen == sorted(hers, reverse=True)
    oldest = client.get(f"/contestants/alice?before={min(hers) + 1}")
    assert "older" not in oldest.text.split("Games (8)")[1] and "newer" in oldest.text


def test_an_entrants_records_stream_every_game_signed(site: Site) -> None:
    client, _, key = site
    pem = public_key(key.public_pem.encode(), "pem")
    streamed = client.get("/contestants/alice/games.jsonl")
    assert streamed.status_code == 200
    records = [GameRecord.from_json(line) for line in streamed.text.splitlines()]
    assert len(records) == 8 and all(record_signed(pem, r) for r in records)
    assert all(any(p.startswith("alice ") for p in r.players) for r in records)
    one = GameRecord.from_json(client.get("/games/1/record.jsonl").text)
    assert record_signed(pem, one)
    assert client.get("/contestants/nobody/games.jsonl").status_code == 404


def test_an_entrants_records_stream_in_pieces_each_from_where_the_last_ended(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read three at a time, the eight records come as they do at once: each once, in
    the order they were played (a piece that began again at its own start, or skipped
    one, would show here)."""
    client, _, _ = site
    whole = client.get("/contestants/alice/games.jsonl").text.splitlines()
    monkeypatch.setattr(public, "RECORDS_AT_ONCE", 3)
    pieces = client.get("/contestants/alice/games.jsonl").text.splitlines()
    assert pieces == whole and len(set(pieces)) == 8


def test_an_entrants_public_records_leave_out_its_candidates_evaluation(site: Site) -> None:
    """A candidate's evaluation games are its owner's: on no public list of records."""
    client, db, key = site
    database = sqlite_file(db.url)
    assert database is not None
    config = load(database.with_name("cup.toml"))
    with db.session() as s:
        trial = candidate_of(s, "alice")
        rnd = evaluate(s, config, trial)
        s.commit()
        evaluation = len(rnd.games)
    play_round(db, config, key)
    with db.session() as s:
        played = s.scalar(
            select(func.count(Game.id)).where(Game.phase == "candidate", Game.state == "done")
        )
    assert played == evaluation > 0
    streamed = client.get("/contestants/alice/games.jsonl")
    records = [GameRecord.from_json(line) for line in streamed.text.splitlines()]
    assert len(records) == 8 and all(r.round is not None and r.round > 0 for r in records)


def test_an_entrants_pages_show_its_own_versions_marked_among_its_own(site: Site) -> None:
    """Alice's page lists her versions alone, and her one version is the one playing
    though bob has since uploaded a version numbered higher; her version's own page
    marks it so too."""
    client, db, _ = site
    with db.session() as s:
        bob = s.scalar(select(Account.id).where(Account.name == "bob"))
        alice = s.scalar(select(Account.id).where(Account.name == "alice"))
        assert bob is not None and alice is not None
        s.add_all([version(bob, 2), version(bob, 3, state="refused")])
        s.commit()
        hers = s.scalar(select(Version.id).where(Version.account_id == alice))
    assert re.findall(r'data-mark="([^"]*)"', client.get("/contestants/alice").text) == ["playing"]
    assert re.findall(r'data-mark="([^"]*)"', client.get("/contestants/bob").text) == [
        "superseded",
        "playing",
        "refused",
    ]
    client.post("/login", data={"name": "alice", "password": PASSWORD, "csrf": csrf(client)})
    assert 'data-mark="playing"' in client.get(f"/versions/{hers}").text


def test_a_round_page_shows_the_results_its_own_replay_superseded(
    site: Site, tmp_path: Path
) -> None:
    """The second round played again: its page lists the results that replay erased,
    the first round's page none."""
    client, db, _ = site
    with db.session() as s:
        rerun_round(s, 2)
    play_round(db, load(tmp_path / "cup.toml"))
    with db.session() as s:
        assert finish_round_if_done(s, 2)
    first, second = client.get("/rounds/1").text, client.get("/rounds/2").text
    assert 'id="superseded"' not in first
    listed = second.split('id="superseded-games"')[1].split("</table>")[0]
    assert listed.count("<tr><td>") == 6  # the round's six games, once each


def test_an_export_is_started_followed_and_downloaded_by_the_organiser(site: Site) -> None:
    client, db, _ = site
    done = client.post("/login", data={"name": "boss", "password": PASSWORD, "csrf": csrf(client)})
    assert done.status_code == 303
    page = client.get("/organiser")
    assert '<a href="/rounds/1">round 1</a> (round-robin): done, 6 games' in page.text
    started = client.post("/organiser/export", data={"csrf": csrf(client, "/organiser")})
    assert started.status_code == 303
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # the export's own process writes it
        with db.session() as s:
            job = s.scalar(select(ExportJob))
            if job is not None and job.state != "running":
                break
        time.sleep(0.2)
    assert job is not None and job.state == "done", job.detail if job else None
    listed = client.get("/organiser").text
    assert f'href="/organiser/exports/{job.id}"' in listed and "12 games" in listed
    download = client.get(f"/organiser/exports/{job.id}")
    assert download.status_code == 200 and download.content[:2] == b"\x1f\x8b"
    assert client.get("/organiser/exports/99").status_code == 404


def test_the_standings_read_the_same_before_and_after_they_are_pushed(site: Site) -> None:
    # the page's script writes a pushed 6.0 as "6": the page the server sends must too
    client, _, _ = site
    table = client.get("/").text.split('id="standings"')[1].split("</table>")[0]
    cells = re.findall(r'<td class="n">([^<]*)</td>', table)
    assert cells and not [c for c in cells if re.search(r"\d\.0\b", c)], cells
    pushed = client.get("/api/standings").json()["rows"]
    assert any(isinstance(r["points"], float) for r in pushed)  # what JSON gives a page
