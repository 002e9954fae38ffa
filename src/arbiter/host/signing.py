"""The contest's signing key: an Ed25519 key pair made once per contest, the private
half kept 0600 in the contest folder, the public half on the contest page.

Everything the contest hands out as a result is signed with it: each game record
(the signature covers the record's canonical fields,
:meth:`arbiter.record.GameRecord.canonical`) and an export's manifest (which lists
every file of the export by its SHA-256, rounds and standings included). Anyone
with the public key checks them, with no secret of the server's and no trust in
whoever passed the files on (:mod:`arbiter.host.export`, ``arbiter replay
--public-key``). Ed25519 signatures are deterministic: the same record signed twice
gives the same signature.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import os
from dataclasses import replace
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from arbiter.errors import ConfigError
from arbiter.record import GameRecord

PRIVATE = "contest-signing.key"
PUBLIC = "contest-signing.pub"


class ContestKey:
    """The contest's private key, to sign with."""

    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._private = private

    @classmethod
    def of_folder(cls, folder: Path) -> ContestKey:
        """The key kept in ``folder``, made (and its public half written beside it)
        the first time.

        :raises ConfigError: if the key cannot be made or read.
        """
        path = folder / PRIVATE
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            if not path.exists():
                pem = Ed25519PrivateKey.generate().private_bytes(
                    serialization.Encoding.PEM,
                    serialization.PrivateFormat.PKCS8,
                    serialization.NoEncryption(),
                )
                with contextlib.suppress(FileExistsError):  # another server made it first
                    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
                    with os.fdopen(fd, "wb") as f:
                        f.write(pem)
            loaded = serialization.load_pem_private_key(path.read_bytes(), password=None)
        except OSError as e:
            raise ConfigError(f"cannot keep the signing key {str(path)!r}: {e.strerror}") from None
        except ValueError:
            raise ConfigError(f"{str(path)!r} is not a PEM private key") from None
        if not isinstance(loaded, Ed25519PrivateKey):
            raise ConfigError(f"{str(path)!r} is not an Ed25519 key")
        key = cls(loaded)
        public = folder / PUBLIC
        if not public.exists() or public.read_text() != key.public_pem:
            public.write_text(key.public_pem)
        return key

    @property
    def public_pem(self) -> str:
        """The public key as PEM text, to publish."""
        return (
            self._private.public_key()
            .public_bytes(
                serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
            )
            .decode()
        )

    @property
    def public_raw(self) -> bytes:
        """The public key's 32 bytes, as a worker's token pins it."""
        return self._private.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )

    def sign(self, data: bytes) -> str:
        """The signature of ``data``, base64."""
        return base64.b64encode(self._private.sign(data)).decode()

    def sign_record(self, record: GameRecord) -> GameRecord:
        """``record`` carrying the contest's signature of its fields."""
        return replace(record, signature=self.sign(record.canonical()))


def signed_line(key: ContestKey, text: str) -> str:
    """A stored record as the contest hands it out: signed. A record stored signed
    is served as it is; one stored before records were signed when stored (or a
    forfeit, which the server wrote) is signed now."""
    if ',"signature":"' in text:  # json.dumps escapes every quote inside a string
        return text
    return key.sign_record(GameRecord.from_json(text)).to_json()


def public_key(pem: bytes, where: str) -> Ed25519PublicKey:
    """The Ed25519 public key in the PEM text ``pem`` (read from ``where``).

    :raises ConfigError: naming ``where`` if it holds no Ed25519 public key.
    """
    try:
        loaded = serialization.load_pem_public_key(pem)
    except ValueError:
        raise ConfigError(f"{where} is not a PEM public key") from None
    if not isinstance(loaded, Ed25519PublicKey):
        raise ConfigError(f"{where} is not an Ed25519 public key")
    return loaded


def signed(key: Ed25519PublicKey, data: bytes, signature: str | None) -> bool:
    """True if ``signature`` (base64) is the key's signature of ``data``."""
    if signature is None:
        return False
    try:
        key.verify(base64.b64decode(signature, validate=True), data)
    except (InvalidSignature, binascii.Error, ValueError):
        return False
    return True


def record_signed(key: Ed25519PublicKey, record: GameRecord) -> bool:
    """True if ``record`` carries the key's signature of its fields."""
    return signed(key, record.canonical(), record.signature)
