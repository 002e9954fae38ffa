"""The small guards of the contest's secrets: a sign-in session ends when it expires,
the secret files are their owner's alone, the public key beside the signing key is
always its own, and a stored record is signed unless it already carries a signature."""

from __future__ import annotations

import json
import stat
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from arbiter.errors import Reason
from arbiter.host import accounts, sessions
from arbiter.host.db import Database
from arbiter.host.models import SignedIn, stored_utc
from arbiter.host.signing import ContestKey, public_key, record_signed, signed_line
from arbiter.host.storage import private_file
from arbiter.record import GameRecord

PASSWORD = "a long enough password"


def test_a_session_is_honoured_until_it_expires_and_not_after(database_url: str) -> None:
    db = Database(database_url)
    with db.session() as s:
        alice = accounts.create(s, "alice", PASSWORD)
        s.commit()
        secret = sessions.open_session(s, alice)
        s.commit()
        assert sessions.account_of(s, secret) is not None
        row = s.scalars(select(SignedIn)).one()
        left = stored_utc(row.expires) - sessions.now()
        assert timedelta(days=14) - timedelta(minutes=1) < left <= timedelta(days=14)
        row.expires = sessions.now() - timedelta(seconds=1)
        s.commit()
        assert sessions.account_of(s, secret) is None
    db.close()


def test_signing_out_ends_that_sign_in_alone(database_url: str) -> None:
    """Signing out on one machine leaves the account's other sign-ins (another
    browser) and everyone else's as they were."""
    db = Database(database_url)
    with db.session() as s:
        alice, bob = accounts.create(s, "alice", PASSWORD), accounts.create(s, "bob", PASSWORD)
        s.commit()
        laptop, phone = sessions.open_session(s, alice), sessions.open_session(s, alice)
        his = sessions.open_session(s, bob)
        s.commit()
        sessions.end(s, laptop)
        s.commit()
        signed_in = [sessions.account_of(s, secret) for secret in (laptop, phone, his)]
        assert [a and a.name for a in signed_in] == [None, "alice", "bob"]
    db.close()


def test_expired_sessions_are_deleted_at_the_next_sign_in_and_others_kept(
    database_url: str,
) -> None:
    """Anyone's sign-in deletes every session expired by then (and no other): the table
    does not grow with every sign-in the contest ever had."""
    db = Database(database_url)
    with db.session() as s:
        alice = accounts.create(s, "alice", PASSWORD)
        bob = accounts.create(s, "bob", PASSWORD)
        s.commit()
        old = [sessions.open_session(s, alice) for _ in range(3)]
        kept = sessions.open_session(s, alice)
        s.commit()
        rows = {row.id: row for row in s.scalars(select(SignedIn))}
        for secret, ago in zip(old, (1, 60, 86_400), strict=True):
            rows[sessions._key(secret)].expires = sessions.now() - timedelta(seconds=ago)
        rows[sessions._key(kept)].expires = sessions.now() + timedelta(seconds=30)
        s.commit()
        assert len(s.scalars(select(SignedIn)).all()) == 4
        new = sessions.open_session(s, bob)
        s.commit()
        left = {row.id for row in s.scalars(select(SignedIn))}
        assert left == {sessions._key(kept), sessions._key(new)}
        assert sessions.account_of(s, kept) is not None
    db.close()


def test_a_secret_file_is_made_and_kept_its_owner_s_alone(tmp_path: Path) -> None:
    made = tmp_path / "new.key"
    private_file(made)
    kept = tmp_path / "old.db"
    kept.write_bytes(b"x")
    kept.chmod(0o644)
    private_file(kept)
    for path in (made, kept):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    assert kept.read_bytes() == b"x"


def test_the_public_key_beside_the_signing_key_is_always_its_own(tmp_path: Path) -> None:
    key = ContestKey.of_folder(tmp_path)
    public = next(p for p in tmp_path.iterdir() if p.read_text() == key.public_pem)
    public.write_text(ContestKey.of_folder(tmp_path / "other").public_pem)  # a stale one
    again = ContestKey.of_folder(tmp_path)
    assert public.read_text() == again.public_pem == key.public_pem


def test_a_signing_key_that_is_no_ed25519_key_is_named(tmp_path: Path) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ec import SECP256R1, generate_private_key

    from arbiter.errors import ConfigError
    from arbiter.host.signing import PRIVATE

    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / PRIVATE).write_text("not a key\n")
    with pytest.raises(ConfigError, match="is not a PEM private key"):
        ContestKey.of_folder(tmp_path / "junk")
    other = generate_private_key(SECP256R1())
    (tmp_path / "ec").mkdir()
    (tmp_path / "ec" / PRIVATE).write_bytes(
        other.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    with pytest.raises(ConfigError, match="is not an Ed25519 key"):
        ContestKey.of_folder(tmp_path / "ec")
    with pytest.raises(ConfigError, match=r"contest\.pub is not a PEM public key"):
        public_key(b"nothing", "contest.pub")
    ec_public = other.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    with pytest.raises(ConfigError, match=r"contest\.pub is not an Ed25519 public key"):
        public_key(ec_public, "contest.pub")


def test_a_record_is_signed_unless_it_carries_a_signature(tmp_path: Path) -> None:
    key = ContestKey.of_folder(tmp_path)
    verify = public_key(key.public_pem.encode(), "test")
    for detail in ('said "signature" and quit', "signature"):  # words, not the field
        record = GameRecord("votey", ("a", "b"), (), (), 0, Reason.CRASH, detail=detail)
        line = signed_line(key, record.to_json())
        assert record_signed(verify, GameRecord.from_json(line)), detail
        assert signed_line(key, line) == line  # signed already: kept as it is
        assert json.loads(line)["detail"] == detail


def test_a_database_that_cannot_be_opened_is_named_without_its_password(tmp_path: Path) -> None:
    from arbiter.errors import ConfigError

    made = Database(f"sqlite:///{tmp_path / 'new' / 'data' / 'cup.db'}")  # folders made
    made.close()
    assert (tmp_path / "new" / "data" / "cup.db").is_file()
    (tmp_path / "file").write_text("")
    with pytest.raises(ConfigError, match="cannot open database 'sqlite:///"):
        Database(f"sqlite:///{tmp_path / 'file' / 'cup.db'}")  # a folder that is a file
    with pytest.raises(ConfigError) as refused:
        Database("postgresql+psycopg://organiser:hunter2@127.0.0.1:1/cup?connect_timeout=5")
    said = str(refused.value)
    assert "cannot open database 'postgresql+psycopg://organiser:***@127.0.0.1:1/cup" in said
    assert "hunter2" not in said
    # the driver's own reason, its first line (the next is a hint, "Is the server
    # running ...?"), and one line in all
    assert said.endswith("Connection refused") and "\n" not in said
    # a driver not installed names the URL without its password too
    with pytest.raises(ConfigError) as refused:
        Database("postgresql+pg8000://organiser:hunter2@127.0.0.1:1/cup")
    said = str(refused.value)
    assert said == (
        "database 'postgresql+pg8000://organiser:***@127.0.0.1:1/cup': "
        "its driver is not installed (pg8000)"
    )
    # a password written with an @ in it (unquoted, as people write them) is hidden
    # whole: the address is the part after the last @
    with pytest.raises(ConfigError) as refused:
        Database("postgresql+pg8000://organiser:hun@ter2@127.0.0.1:1/cup")
    said = str(refused.value)
    assert said.startswith("database 'postgresql+pg8000://organiser:***@127.0.0.1:1/cup'")
    assert "hun" not in said and "ter2" not in said


def test_a_record_key_that_cannot_be_read_or_made_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arbiter.record import KEY_VARIABLE, RecordError, record_key

    bad = tmp_path / "bad.key"
    bad.write_text("not hex\n")
    monkeypatch.setenv(KEY_VARIABLE, str(bad))
    with pytest.raises(RecordError, match="cannot read the record key"):
        record_key()
    monkeypatch.setenv(KEY_VARIABLE, "/proc/arbiter-none/record.key")  # never made there
    assert record_key() is None  # none yet, none asked for
    with pytest.raises(RecordError, match="cannot make the record key"):
        record_key(create=True)
    fresh = tmp_path / "new" / "record.key"
    monkeypatch.setenv(KEY_VARIABLE, str(fresh))
    made = record_key(create=True)
    assert made is not None and len(made) == 32 and record_key() == made
    assert fresh.stat().st_mode & 0o077 == 0  # its owner's alone


def test_a_row_naming_an_account_that_is_not_there_is_refused(database_url: str) -> None:
    """Both databases hold the contest's references (SQLite only when asked, on each
    connection): a session of no account is never stored, nor are a round's ratings
    left behind when the round goes."""
    from datetime import UTC, datetime

    from sqlalchemy.exc import IntegrityError

    db = Database(database_url)
    try:
        with db.session() as s:
            s.add(SignedIn(id="x" * 64, account_id=999, expires=datetime.now(UTC)))
            with pytest.raises(IntegrityError):
                s.commit()
    finally:
        db.close()
