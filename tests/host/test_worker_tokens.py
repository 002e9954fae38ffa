"""Worker tokens: the server keeps only each worker's public key; every call is
signed over what it asks, dated, and used once; one live process per token;
revoked by the organiser (its games back in the queue at once)."""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from arbiter.host import queue, workers
from arbiter.host.config import ContestConfig
from arbiter.host.db import Database
from arbiter.host.models import Account, Game, Worker, WorkerNonce, now
from arbiter.host.request_signing import (
    WINDOW,
    Token,
    TokenError,
    authorization,
    proves,
    read_authorization,
)
from arbiter.host.rounds import make_round
from arbiter.host.signing import ContestKey
from tests.host.contests import seeded

KEY = bytes(range(32))


@pytest.fixture
def contest(tmp_path: Path, database_url: str) -> tuple[Database, ContestConfig]:
    db, config = seeded(tmp_path, database_url, ("alice", "bob"), kind="round-robin")
    with db.session() as s:
        make_round(s, config)
    return db, config


def call(
    token: str,
    instance: str = "p1",
    *,
    target: str = "/api/worker/lease",
    body: bytes = b"{}",
    off: float = 0.0,
    nonce: str | None = None,
) -> workers.Call:
    """A signed call, as the worker's client makes it, dated ``off`` seconds from now
    (a worker whose clock is wrong)."""
    at = time.time() + off
    header = authorization(Token.parse(token), "POST", target, body, instance, at=at, nonce=nonce)
    return workers.Call(header, "POST", target, body, instance)


def test_a_token_pins_its_contest_and_its_secret_is_never_kept(
    contest: tuple[Database, ContestConfig],
) -> None:
    db, _ = contest
    with db.session() as s:
        token = workers.new_worker(s, "lab-7", KEY)
        s.commit()
        parsed = Token.parse(token)
        assert (parsed.contest, parsed.contest_key) == (workers.contest_id(s), KEY)
        worker = workers.claim(s, call(token), 60)
        assert worker.name == "lab-7" and worker.auth_key == parsed.key_id
        secret = token.rsplit(".", 1)[1]
        assert all(secret not in str(v) for v in vars(worker).values())
        with pytest.raises(workers.TokenRefused, match="X-Worker-Instance"):
            workers.claim(s, call(token, ""), 60)
        held = s.scalars(select(Worker).where(Worker.name == "lab-7")).one()
        held.revoked, held.paused, held.failing = True, True, 4  # a worker set aside
        fresh = workers.new_worker(s, "lab-7", KEY)  # a new token replaces the old one
        # and lifts what was held against the old: revocation, pause, failures in a row
        assert (held.revoked, held.paused, held.failing) == (False, False, 0)
        with pytest.raises(workers.TokenRefused, match="unknown"):
            workers.claim(s, call(token), 60)
        assert workers.claim(s, call(fresh), 60).name == "lab-7"
        assert s.query(Account).count() == 2  # no account was made for it


def test_a_call_is_refused_unless_signed_over_itself_in_time_and_once(
    contest: tuple[Database, ContestConfig],
) -> None:
    db, _ = contest
    with db.session() as s:
        token = workers.new_worker(s, "lab", KEY)
        stranger = Token.make(workers.contest_id(s), KEY).text  # never registered
        good = call(token)
        workers.claim(s, good, 60)
        refusals = {
            "replayed": (good, "made before"),
            "unsigned": (workers.Call("", "POST", good.target, b"{}", "p1"), "required"),
            "old bearer token": (
                workers.Call(f"Bearer {token}", "POST", good.target, b"{}", "p1"),
                "signs its calls",
            ),
            "stranger": (call(stranger), "unknown"),
            "body changed": (
                workers.Call(
                    good.authorization.replace("nonce=", "nonce=x"),
                    "POST",
                    good.target,
                    b"{}",
                    "p1",
                ),
                "does not verify",
            ),
            "another path": (
                workers.Call(call(token).authorization, "POST", "/api/worker/goodbye", b"{}", "p1"),
                "does not verify",
            ),
            "another body": (
                workers.Call(call(token).authorization, "POST", good.target, b'{"x":1}', "p1"),
                "does not verify",
            ),
            "another process": (
                workers.Call(call(token).authorization, "POST", good.target, b"{}", "p2"),
                "does not verify",
            ),
            "stale": (call(token, off=-400), "from the server's clock"),
            "future": (call(token, off=400), "from the server's clock"),
        }
        for what, (bad, why) in refusals.items():
            with pytest.raises(workers.TokenRefused, match=why) as refused:
                workers.claim(s, bad, 60)
            assert refused.value.status == 401, what
        for off in (-290.0, 290.0):  # dated inside the window, near its edges
            assert workers.claim(s, call(token, off=off), 60).name == "lab"
        for off in (-310.0, 310.0):
            with pytest.raises(workers.TokenRefused, match="from the server's clock"):
                workers.claim(s, call(token, off=off), 60)


def test_a_nonce_is_kept_while_a_call_carrying_it_could_still_be_taken(
    contest: tuple[Database, ContestConfig], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A call dated a window ahead can be replayed until a window after it, so its nonce
    is kept twice the window and a minute: a pass that tidies the old ones (here on every
    call) deletes one older than that, keeps one younger, and never lets a replay in."""
    db, _ = contest
    monkeypatch.setattr(workers, "PRUNE_EVERY", 1)
    kept = 2 * WINDOW + 60
    with db.session() as s:
        token = workers.new_worker(s, "lab", KEY)
        good = call(token)
        workers.claim(s, good, 60)
        s.add(WorkerNonce(nonce="gone", seen=now() - timedelta(seconds=kept + 5)))
        s.add(WorkerNonce(nonce="young", seen=now() - timedelta(seconds=kept - 5)))
        s.commit()
        workers.claim(s, call(token), 60)
        left = set(s.scalars(select(WorkerNonce.nonce)))
        assert "gone" not in left and "young" in left
        with pytest.raises(workers.TokenRefused, match="made before"):
            workers.claim(s, good, 60)


def test_an_old_or_malformed_token_is_refused_in_one_line() -> None:
    with pytest.raises(TokenError, match="older form"):
        Token.parse("0123456789abcdef.c2VjcmV0")
    for junk in ("", "a.b.c", "nonsense", "x." + "A" * 43 + "." + "B" * 10):
        with pytest.raises(TokenError, match="not a worker token"):
            Token.parse(junk)


def test_a_token_s_key_and_seed_are_exactly_32_bytes() -> None:
    """A token is the contest, its 32-byte public key and a 32-byte seed, base64url:
    one that round-trips is taken; a key or a seed a byte short or long is no token
    (a seed cut or padded by a copy and paste would sign with another key)."""
    import base64

    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    good = Token.make("cup", bytes(range(32)))
    assert Token.parse(good.text) == good
    for key, seed in (
        (good.contest_key, good.seed + b"x"),
        (good.contest_key, good.seed[:-1]),
        (good.contest_key + b"x", good.seed),
        (good.contest_key[:-1], good.seed),
    ):
        with pytest.raises(TokenError, match="not a worker token"):
            Token.parse(f"cup.{b64(key)}.{b64(seed)}")


def test_a_signed_calls_nonce_and_key_are_bounded() -> None:
    """A nonce is remembered for the whole window: one longer than 64 characters is
    refused before it is stored, as is a key id longer than a key's."""
    token = Token.make("cup", bytes(32))
    ok = authorization(token, "POST", "/api/worker/lease", b"{}", "p1", nonce="n" * 64)
    signed = read_authorization(ok)
    assert signed is not None and signed.nonce == "n" * 64
    long = authorization(token, "POST", "/api/worker/lease", b"{}", "p1", nonce="n" * 65)
    with pytest.raises(TokenError, match="malformed"):
        read_authorization(long)
    with pytest.raises(TokenError, match="malformed"):
        read_authorization(ok.replace(f"key={token.key_id}", "key=" + "k" * 65))


def test_only_the_contest_key_proves_the_contest(tmp_path: Path) -> None:
    key = ContestKey.of_folder(tmp_path / "real")
    impostor = ContestKey.of_folder(tmp_path / "fake")
    from arbiter.host.request_signing import challenge_message

    proof = key.sign(challenge_message("c0ffee", "nonce-1"))
    assert proves(key.public_raw, "c0ffee", "nonce-1", proof)
    assert not proves(key.public_raw, "c0ffee", "nonce-2", proof)  # a recorded answer
    assert not proves(key.public_raw, "other", "nonce-1", proof)
    forged = impostor.sign(challenge_message("c0ffee", "nonce-1"))
    assert not proves(key.public_raw, "c0ffee", "nonce-1", forged)
    assert not proves(key.public_raw, "c0ffee", "nonce-1", None)


def test_one_live_process_per_token(contest: tuple[Database, ContestConfig]) -> None:
    db, _ = contest
    with db.session() as s:
        token = workers.new_worker(s, "lab", KEY)
        first = workers.claim(s, call(token, "p1"), 60)
        with pytest.raises(workers.TokenRefused, match="in use") as refused:
            workers.claim(s, call(token, "p2"), 60)
        assert refused.value.status == 409
        workers.claim(s, call(token, "p1"), 60)  # the live one goes on
        # once the first has been quiet past the live time, another may take over
        first.last_seen = now() - timedelta(seconds=workers.live_seconds(60) + 1)
        assert workers.claim(s, call(token, "p2"), 60).instance == "p2"
        # the old process's late goodbye frees nothing: the live one holds the token
        workers.goodbye(s, first, "p1")
        with pytest.raises(workers.TokenRefused, match="in use"):
            workers.claim(s, call(token, "p3"), 60)
        # and the live one that says goodbye frees it at once
        workers.goodbye(s, first, "p2")
        assert workers.claim(s, call(token, "p3"), 60).instance == "p3"


def test_a_revoked_token_opens_nothing_and_its_games_go_back(
    contest: tuple[Database, ContestConfig],
) -> None:
    db, _ = contest
    with db.session() as s:
        token = workers.new_worker(s, "lab", KEY)
        s.commit()
        got = queue.lease(s, "lab", 60)
        other = queue.lease(s, "lab-2", 60)  # another machine's game plays on
        assert got is not None and other is not None
        assert workers.revoke(s, "lab") == [got.game_id]
        s.commit()
        kept = s.get(Game, other.game_id)
        assert kept is not None and (kept.state, kept.worker) == ("leased", "lab-2")
        with pytest.raises(workers.TokenRefused, match="revoked") as refused:
            workers.claim(s, call(token), 60)
        assert refused.value.status == 401
        game = s.get(Game, got.game_id)
        assert game is not None and (game.state, game.lease) == ("queued", None)
        with pytest.raises(Exception, match="no worker"):
            workers.revoke(s, "nobody")
        # a new token for the machine lifts the revocation
        workers.new_worker(s, "lab", KEY)
        assert not s.scalars(select(Worker).where(Worker.name == "lab")).one().revoked
