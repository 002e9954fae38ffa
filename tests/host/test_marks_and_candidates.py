"""What a stranger reads about versions and candidates: each version marked with what
it does (playing, a candidate not entered, frozen for the final, superseded); a
candidate's evaluation games only on its owner's page (and the organiser's), apart
and labelled, never on the public pages, the games' own pages or the signed lists;
and no "Enter it" button once uploads have closed."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from arbiter.host import accounts, listing
from arbiter.host.app import create_app
from arbiter.host.candidates import evaluate
from arbiter.host.config import ContestConfig, from_dict
from arbiter.host.db import Database
from arbiter.host.models import Account, Game, Version
from arbiter.host.rounds import begin_final, finish_round_if_done, make_round
from arbiter.host.service import Service
from arbiter.host.version_marks import (
    CANDIDATE,
    FROZEN,
    LATE,
    PLAYING,
    SUPERSEDED,
    version_marks,
)
from tests.host.contests import play_round, version
from tests.host.test_guards import PASSWORD, csrf


@dataclass
class Cup:
    app: TestClient
    db: Database
    config: ContestConfig
    candidate_games: set[int]
    contest_games: set[int]

    def person(self, name: str) -> TestClient:
        client = TestClient(self.app.app, follow_redirects=False)
        done = client.post(
            "/login", data={"name": name, "password": PASSWORD, "csrf": csrf(client)}
        )
        assert done.status_code == 303, done.text[:300]
        return client


def contest(tmp_path: Path, **settings: object) -> tuple[Database, ContestConfig]:
    config = from_dict(
        {"game": "alquerque", "format": {"kind": "round-robin"}, **settings},
        base=tmp_path,
        stem="cup",
        where="cup.toml",
    )
    db = Database(config.database)
    with db.session() as s:
        accounts.create(s, "boss", PASSWORD, role="organiser")
        for name in ("alice", "bob", "carol"):
            s.add(version(accounts.create(s, name, PASSWORD).id, 1))
        s.commit()
    return db, config


def alices(s: object, number: int) -> Version:
    return s.scalars(  # type: ignore[attr-defined,no-any-return]
        select(Version)
        .join(Account, Account.id == Version.account_id)
        .where(Account.name == "alice", Version.number == number)
    ).one()


@pytest.fixture
def cup(tmp_path: Path) -> Iterator[Cup]:
    """A round robin of three played once, then alice's candidate v2 evaluated."""
    db, config = contest(tmp_path)
    with db.session() as s:
        make_round(s, config)
    play_round(db, config)
    with db.session() as s:
        finish_round_if_done(s, 1)
        trial = version(alices(s, 1).account_id, 2)
        trial.trial = True
        s.add(trial)
        s.commit()
        evaluate(s, config, trial)
    play_round(db, config)
    with db.session() as s:
        games = list(s.scalars(select(Game)))
        theirs = {g.id for g in games if g.phase == "candidate" and g.state == "done"}
        ours = {g.id for g in games if g.phase != "candidate"}
    assert theirs and ours
    app = create_app(config, Service(config, tmp_path / "cup.toml", db))
    with TestClient(app, follow_redirects=False) as client:
        yield Cup(client, db, config, theirs, ours)
    db.close()


def linked(html: str, table: str) -> set[int]:
    if f'id="{table}"' not in html:
        return set()
    part = html.split(f'id="{table}"')[1].split("</table>")[0]
    return {int(g) for g in re.findall(r'<a href="/games/(\d+)', part)}


def test_candidate_games_are_their_owners_apart_and_nobody_elses(cup: Cup) -> None:
    alice, bob, boss = cup.person("alice"), cup.person("bob"), cup.person("boss")
    for viewer in (cup.app, bob, alice, boss):  # the contest's games, for everyone
        for name in ("alice", "bob"):
            page = viewer.get(f"/contestants/{name}").text
            assert not linked(page, "game-list") & cup.candidate_games, name
            assert linked(page, "game-list") <= cup.contest_games
    assert "candidate-list" not in cup.app.get("/contestants/alice").text
    assert "candidate-list" not in bob.get("/contestants/alice").text
    for viewer in (alice, boss):  # apart, labelled, with versions
        page = viewer.get("/contestants/alice").text
        assert linked(page, "candidate-list") == cup.candidate_games
        count = len(cup.candidate_games)  # all of them on one page: counted as listed
        assert f'id="candidate-games">Candidate evaluations ({count})</h2>' in page
        listed = page.split('id="candidate-list"')[1].split("</table>")[0]
        assert "alice v2" in listed and ("bob v1" in listed or "carol v1" in listed)
    seats = set()
    for game in cup.candidate_games:  # the candidate in either seat
        for viewer, seen in ((cup.app, 404), (bob, 404), (alice, 200), (boss, 200)):
            assert viewer.get(f"/api/contest/games/{game}").status_code == seen
            assert viewer.get(f"/games/{game}/record.jsonl").status_code == seen
        players = alice.get(f"/api/contest/games/{game}").json()["players"]
        seats.add(players.index("alice v2"))
    assert seats == {0, 1}
    # the list names each seat with its own version, as the game's page does
    with cup.db.session() as s:
        account = s.scalar(select(Account.id).where(Account.name == "alice"))
        assert account is not None
        for listed in listing.candidate_games(s, account).games:
            shown = alice.get(f"/api/contest/games/{listed.id}").json()["players"]
            assert [listed.first, listed.second] == shown, listed
    listed = cup.app.get("/contestants/bob/games.jsonl").text
    rounds = re.findall(r'"round":(-?\d+)', listed)
    assert len(rounds) == listed.count("\n") == 4 and set(rounds) == {"1"}  # the round robin's


def marks_of(client: TestClient, path: str) -> dict[str, str]:
    html = client.get(path).text
    rows = re.findall(r"v(\d+)</(?:a|td)>.*?data-mark=\"([^\"]+)\"", html, re.S)
    return {f"v{n}": mark for n, mark in rows}


def test_every_page_says_which_version_plays(cup: Cup) -> None:
    alice = cup.person("alice")
    expected = {"v1": PLAYING, "v2": CANDIDATE}
    assert marks_of(alice, "/me") == expected
    assert marks_of(cup.app, "/contestants/alice") == expected
    assert "accepted, playing" in alice.get("/me").text
    with cup.db.session() as s:
        trial = alices(s, 2).id
    entered = alice.post(f"/versions/{trial}/enter", data={"csrf": csrf(alice, "/me")})
    assert entered.status_code == 303, entered.text
    assert marks_of(alice, "/me") == {"v1": SUPERSEDED, "v2": PLAYING}
    assert "accepted, playing" in alice.get(f"/versions/{trial}").text


def test_the_final_freezes_a_version_and_a_later_one_is_said_to_be_late(tmp_path: Path) -> None:
    db, config = contest(tmp_path, final={"rounds": 1})
    with db.session() as s:
        account = alices(s, 1).account
        begin_final(s, config)
        s.commit()
        late = version(account.id, 2)
        late.uploaded = datetime.now(UTC) + timedelta(minutes=1)
        s.add(late)
        s.commit()
        versions = [alices(s, 1), alices(s, 2)]
        marks = version_marks(s, config, account, versions)
        assert [marks[v.id] for v in versions] == [FROZEN, LATE]
    db.close()


@pytest.mark.parametrize("hours", [24, -1])
def test_a_candidate_is_offered_for_entry_only_while_uploads_are_open(
    tmp_path: Path, hours: int
) -> None:
    closes = datetime.now(UTC) + timedelta(hours=hours)
    db, config = contest(tmp_path, closes=closes.isoformat())
    with db.session() as s:
        trial = version(alices(s, 1).account_id, 2)
        trial.trial = True
        trial.uploaded = closes - timedelta(hours=2)
        s.add(trial)
        s.commit()
        trial_id = trial.id
    app = create_app(config, Service(config, tmp_path / "cup.toml", db))
    with TestClient(app, follow_redirects=False) as client:
        page = Cup(client, db, config, set(), set()).person("alice").get(f"/versions/{trial_id}")
        offered = 'id="enter"' in page.text
        assert offered == (hours > 0)
        assert ("It can no longer be entered: " in page.text) == (hours < 0)
    db.close()


def test_each_owner_sees_the_games_of_their_own_candidates_only(cup: Cup) -> None:
    with cup.db.session() as s:
        bob = s.scalars(select(Account).where(Account.name == "bob")).one()
        trial = version(bob.id, 2)
        trial.trial = True
        s.add(trial)
        s.commit()
        evaluate(s, cup.config, trial)
    play_round(cup.db, cup.config)
    for name in ("alice", "bob"):
        page = cup.person(name).get(f"/contestants/{name}").text
        listed = page.split('id="candidate-list"')[1].split("</table>")[0]
        rows = re.findall(r"<tr><td><a href=\"/games/\d+\">.*?</tr>", listed, re.S)
        assert rows and all(f"{name} v2" in row for row in rows), (name, rows)
