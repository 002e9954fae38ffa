"""The small guards of the contest's secrets: a sign-in session ends when it expires,
the secret files are their owner's alone, the public key beside the signing key is
always its own, and a stored record is signed unless it already carries a signature."""

from __future__ import annotations

import json
import stat
from datetime import timedelta
from pathlib import Path

from sqlalchemy import select

from arbiter.errors import Reason
from arbiter.host import accounts, sessions
from arbiter.host.db import Database
from arbiter.host.models import SignedIn
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
        row.expires = sessions.now() - timedelta(seconds=1)
        s.commit()
        assert sessions.account_of(s, secret) is None
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
    import pytest
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
