"""Accounts: Argon2id hashes, names told apart without letter case, invitations used
once, log-in limited and saying the same for a wrong name or a wrong password."""

from __future__ import annotations

import pytest

from arbiter.host import accounts
from arbiter.host.accounts import AccountError, LogIn
from arbiter.host.db import Database

PASSWORD = "a long enough password"


@pytest.fixture
def db(database_url: str) -> Database:
    return Database(database_url)


def test_a_password_is_kept_only_as_an_argon2id_hash(db: Database) -> None:
    with db.session() as s:
        account = accounts.create(s, "alice", PASSWORD)
        s.commit()
        assert account.password_hash.startswith("$argon2id$")
        assert PASSWORD not in account.password_hash


@pytest.mark.parametrize(
    ("name", "password", "why"),
    [
        ("al", PASSWORD, "3 to 32"),
        ("9lives", PASSWORD, "starting with a letter"),
        ("alice/../x", PASSWORD, "letters, digits"),
        ("alice", "short", "10 to 256"),
    ],
)
def test_bad_names_and_passwords_are_refused(
    db: Database, name: str, password: str, why: str
) -> None:
    with db.session() as s, pytest.raises(AccountError, match=why):
        accounts.create(s, name, password)


def test_a_name_is_taken_whatever_its_letter_case(db: Database) -> None:
    with db.session() as s:
        accounts.create(s, "Alice", PASSWORD)
        with pytest.raises(AccountError, match="taken"):
            accounts.create(s, "alice", PASSWORD)


def test_an_invitation_code_is_needed_and_used_once(db: Database) -> None:
    with db.session() as s:
        with pytest.raises(AccountError, match="invitation"):
            accounts.register(s, "alice", PASSWORD, None, open_=False)
        code = accounts.invite(s)
        accounts.register(s, "alice", PASSWORD, code, open_=False)
        with pytest.raises(AccountError, match="unknown or used"):
            accounts.register(s, "bob", PASSWORD, code, open_=False)
        accounts.register(s, "carol", PASSWORD, None, open_=True)


def test_log_in_says_the_same_for_either_mistake_and_is_limited(db: Database) -> None:
    log_in = LogIn(per_minute=5)
    with db.session() as s:
        accounts.create(s, "alice", PASSWORD)
        s.commit()
        assert log_in(s, "alice", PASSWORD, "10.0.0.1").name == "alice"
        for name, password in (("alice", "wrong password"), ("nobody", PASSWORD)):
            with pytest.raises(AccountError) as caught:
                log_in(s, name, password, "10.0.0.2")
            assert str(caught.value) == "wrong name or password"
        for _ in range(3):
            with pytest.raises(AccountError, match="wrong"):
                log_in(s, "alice", "guess guess guess", "10.0.0.3")
        # the name has used its five attempts: even the right password waits
        with pytest.raises(AccountError, match="too many"):
            log_in(s, "alice", PASSWORD, "10.0.0.4")
        # and an address that tries many names is held too
        for i in range(5):
            with pytest.raises(AccountError, match="wrong"):
                log_in(s, f"user{i}", PASSWORD, "10.0.0.9")
        with pytest.raises(AccountError, match="too many"):
            log_in(s, "someone", PASSWORD, "10.0.0.9")
