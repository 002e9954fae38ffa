"""Every guard of the contest server, each with a test that fails without it: the
CSRF token on every state-changing route, each page and action for its audience
only, sessions that end on the server (log-out, a new password, the organiser,
disqualification), the security headers, the worker API's token checks and the
limit on uploads. The app runs in process (Starlette's test client)."""

from __future__ import annotations

import html
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import timedelta
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from arbiter.agents.spec import AgentSpec
from arbiter.clock import Clock
from arbiter.host import accounts, settle, workers
from arbiter.host.app import SECURITY_HEADERS, create_app
from arbiter.host.archive import UploadError
from arbiter.host.config import ContestConfig, from_dict
from arbiter.host.db import Database
from arbiter.host.intake import submit
from arbiter.host.models import (
    Account,
    AuditEntry,
    Game,
    Setting,
    SignedIn,
    Version,
    Worker,
    now,
)
from arbiter.host.request_signing import SignedCalls, Token, authorization, proves
from arbiter.host.rounds import make_round
from arbiter.host.routes.organiser import ACTIONS, CONSEQUENCES, TITLES
from arbiter.host.service import Service
from arbiter.host.signing import ContestKey
from arbiter.host.wire import INSTANCE_HEADER
from tests.host.contests import version

PASSWORD = "a long enough password"


@dataclass
class Site:
    app: TestClient
    db: Database
    folder: Path
    config: ContestConfig

    def client(self) -> TestClient:
        return TestClient(self.app.app, follow_redirects=False)

    @property
    def key(self) -> ContestKey:
        return ContestKey.of_folder(self.config.folder)

    def person(self, name: str) -> TestClient:
        client = self.client()
        done = client.post(
            "/login", data={"name": name, "password": PASSWORD, "csrf": csrf(client)}
        )
        assert done.status_code == 303, done.text[:300]
        return client


def confirm(client: TestClient, path: str, name: str = "") -> None:
    """An organiser's action, confirmed."""
    data = {"csrf": csrf(client, "/organiser"), "name": name, "confirm": "yes"}
    done = client.post(path, data=data)
    assert done.status_code == 303, done.text[:300]


def csrf(client: TestClient, path: str = "/login") -> str:
    found = re.search(r'name="csrf-token" content="([^"]+)"', client.get(path).text)
    assert found
    return found.group(1)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    config = from_dict(
        {
            "game": "alquerque",
            "format": {"kind": "round-robin"},
            "limits": {"versions_per_hour": 1},
        },
        base=tmp_path,
        stem="cup",
        where="cup.toml",
    )
    db = Database(config.database)
    with db.session() as s:
        accounts.create(s, "boss", PASSWORD, role="organiser")
        for name in ("alice", "bob"):
            s.add(version(accounts.create(s, name, PASSWORD).id, 1))
        s.commit()
        make_round(s, config)
    app = create_app(config, Service(config, tmp_path / "cup.toml", db))
    with TestClient(app, follow_redirects=False) as client:
        yield Site(client, db, tmp_path, config)


def routes_of(routes: list[Any]) -> Iterator[APIRoute]:
    """The app's routes, those of its included routers too."""
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        elif hasattr(route, "original_router"):  # a router included (FastAPI >= 0.16x)
            yield from routes_of(route.original_router.routes)
        elif hasattr(route, "routes") and not hasattr(route, "app"):
            yield from routes_of(route.routes)


def post_routes(site: Site) -> list[str]:
    """Every state-changing browser route, its path filled in."""
    return [
        route.path.replace("{action}", "pause")
        for route in routes_of(site.app.app.routes)
        if "POST" in route.methods
        and not route.path.startswith("/api/worker")
        # a person's game against an entrant: its owner's only, CSRF included
        # (test_a_game_against_an_entrant_is_its_starters_only)
        and not route.path.startswith("/api/sessions/")
    ]


def test_logging_in_starts_a_fresh_session_whose_csrf_token_is_new(site: Site) -> None:
    """A session cookie planted before log-in (fixation) carries nothing after it: the
    token a page showed the visitor before does not pass for the signed-in person."""
    client = site.client()
    before = csrf(client)
    done = client.post("/login", data={"name": "alice", "password": PASSWORD, "csrf": before})
    assert done.status_code == 303
    after = csrf(client, "/me")
    assert after != before
    stale = client.post("/logout", data={"csrf": before})
    assert stale.status_code == 403 and "CSRF" in stale.text
    assert client.get("/me").status_code == 200  # still signed in


def test_every_state_changing_route_refuses_a_request_without_its_csrf_token(site: Site) -> None:
    boss = site.person("boss")
    paths = post_routes(site)
    assert {"/login", "/logout", "/register", "/versions", "/password"} <= set(paths)
    assert {"/organiser/rounds", "/organiser/pause", "/contestants/{name}/play"} <= set(paths)
    for path in paths:
        for given in ({}, {"csrf": "forged"}):
            done = boss.post(path, data={"name": "alice", **given})
            assert done.status_code == 403 and "CSRF" in done.text, (path, given)
        done = boss.post(path, headers={"X-CSRF-Token": "forged"})
        assert done.status_code == 403, path
    assert "Pause play" in boss.get("/organiser").text  # nothing forged took effect
    assert boss.get("/me").status_code == 200  # nor signed anyone out


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/organiser"),
        ("POST", "/organiser/export"),
        ("GET", "/organiser/exports/1"),
        ("POST", "/organiser/rounds"),
        ("POST", "/organiser/pause"),
        ("POST", "/organiser/disqualify"),
        ("POST", "/organiser/revoke"),
    ],
)
def test_the_organisers_pages_and_actions_are_the_organisers_alone(
    site: Site, method: str, path: str
) -> None:
    anonymous, alice, boss = site.client(), site.person("alice"), site.person("boss")
    for who, status in ((anonymous, 401), (alice, 403)):
        done = who.request(method, path, data={"csrf": csrf(who), "name": "bob"})
        assert done.status_code == status, (path, done.text[:200])
    with site.db.session() as s:
        bob = s.query(Account).filter_by(name="bob").one()
        assert not bob.disqualified
    done = boss.request(method, path, data={"csrf": csrf(boss), "name": "bob"})
    assert done.status_code in (200, 303, 404, 409), (path, done.text[:200])
    if path == "/organiser/export":  # a route of its own, not an unknown action
        assert done.status_code == 303


def test_an_export_asked_for_again_while_it_is_written_starts_no_second_writer(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    # two writers of one job would race on its file and its progress
    started: list[int] = []
    monkeypatch.setattr(site.app.app.state.hosting.service, "export", started.append)
    boss = site.person("boss")
    for _ in range(2):
        done = boss.post("/organiser/export", data={"csrf": csrf(boss, "/organiser")})
        assert done.status_code == 303
    with site.db.session() as s:
        asked = s.scalars(select(AuditEntry).where(AuditEntry.action == "export")).all()
    assert len(started) == 1 and len(asked) == 1


def test_a_contestants_own_files_are_theirs_and_the_organisers_alone(site: Site) -> None:
    with site.db.session() as s:
        alices = s.query(Version).join(Account).filter(Account.name == "alice").one().id
        game = s.query(Game).first()
        assert game is not None
        alice_seat = 1 if game.first.account.name == "alice" else 2
    source = site.folder / "cup-data" / "versions" / str(alices) / "upload"
    source.mkdir(parents=True)
    (source / "main.c").write_text("int main(void) { return 0; }\n")
    pages = (f"/versions/{alices}", f"/api/versions/{alices}", f"/versions/{alices}/source")
    anonymous, bob = site.client(), site.person("bob")
    for who in (anonymous, bob):
        for path in pages:
            assert who.get(path).status_code == 404, path
    for who in (site.person("alice"), site.person("boss")):
        for path in pages:
            assert who.get(path).status_code == 200, path
    assert site.person("alice").get(f"/games/{game.id}/logs/{alice_seat}").status_code == 200
    assert bob.get(f"/games/{game.id}/logs/{alice_seat}").status_code == 404
    assert anonymous.get("/me").status_code == 401


def test_logging_out_ends_a_copied_session(site: Site) -> None:
    alice = site.person("alice")
    thief = site.client()
    thief.cookies.update(alice.cookies)
    assert thief.get("/me").status_code == 200
    assert alice.post("/logout", data={"csrf": csrf(alice, "/me")}).status_code == 303
    assert thief.get("/me").status_code == 401


def test_a_new_password_or_the_organiser_ends_the_other_sessions(site: Site) -> None:
    here, there = site.person("alice"), site.person("alice")
    new = "another long password"
    wrong = here.post(
        "/password", data={"csrf": csrf(here, "/me"), "current": "not it at all", "new": new}
    )
    assert wrong.status_code == 400 and there.get("/me").status_code == 200
    done = here.post("/password", data={"csrf": csrf(here, "/me"), "current": PASSWORD, "new": new})
    assert done.status_code == 303
    assert here.get("/me").status_code == 200 and there.get("/me").status_code == 401
    bob = site.person("bob")
    boss = site.person("boss")
    confirm(boss, "/organiser/end-sessions", "bob")
    assert bob.get("/me").status_code == 401


def test_a_disqualified_contestant_is_signed_out_and_stays_out(site: Site) -> None:
    alice, boss = site.person("alice"), site.person("boss")
    for action in ("disqualify", "reinstate"):
        done = boss.post(
            f"/organiser/{action}",
            data={"csrf": csrf(boss, "/organiser"), "name": "alice", "confirm": "yes"},
        )
        assert done.status_code == 303
        assert alice.get("/me").status_code == 401  # its session ended with the verdict
        if action == "disqualify":  # and a new log-in opens nothing
            again = site.client()
            again.post("/login", data={"name": "alice", "password": PASSWORD, "csrf": csrf(again)})
            assert again.get("/me").status_code == 401
            with site.db.session() as s:  # the round's every game was hers: it is over
                games = s.scalars(select(Game)).all()
                assert games and {g.state for g in games} == {"done"}
                assert {g.round.state for g in games} == {"done"}


@pytest.mark.parametrize(
    ("action", "name", "unchanged"),
    [
        ("disqualify", "alice", lambda s: not _account(s, "alice").disqualified),
        ("rerun", "1", lambda s: s.scalar(select(Game).where(Game.state == "done")) is not None),
        ("freeze", "", lambda s: s.get(Setting, "frozen") is None),
        ("pause", "", lambda s: s.get(Setting, "paused") is None),
        ("revoke", "lab", lambda s: not s.scalars(select(Worker)).one().revoked),
        (
            "end-sessions",
            "alice",
            lambda s: s.scalar(select(SignedIn).filter_by(account_id=_account(s, "alice").id)),
        ),
    ],
)
def test_every_organiser_action_asks_first_then_is_written_to_the_audit_log(
    site: Site, action: str, name: str, unchanged: Any
) -> None:
    with site.db.session() as s:  # one game stored, so playing a round again erases something
        g = s.scalars(select(Game)).first()
        assert g is not None
        settle.forfeit(s, site.config, g, 1, "test")
        workers.new_worker(s, "lab", site.key.public_raw)
        s.commit()
    site.person("alice")
    boss = site.person("boss")
    asked = boss.post(f"/organiser/{action}", data={"csrf": csrf(boss, "/organiser"), "name": name})
    assert asked.status_code == 200 and 'id="consequence"' in asked.text
    heading = re.search(r"<h1>(.*?)</h1>", asked.text)
    title = TITLES[action].format(name=name) + "?"
    assert heading is not None and html.unescape(heading.group(1)) == title
    with site.db.session() as s:
        assert unchanged(s)  # asked, nothing done
        assert s.scalar(select(AuditEntry)) is None
    done = boss.post(
        f"/organiser/{action}",
        data={"csrf": csrf(boss, "/organiser"), "name": name, "confirm": "yes"},
    )
    assert done.status_code == 303
    with site.db.session() as s:
        assert not unchanged(s)
        entry = s.scalars(select(AuditEntry)).one()
        assert (entry.action, entry.subject) == (action, name)
        assert _account(s, "boss").id == entry.account_id
    page = boss.get("/organiser").text
    assert re.search(rf"<td>boss</td><td>{action}</td><td>{name}</td>", page)


@pytest.mark.parametrize(
    ("do", "undo", "name", "done"),
    [
        ("pause", "resume", "", lambda s: s.get(Setting, "paused") is not None),
        ("freeze", "unfreeze", "", lambda s: s.get(Setting, "frozen") is not None),
        ("disqualify", "reinstate", "alice", lambda s: _account(s, "alice").disqualified),
    ],
)
def test_each_undoing_action_undoes_its_pair_and_twice_is_harmless(
    site: Site, do: str, undo: str, name: str, done: Any
) -> None:
    site.person("alice")
    boss = site.person("boss")
    for action, expected in ((do, True), (undo, False), (undo, False)):
        answer = boss.post(
            f"/organiser/{action}",
            data={"csrf": csrf(boss, "/organiser"), "name": name, "confirm": "yes"},
        )
        assert answer.status_code == 303, (action, answer.text)
        with site.db.session() as s:
            assert done(s) is expected, action


def test_a_paused_worker_resumed_is_handed_games_again_and_a_name_not_there_is_said(
    site: Site,
) -> None:
    with site.db.session() as s:
        workers.new_worker(s, "lab", site.key.public_raw)
        lab = s.scalars(select(Worker)).one()
        lab.paused, lab.failing = True, 3
        s.commit()
    boss = site.person("boss")
    form = {"csrf": csrf(boss, "/organiser"), "confirm": "yes"}
    assert boss.post("/organiser/resume-worker", data=form | {"name": "lab"}).status_code == 303
    with site.db.session() as s:
        lab = s.scalars(select(Worker)).one()
        assert (lab.paused, lab.failing) == (False, 0)
    for action, name, code, said in [
        ("resume-worker", "nobody", 409, "no worker 'nobody'"),
        ("disqualify", "nobody", 404, "no contestant 'nobody'"),
        ("disqualify", "boss", 404, "no contestant 'boss'"),  # an organiser is no entrant
        ("requeue", "77", 409, "game 77 is not a void game of the latest round"),
        ("requeue", "the first", 409, "game the first is not a void game of the latest round"),
        ("no-such-thing", "", 404, "no action 'no-such-thing'"),
    ]:
        refused = boss.post(f"/organiser/{action}", data=form | {"name": name})
        assert refused.status_code == code and said in html.unescape(refused.text), action
    with site.db.session() as s:
        assert s.scalar(select(AuditEntry).where(AuditEntry.action != "resume-worker")) is None


def test_every_organiser_action_has_a_title_and_a_consequence() -> None:
    assert set(TITLES) == set(CONSEQUENCES) == set(ACTIONS)


def _account(s: Any, name: str) -> Account:
    return s.scalars(select(Account).where(Account.name == name)).one()  # type: ignore[no-any-return]


def test_every_answer_carries_the_security_headers(site: Site) -> None:
    anonymous = site.client()
    for path in ("/", "/api/standings", "/no/such/page", "/static/style.css", "/login"):
        answer = anonymous.get(path)
        for name, value in SECURITY_HEADERS.items():
            assert answer.headers.get(name) == value, (path, name)
    assert "script-src 'self'" in SECURITY_HEADERS["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in SECURITY_HEADERS["Content-Security-Policy"]


def test_an_answer_that_sets_a_security_header_of_its_own_keeps_it() -> None:
    """A page with a stricter policy of its own (a sandboxed file) keeps it and gets
    the other headers: the defaults fill in, they do not overwrite."""
    from starlette.applications import Starlette
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route
    from starlette.testclient import TestClient

    from arbiter.host.app import SecurityHeaders

    def own(request: object) -> PlainTextResponse:
        return PlainTextResponse("x", headers={"Content-Security-Policy": "sandbox"})

    app = SecurityHeaders(Starlette(routes=[Route("/own", own)]))
    headers = TestClient(app).get("/own").headers
    assert headers.get_list("Content-Security-Policy") == ["sandbox"]
    for name, value in SECURITY_HEADERS.items():
        if name != "Content-Security-Policy":
            assert headers[name] == value, name


def test_the_worker_api_wants_a_live_signed_token(site: Site) -> None:
    with site.db.session() as s:
        token = workers.new_worker(s, "lab", site.key.public_raw)
        s.commit()
    api = site.client()
    me = SignedCalls(Token.parse(token), "p1")
    done = api.post("/api/worker/lease", json={})
    assert done.status_code == 401 and "token is required" in done.json()["error"]
    done = api.post("/api/worker/lease", json={}, headers={"Authorization": f"Bearer {token}"})
    assert done.status_code == 401 and "signs its calls" in done.json()["error"]
    assert api.post("/api/worker/lease", json={}, auth=me).status_code == 200
    # the signature covers the query too: a call is taken with its own, and one whose
    # query was changed on the way is refused
    assert api.post("/api/worker/lease?after=3", json={}, auth=me).status_code == 200
    signed = authorization(Token.parse(token), "POST", "/api/worker/lease?after=3", b"{}", "p1")
    changed = api.post(
        "/api/worker/lease?after=4",
        content=b"{}",
        headers={
            "Authorization": signed,
            INSTANCE_HEADER: "p1",
            "Content-Type": "application/json",
        },
    )
    assert changed.status_code == 401, changed.text
    other = SignedCalls(Token.parse(token), "p2")
    done = api.post("/api/worker/lease", json={}, auth=other)
    assert done.status_code == 409 and done.json()["code"] == "token-in-use"
    malformed = api.post("/api/worker/games/1/heartbeat", json={"lease": 7}, auth=me)
    assert malformed.status_code == 422 and malformed.json()["error"].startswith("body.lease")
    # a failure blames seat 0 or 1 (or none): there is no third seat to blame
    failure = {"lease": "x", "reason": "its machine broke", "culprit": 2}
    blamed = api.post("/api/worker/games/1/failure", json=failure, auth=me)
    assert blamed.status_code == 422 and blamed.json()["error"].startswith("body.culprit")
    assert api.get("/api/worker/programs/1", auth=me).status_code == 404  # never packed
    with site.db.session() as s:  # packed once, its archive since lost from the store
        packed = s.get(Version, 1)
        assert packed is not None and packed.state == "accepted"
        packed.program_sha256 = "0" * 64
        s.commit()
    lost = api.get("/api/worker/programs/1", auth=me)
    assert said(lost, 404, "the program of version 1 is missing from the store")
    with site.db.session() as s:  # packed, then refused by the gate: no worker plays it
        packed = s.get(Version, 1)
        assert packed is not None
        packed.state = "refused"
        s.commit()
    refused = api.get("/api/worker/programs/1", auth=me)
    assert said(refused, 404, "no packed program of version 1")
    with site.db.session() as s:
        packed = s.get(Version, 1)
        assert packed is not None
        packed.state = "accepted"
        s.commit()
    # calls about a game this worker does not hold change nothing and say so
    for path, body in (
        ("moves", {"lease": "x", "start": 0, "moves": []}),
        ("failure", {"lease": "x", "reason": "its machine broke"}),
    ):
        done = api.post(f"/api/worker/games/1/{path}", json=body, auth=me)
        assert done.status_code == 409 and done.json()["code"] == "lease-lost", path
    # a call recorded on the way is refused when sent again, even unchanged
    recorded = api.post("/api/worker/games/1/heartbeat", json={"lease": "x"}, auth=me)
    header = recorded.request.headers["authorization"]
    again = api.post(
        "/api/worker/games/1/heartbeat",
        content=recorded.request.content,
        headers={
            "Authorization": header,
            INSTANCE_HEADER: "p1",
            "Content-Type": "application/json",
        },
    )
    assert again.status_code == 401 and "made before" in again.json()["error"]
    boss = site.person("boss")
    confirm(boss, "/organiser/revoke", "lab")
    done = api.post("/api/worker/lease", json={}, auth=me)
    assert done.status_code == 401 and "revoked" in done.json()["error"]
    info = api.get("/api/contest", params={"challenge": "abc"}).json()
    assert token.startswith(info["id"] + ".") and info["game"] == "alquerque"
    assert proves(site.key.public_raw, info["id"], "abc", info["proof"])


def test_uploads_are_limited_per_hour(site: Site, tmp_path: Path) -> None:
    config = site.app.app.state.hosting.config
    with site.db.session() as s:
        alice = s.query(Account).filter_by(name="alice").one()
        config = replace(config, limits=replace(config.limits, versions_per_hour=2))
        # alice has one version already (this hour): one more, then no more
        submit(s, config, alice, "c", "main.c", b"int main(void) { return 0; }\n")
        with pytest.raises(UploadError, match="at most 2 uploads an hour"):
            submit(s, config, alice, "c", "main.c", b"int main(void) { return 0; }\n")
        # the hour is the last sixty minutes: an upload 61 minutes old no longer counts,
        # one 59 minutes old still does
        first, second = s.scalars(select(Version).where(Version.account_id == alice.id))
        first.uploaded = now() - timedelta(minutes=61)
        second.uploaded = now() - timedelta(minutes=59)
        s.commit()
        third = submit(s, config, alice, "c", "main.c", b"int main(void) { return 0; }\n")
        assert third.number == 3
        with pytest.raises(UploadError, match="at most 2 uploads an hour"):
            submit(s, config, alice, "c", "main.c", b"int main(void) { return 0; }\n")


def test_only_its_owner_or_the_organiser_tests_a_version_and_only_its_owner_enters_it(
    site: Site,
) -> None:
    with site.db.session() as s:
        alice = _account(s, "alice")
        trial = version(alice.id, 2)
        trial.trial = True
        s.add(trial)
        s.commit()
        trial_id = trial.id
    alice_c, bob, boss = site.person("alice"), site.person("bob"), site.person("boss")

    def post(client: TestClient, what: str) -> int:
        data = {"csrf": csrf(client, "/me" if client is not boss else "/organiser")}
        return client.post(f"/versions/{trial_id}/{what}", data=data).status_code

    # an accepted version with nothing under way is a page that stays as it is
    assert "reload.js" not in alice_c.get(f"/versions/{trial_id}").text
    assert post(bob, "evaluate") == 404 and post(bob, "enter") == 404
    assert post(boss, "enter") == 403
    assert post(boss, "evaluate") == 303
    assert post(alice_c, "evaluate") == 409  # one at a time
    page = alice_c.get(f"/versions/{trial_id}").text
    assert "Evaluation 1" in page and "reload.js" in page  # asked again while it plays
    with site.db.session() as s:
        assert s.get(Version, trial_id).trial  # type: ignore[union-attr]
        played = s.scalars(select(Game).where(Game.first_id == trial_id)).first()
        assert played is not None and played.round.number < 0  # an evaluation's round
        game_id, number = played.id, played.round.number
    # its game's page names the round by its number, as every page does, not its row
    assert alice_c.get(f"/api/contest/games/{game_id}").json()["round"] == number
    assert post(alice_c, "enter") == 303
    with site.db.session() as s:
        assert not s.get(Version, trial_id).trial  # type: ignore[union-attr]
    assert post(alice_c, "enter") == 409  # entered already


@pytest.fixture
def any_entrant(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every entrant played by the built-in random engine (no program to start: the
    guards are what is tested here; the browser tests play real programs)."""
    monkeypatch.setattr(
        "arbiter.host.routes.versus.entrant_agent",
        lambda s, config, name: AgentSpec.parse("random"),
    )


def start_game(client: TestClient, side: str = "second") -> Any:
    """``POST /contestants/alice/play`` from ``client``, as its page sends it."""
    data = {"csrf": csrf(client, "/contestants/alice"), "side": side}
    return client.post("/contestants/alice/play", data=data)


@pytest.mark.usefixtures("any_entrant")
def test_one_person_holds_at_most_two_games_against_entrants(site: Site) -> None:
    alice, bob = site.person("alice"), site.person("bob")
    answers = [start_game(alice) for _ in range(110)]
    assert [a.status_code for a in answers[:2]] == [303, 303]
    for refused in answers[2:]:
        assert refused.status_code == 429
        assert "at most 2 at once" in refused.text
    assert start_game(bob).status_code == 303  # another person is not held back
    assert start_game(site.client()).status_code in (401, 403)  # signed out: none


@pytest.mark.usefixtures("any_entrant")
def test_the_games_against_entrants_fit_in_the_memory_set_aside(site: Site) -> None:
    hosting = site.app.app.state.hosting
    hosting.config = replace(hosting.config, play=replace(hosting.config.play, memory_mb=2 * 1024))
    alice, bob, boss = site.person("alice"), site.person("bob"), site.person("boss")
    assert start_game(alice).status_code == 303
    assert start_game(bob).status_code == 303
    full = start_game(boss)
    assert full.status_code == 503 and "memory set aside" in full.text


@pytest.mark.usefixtures("any_entrant")
def test_a_game_against_an_entrant_is_its_starters_only(site: Site) -> None:
    alice, bob, anonymous = site.person("alice"), site.person("bob"), site.client()
    started = start_game(alice, "first")
    sid = started.headers["location"].rsplit("/", 1)[1]
    page = alice.get(f"/play/{sid}")
    token = re.search(r'name="csrf-token" content="([^"]+)"', page.text)
    assert token is not None
    path = f"/api/sessions/{sid}"
    assert alice.get(path).status_code == 200
    assert bob.get(path).status_code == 403 and "another person's" in bob.get(path).json()["error"]
    assert anonymous.get(path).status_code == 401
    for client in (bob, anonymous):
        done = client.post(f"{path}/resign", headers={"X-CSRF-Token": token.group(1)})
        assert done.status_code in (401, 403)
    assert alice.post(f"{path}/resign").status_code == 403  # no CSRF token: not from its page
    with bob.websocket_connect(f"{path}/live") as live:
        assert "another person's" in live.receive_json()["error"]
    # its owner, from its page, reaches the game itself (the in-process client runs
    # no game between requests: the game answers that it has not moved yet)
    done = alice.post(f"{path}/resign", headers={"X-CSRF-Token": token.group(1)})
    assert done.status_code == 409 and "your turn" in done.json()["error"], done.text


@pytest.mark.usefixtures("any_entrant")
def test_in_a_game_against_an_entrant_only_the_program_is_on_the_contest_s_clock(
    site: Site,
) -> None:
    """A contest's clock is made for programs (Alquerque's 30 s a game is none for a
    person clicking): the person's side shows no limit, the entrant's the contest's."""
    tc = site.app.app.state.hosting.config.time_control
    alice = site.person("alice")
    for side, person in (("first", 0), ("second", 1)):
        sid = start_game(alice, side).headers["location"].rsplit("/", 1)[1]
        snap = alice.get(f"/api/sessions/{sid}").json()
        assert snap["human"] == person
        assert snap["clocks"][person] is None
        program = snap["clocks"][1 - person]
        assert program is not None and program == Clock.start(tc).remaining[0], snap["clocks"]


def test_a_game_against_an_entrant_is_refused_by_name_where_it_cannot_start(site: Site) -> None:
    """A side other than first or second, an entrant with no stored program, and a
    contest that turns such games off: each refused with its status and why, and no
    game begun."""
    alice, bob = site.person("alice"), site.person("bob")
    wrong = start_game(bob, "middle")
    assert said(wrong, 422, "side must be first or second, not 'middle'")
    none = start_game(bob)  # alice's accepted version has no stored program here
    assert said(none, 404, "'alice' has no accepted program to play")
    hosting = site.app.app.state.hosting
    hosting.config = replace(hosting.config, play=replace(hosting.config.play, per_person=0))
    assert said(start_game(alice), 503, "games against entrants are turned off in this contest")
    assert not site.app.app.state.served.sessions


@pytest.mark.usefixtures("any_entrant")
def test_the_side_asked_for_is_the_side_played(site: Site) -> None:
    alice = site.person("alice")
    for side, seat in (("first", 0), ("second", 1)):
        started = start_game(alice, side)
        sid = started.headers["location"].rsplit("/", 1)[1]
        assert site.app.app.state.served.sessions[sid].human == seat, side


def test_a_round_played_again_shows_its_erased_results_as_superseded(site: Site) -> None:
    with site.db.session() as s:
        g = s.scalars(select(Game).order_by(Game.number)).first()
        assert g is not None
        settle.forfeit(s, site.config, g, 1, "the program would not start")
        s.commit()
    anyone = site.client()
    assert "superseded" not in anyone.get("/rounds/1").text.lower()
    confirm(site.person("boss"), "/organiser/rerun", "1")
    shown = anyone.get("/rounds/1").text
    table = shown[shown.index('id="superseded-games"') :]
    assert "1-0" in table and "the program would not start" in table
    assert anyone.get("/rounds/9").status_code == 404


def test_a_paused_worker_is_handed_no_game(site: Site) -> None:
    with site.db.session() as s:
        token = workers.new_worker(s, "flaky", site.key.public_raw)
        s.scalars(select(Worker)).one().paused = True
        s.commit()
    api, me = site.client(), SignedCalls(Token.parse(token), "p1")
    done = api.post("/api/worker/lease", json={}, auth=me)
    assert done.status_code == 409 and done.json()["code"] == "worker-paused"
    assert "paused" in done.json()["error"]
    boss = site.person("boss")
    assert "resume it" in boss.get("/organiser").text
    confirm(boss, "/organiser/resume-worker", "flaky")
    leased = api.post("/api/worker/lease", json={}, auth=me)
    assert leased.status_code == 200
    game = leased.json()["id"]
    # the organiser's list of workers shows the game it now plays, and only that
    page = boss.get("/organiser").text
    row = page[page.index("<tr><td>flaky</td>") :]
    row = row[: row.index("</tr>")]
    assert re.findall(r'href="/games/(\d+)">game', row) == [str(game)], row


def test_an_error_page_shows_the_askers_own_bar(site: Site) -> None:
    alice = site.person("alice")
    missing = alice.get("/contestants/nobody")
    assert missing.status_code == 404 and "no contestant &#39;nobody&#39;" in missing.text
    assert 'href="/me">alice</a>' in missing.text and 'href="/register"' not in missing.text
    stranger = site.client().get("/contestants/nobody")
    assert 'href="/register"' in stranger.text and "log out" not in stranger.text


def test_the_replay_page_is_headed_with_the_contests_name(site: Site) -> None:
    page = site.client().get("/games/1").text
    name = html.escape(site.config.name)
    assert f'<header><a href="/">{name}</a>' in page and f"<title>{name}: replay" in page
    assert ">arbiter<" not in page


def test_an_invitation_code_is_shown_once_and_never_in_an_address(site: Site) -> None:
    boss = site.person("boss")
    made = boss.post("/organiser/invite", data={"csrf": csrf(boss, "/organiser")})
    assert made.status_code == 303 and made.headers["location"] == "/organiser"
    shown = re.search(r'<code id="invitation">([^<]+)</code>', boss.get("/organiser").text)
    assert shown is not None and len(shown.group(1)) >= 8
    assert 'id="invitation"' not in boss.get("/organiser").text  # once
    with site.db.session() as s:
        entry = s.scalars(select(AuditEntry)).one()
        assert shown.group(1) not in entry.detail + entry.subject


def test_each_seats_log_link_opens_that_seats_log(site: Site) -> None:
    with site.db.session() as s:
        game = s.scalars(select(Game)).first()
        assert game is not None
        settle.forfeit(s, site.config, game, 1, "test")
        game.log_first, game.log_second = "the first seat's stderr", "the second seat's stderr"
        s.commit()
        game_id = game.id
    boss = site.person("boss")
    links = boss.get(f"/api/contest/games/{game_id}").json()["logs"]
    assert links == [f"/games/{game_id}/logs/1", f"/games/{game_id}/logs/2"]
    said = [boss.get(link).text for link in links]
    assert said == ["the first seat's stderr", "the second seat's stderr"]


def test_a_starter_kit_file_downloads_as_itself_for_anyone(site: Site) -> None:
    from arbiter.host.kits import kit_file

    answer = site.client().get("/kits/python/main.py")
    path = kit_file("alquerque", "python", "main.py")
    assert path is not None and answer.status_code == 200
    assert answer.content == path.read_bytes()
    assert answer.headers["content-type"].startswith("text/plain")
    assert 'filename="main.py"' in answer.headers["content-disposition"]


def test_an_unfinished_game_s_page_says_what_it_waits_for(site: Site) -> None:
    """Queued, it waits for a worker; leased, it is being played by its worker (and the
    page asks again); set aside, it says why and is no longer live. No log opens before
    the game is done."""
    with site.db.session() as s:
        game = s.scalars(select(Game).where(Game.state == "queued")).first()
        assert game is not None
        game_id = game.id
    anyone, boss = site.client(), site.person("boss")  # the organiser may open any log

    def shown() -> dict[str, Any]:
        data: dict[str, Any] = anyone.get(f"/api/contest/games/{game_id}").json()
        assert data["logs"] == [None, None] and data["result"]["result"] == "*"
        assert boss.get(f"/api/contest/games/{game_id}").json()["logs"] == [None, None]
        return data

    assert shown()["result"]["text"] == "waiting for a worker" and shown()["live"] is True
    for path in (f"/games/{game_id}/record.jsonl", f"/games/{game_id}/logs/1"):
        assert anyone.get(path).status_code == 404, path  # nothing to sign or show yet
    assert said(anyone.get(f"/games/{game_id}/record.jsonl"), 404, f"no finished game {game_id}")
    with site.db.session() as s:
        game = s.get(Game, game_id)
        assert game is not None
        game.state, game.worker, game.lease = "leased", "lab-3", "x"
        s.commit()
    assert shown()["result"]["text"] == "being played by lab-3" and shown()["live"] is True
    with site.db.session() as s:
        game = s.get(Game, game_id)
        assert game is not None
        settle.void(game, "its programs could not be fetched")
        s.commit()
    data = shown()
    assert data["result"]["text"] == "set aside unplayed: its programs could not be fetched"
    assert data["live"] is False


def said(done: Any, status: int, why: str) -> bool:
    """True if the answer ``done`` has ``status`` and says ``why`` (on a page or in JSON)."""
    return bool(done.status_code == status and why in unescape(done.text))


def test_each_refusal_of_a_page_or_action_names_what_was_wrong(site: Site) -> None:
    """A request the site cannot honour gets its status and one sentence naming why,
    and changes nothing."""
    boss, alice = site.person("boss"), site.person("alice")
    anyone = site.client()
    refused = {
        "/api/games/checkers/board": (404, "this contest plays alquerque"),
        "/games/1/logs/3": (404, "no such log"),
        "/games/99999/logs/1": (404, "no such log"),
        "/kits/python/nothing.py": (404, "no starter kit file python/nothing.py"),
    }
    for path, (status, why) in refused.items():
        done = anyone.get(path)
        assert said(done, status, why), path
    assert anyone.get("/api/games/alquerque/board").status_code == 200
    upload = {"csrf": csrf(boss, "/organiser"), "language": "python"}
    done = boss.post("/versions", data=upload, files={"source": ("main.py", b"print(1)\n")})
    assert done.status_code == 400 and "the organiser does not enter the contest" in unescape(
        done.text
    )
    unnamed = {"csrf": csrf(alice, "/me")}
    done = alice.post("/versions", data=unnamed, files={"source": ("notes", b"\x00\x01\x02")})
    assert said(done, 400, "says its language: choose one")
    data = {"csrf": csrf(boss, "/organiser"), "name": "", "confirm": "yes"}
    done = boss.post("/organiser/explode", data=data)
    assert said(done, 404, "no action 'explode'")
    done = boss.post("/organiser/requeue", data={**data, "name": "1"})
    assert done.status_code == 409 and "game 1 is not a void game of the latest round" in unescape(
        done.text
    )
    with site.db.session() as s:
        assert s.scalar(select(func.count(Version.id))) == 2  # nothing was made


@pytest.mark.usefixtures("any_entrant")
def test_a_game_against_an_entrant_is_refused_for_a_side_or_contest_without_one(
    site: Site,
) -> None:
    alice = site.person("alice")
    done = start_game(alice, "middle")
    assert done.status_code == 422 and "side must be first or second, not 'middle'" in unescape(
        done.text
    )
    hosting = site.app.app.state.hosting
    hosting.config = replace(hosting.config, play=replace(hosting.config.play, per_person=0))
    done = start_game(alice)
    assert said(done, 503, "turned off in this contest")


def test_each_form_field_takes_its_edge_and_refuses_one_past_it(site: Site) -> None:
    anyone = site.client()
    token = csrf(anyone)
    for name, password, status in (
        ("n" * 64, "p" * 256, 401),  # read, and a failed log-in
        ("n" * 65, PASSWORD, 422),
        ("alice", "p" * 257, 422),
    ):
        done = anyone.post("/login", data={"name": name, "password": password, "csrf": token})
        assert done.status_code == status, (name[:3], done.status_code)
    for challenge, status in (("c" * 64, 200), ("c" * 65, 422), ("a b", 422), ("a/b", 422)):
        done = anyone.get("/api/contest", params={"challenge": challenge})
        assert done.status_code == status, challenge
    boss = site.person("boss")
    data = {"csrf": csrf(boss, "/organiser"), "confirm": "yes"}
    assert boss.post("/organiser/pause", data={**data, "name": "n" * 65}).status_code == 422
    assert boss.post("/organiser/pause", data={**data, "confirm": "y" * 9}).status_code == 422


def test_registering_and_a_held_back_log_in_answer_as_pages_do(site: Site) -> None:
    stranger = site.client()
    data = {"name": "carol", "password": PASSWORD, "csrf": csrf(stranger, "/register")}
    done = stranger.post("/register", data=data)  # the contest is open to all
    assert done.status_code == 303 and done.headers["location"] == "/me"
    assert "carol" in stranger.get("/me").text
    again = site.client()
    done = again.post("/register", data={**data, "csrf": csrf(again, "/register")})
    assert said(done, 400, "the name 'carol' is taken")
    guesser = site.client()
    token = csrf(guesser)
    # the four tries come at one moment, however long a busy machine takes over each
    # (the first wait after three failures is a second)
    moment = time.time()
    site.app.app.state.hosting.log_in = accounts.LogIn(clock=lambda: moment)
    answers = [
        guesser.post("/login", data={"name": "alice", "password": "wrong" * 3, "csrf": token})
        for _ in range(4)
    ]
    assert [a.status_code for a in answers[:3]] == [401, 401, 401]  # three free tries
    assert said(answers[3], 429, "wait")


def test_the_session_cookie_is_secure_only_when_asked(site: Site) -> None:
    # served over plain HTTP (a contest on a room's network), a Secure cookie would
    # never come back from a browser and nobody could stay signed in; behind TLS
    # (--secure-cookies) it must never travel in the clear
    stranger = site.client()
    data = {"name": "dora", "password": PASSWORD, "csrf": csrf(stranger, "/register")}
    done = stranger.post("/register", data=data)
    assert done.status_code == 303
    plain = done.headers["set-cookie"].lower()
    assert "httponly" in plain and "secure" not in plain.replace("httponly", "")
    # the browser keeps it as long as the server keeps the sign-in: two weeks, sent
    # with links from other sites but never with their forms
    assert f"max-age={14 * 24 * 3600};" in plain and "samesite=lax" in plain
    app = create_app(
        site.config,
        Service(site.config, site.folder / "cup.toml", site.db),
        secure_cookies=True,
    )
    with TestClient(app, base_url="https://testserver", follow_redirects=False) as secure:
        data = {"name": "erin", "password": PASSWORD, "csrf": csrf(secure, "/register")}
        done = secure.post("/register", data=data)
        assert done.status_code == 303
        assert "; secure" in done.headers["set-cookie"].lower()
