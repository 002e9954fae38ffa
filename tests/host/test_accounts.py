"""Accounts: Argon2id hashes, names told apart without letter case, invitations used
once, log-in limited and saying the same for a wrong name or a wrong password."""

from __future__ import annotations

import re

import pytest

from arbiter.host import accounts
from arbiter.host.accounts import AccountError, LogIn
from arbiter.host.db import Database
from arbiter.host.login_delays import Delays

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


@pytest.mark.parametrize(
    ("name", "password", "taken"),
    [
        ("abc", "p" * 10, True),
        ("a" * 32, "p" * 256, True),
        ("ab", "p" * 10, False),
        ("a" * 33, "p" * 10, False),
        ("abc", "p" * 9, False),
        ("abc", "p" * 257, False),
    ],
    ids=["shortest", "longest", "name-2", "name-33", "password-9", "password-257"],
)
def test_names_and_passwords_are_taken_up_to_their_edges_and_no_further(
    db: Database, name: str, password: str, taken: bool
) -> None:
    """The edges themselves: 3 and 32 characters of name, 10 and 256 of password are
    taken (and a 32-character name is stored whole), one fewer or one more is not."""
    with db.session() as s:
        if not taken:
            with pytest.raises(AccountError):
                accounts.create(s, name, password)
            return
        accounts.create(s, name, password)
        s.commit()
    with db.session() as s:
        assert LogIn()(s, name, password, "10.0.0.1").name == name


def test_a_role_or_a_name_that_is_none_is_refused(db: Database) -> None:
    with db.session() as s:
        with pytest.raises(AccountError, match="a role is one of organiser, contestant"):
            accounts.create(s, "alice", PASSWORD, role="admin")
        with pytest.raises(AccountError, match="no account named 'nobody'"):
            accounts.set_password(s, "nobody", PASSWORD)
        accounts.create(s, "alice", PASSWORD)
        assert accounts.set_password(s, "alice", PASSWORD + "!").name == "alice"


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
        # a code is a secret no one guesses: 96 random bits, URL-safe, each its own
        codes = {accounts.invite(s) for _ in range(50)}
        assert len(codes) == 50
        assert all(len(c) == 16 and re.fullmatch(r"[A-Za-z0-9_-]+", c) for c in codes)


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_log_in_says_the_same_for_either_mistake(db: Database) -> None:
    log_in = LogIn()
    with db.session() as s:
        accounts.create(s, "alice", PASSWORD)
        s.commit()
        assert log_in(s, "alice", PASSWORD, "10.0.0.1").name == "alice"
        for name, password in (("alice", "wrong password"), ("nobody", PASSWORD)):
            with pytest.raises(AccountError) as caught:
                log_in(s, name, password, "10.0.0.2")
            assert str(caught.value) == "wrong name or password"


def test_failed_log_ins_slow_their_address_more_each_time_and_never_lock_the_owner_out(
    db: Database,
) -> None:
    clock = Clock()
    log_in = LogIn(free=3, free_per_address=6, first=1.0, most=8.0, clock=clock)
    with db.session() as s:
        accounts.create(s, "boss", PASSWORD, role="organiser")
        s.commit()
        for _ in range(3):  # three free tries, then the address waits
            with pytest.raises(AccountError, match="wrong"):
                log_in(s, "boss", "guess guess guess", "10.0.0.3")
        with pytest.raises(AccountError, match="wait 1 s"):
            log_in(s, "boss", PASSWORD, "10.0.0.3")  # even with the right password
        # the owner, elsewhere, is not held by an attacker's failures
        assert log_in(s, "boss", PASSWORD, "10.0.0.1").name == "boss"
        # each further failure doubles the wait, up to the most
        waits = []
        for _ in range(5):
            clock.now += 100
            with pytest.raises(AccountError, match="wrong"):
                log_in(s, "boss", "guess guess guess", "10.0.0.3")
            with pytest.raises(AccountError, match="wait") as held:
                log_in(s, "boss", "guess guess guess", "10.0.0.3")
            waits.append(int(str(held.value).split("wait ")[1].split()[0]))
        assert waits == [2, 4, 8, 8, 8]
        # an address failing at many names waits for every name
        for i in range(6):
            with pytest.raises(AccountError, match="wrong"):
                log_in(s, f"user{i}", PASSWORD, "10.0.0.9")
        with pytest.raises(AccountError, match="wait"):
            log_in(s, "boss", PASSWORD, "10.0.0.9")
        # and an hour of quiet forgets it all
        clock.now += 3601
        assert log_in(s, "boss", PASSWORD, "10.0.0.3").name == "boss"


def test_the_servers_log_in_gives_three_tries_a_name_and_twenty_an_address(
    db: Database,
) -> None:
    # the policy the server runs with (LogIn's own defaults), as the README states it:
    # counted on the delays themselves, without a password hash a try
    delays = LogIn().delays
    with db.session() as s:
        for _ in range(3):
            assert delays.wait(s, "boss", "10.0.0.3", 0.0) == 0.0
            delays.failed(s, "boss", "10.0.0.3", 0.0)
        assert delays.wait(s, "boss", "10.0.0.3", 0.0) == 1.0
        for i in range(20):  # one try at each of twenty names
            assert delays.wait(s, "anyone", "10.0.0.9", 0.0) == 0.0
            delays.failed(s, f"user{i}", "10.0.0.9", 0.0)
        assert delays.wait(s, "anyone", "10.0.0.9", 0.0) == 1.0
        for moment in range(13):  # doubling from a second, up to a quarter of an hour
            delays.failed(s, "boss", "10.0.0.4", float(moment))
        assert delays.wait(s, "boss", "10.0.0.4", 12.0) == 900.0


def test_a_failure_is_forgotten_after_an_hour_of_quiet_and_not_at_the_hour(
    db: Database,
) -> None:
    with db.session() as s:
        # kept at exactly an hour: a wait longer than the hour still holds then
        long = Delays(free=1, free_per_address=100, first=7200.0, most=7200.0)
        long.failed(s, "boss", "10.0.0.5", 0.0)
        assert long.wait(s, "boss", "10.0.0.5", 3600.0) == 3600.0
        assert long.wait(s, "boss", "10.0.0.5", 3600.5) == 0.0
        # and counted on at exactly an hour: the fourth failure doubles the wait
        delays = LogIn().delays
        for _ in range(3):
            delays.failed(s, "boss", "10.0.0.6", 0.0)
        delays.failed(s, "boss", "10.0.0.6", 3600.0)
        assert delays.wait(s, "boss", "10.0.0.6", 3600.0) == 2.0
        delays.failed(s, "boss", "10.0.0.6", 7200.5)  # past the hour: counted afresh
        assert delays.wait(s, "boss", "10.0.0.6", 7200.5) == 0.0


def test_failed_log_ins_hold_in_every_server_process_and_through_a_restart(
    db: Database,
) -> None:
    """Two server processes of one contest (two LogIn over one database) hold the same
    address back, and a server started again still does."""
    clock = Clock()
    one, other = (LogIn(free=2, first=5.0, clock=clock) for _ in range(2))
    with db.session() as s:
        accounts.create(s, "alice", PASSWORD)
        s.commit()
        for _ in range(2):
            with pytest.raises(AccountError, match="wrong"):
                one(s, "alice", "guess guess guess", "10.0.0.5")
    with db.session() as s, pytest.raises(AccountError, match="wait 5 s"):
        other(s, "alice", PASSWORD, "10.0.0.5")
    restarted = LogIn(free=2, first=5.0, clock=clock)
    clock.now += 4
    with db.session() as s, pytest.raises(AccountError, match="wait 1 s"):
        restarted(s, "alice", PASSWORD, "10.0.0.5")
    clock.now += 1
    with db.session() as s:
        assert restarted(s, "alice", PASSWORD, "10.0.0.5").name == "alice"
        s.commit()
    # a log-in forgets its name's failures: the next failure is a free one again
    with db.session() as s, pytest.raises(AccountError, match="wrong"):
        other(s, "alice", "guess guess guess", "10.0.0.5")
    with db.session() as s:
        assert one(s, "alice", PASSWORD, "10.0.0.5").name == "alice"


def test_a_name_s_failures_count_together_whatever_its_letter_case(db: Database) -> None:
    """Names are one whatever their case, so are their failures: an attacker does not
    get three more tries a name by typing it in capitals."""
    log_in = LogIn(free=3, free_per_address=20, first=1.0, clock=Clock())
    with db.session() as s:
        accounts.create(s, "boss", PASSWORD, role="organiser")
        s.commit()
        for typed in ("Boss", "BOSS", "boss"):
            with pytest.raises(AccountError, match="wrong"):
                log_in(s, typed, "guess guess guess", "10.0.0.4")
        with pytest.raises(AccountError, match="wait 1 s"):
            log_in(s, "bOsS", PASSWORD, "10.0.0.4")


def test_a_name_typed_empty_or_long_is_counted_apart_from_the_address(db: Database) -> None:
    """The address's own row (over every name) is not any typed name's, however long
    or empty the name."""
    clock = Clock()
    log_in = LogIn(free=1, free_per_address=3, first=5.0, clock=clock)
    with db.session() as s:
        accounts.create(s, "alice", PASSWORD)
        s.commit()
        with pytest.raises(AccountError, match="wrong"):
            log_in(s, "", "guess guess guess", "10.0.0.6")
        with pytest.raises(AccountError, match="wrong"):
            log_in(s, "x" * 300, "guess guess guess", "10.0.0.6")
        # one failure of each name: the names wait, the address not yet (2 of 3)
        assert log_in(s, "alice", PASSWORD, "10.0.0.6").name == "alice"
        with pytest.raises(AccountError, match="wait"):
            log_in(s, "", PASSWORD, "10.0.0.6")
