"""How a worker proves who it is without ever sending its secret, and how a server
proves it is the worker's contest before the worker talks to it.

A worker's token reads ``CONTEST.CONTESTKEY.SEED``: the contest's id, the contest's
Ed25519 public key (the token *pins* it) and the seed of the worker's own Ed25519
private key, each base64url. The server keeps only the worker's public key.

- **The server proves itself**: the worker sends a fresh random challenge to
  ``/api/contest``; the server answers with the contest key's signature of it
  (:func:`challenge_message`), which the worker checks against the pinned key before
  anything else. A server that copies the real ``/api/contest`` answer cannot sign a
  challenge it has not seen.
- **Every call is signed**: method, path and query, the body's SHA-256, the time, a
  random nonce, the worker process's id and the contest's id
  (:func:`request_message`), in the ``Authorization`` header
  (``Arbiter-Worker key=..., time=..., nonce=..., signature=...``). The server
  accepts a call dated within :data:`WINDOW` seconds of its own clock whose nonce it
  has not seen in that time, so a recorded call is never accepted again, and nothing
  a recording holds signs a new one.

It is a signature rather than a MAC over a shared secret so that the server's
database holds nothing that can act as a worker.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import secrets
import time
from collections.abc import Generator
from dataclasses import dataclass

import httpx2 as httpx
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from arbiter.errors import ArbiterError
from arbiter.host.wire import INSTANCE_HEADER

SCHEME = "Arbiter-Worker"
WINDOW = 300.0
"""Seconds either side of the server's clock a signed call is accepted in."""

_PARAM = re.compile(r"\s*([a-z]+)=([A-Za-z0-9_\-.]+)\s*(?:,|$)")


class TokenError(ArbiterError, ValueError):
    """A worker token that is not one: malformed, or of the older form."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    """:raises ValueError: for text that is not base64url."""
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise ValueError(f"not base64url: {text[:16]!r}") from None


def _public_raw(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


@dataclass(frozen=True, slots=True)
class Token:
    """A worker's token: its contest (id and pinned public key) and its private key's
    seed."""

    contest: str
    contest_key: bytes
    seed: bytes

    @classmethod
    def make(cls, contest: str, contest_key: bytes) -> Token:
        """A new token of a worker of the contest ``contest`` whose key is
        ``contest_key`` (raw Ed25519 public key bytes)."""
        return cls(contest, contest_key, secrets.token_bytes(32))

    @classmethod
    def parse(cls, text: str) -> Token:
        """:raises TokenError: for text that is no token of this form."""
        parts = text.strip().split(".")
        if len(parts) == 2:
            raise TokenError(
                "this token is of an older form that sent its secret on every call: "
                "ask the organiser for a new one (arbiter host CONTEST.toml --add-worker NAME)"
            )
        try:
            if len(parts) != 3:
                raise ValueError
            contest, key, seed = parts[0], _unb64(parts[1]), _unb64(parts[2])
        except ValueError:
            raise TokenError("this is not a worker token (CONTEST.KEY.SECRET)") from None
        if not contest or len(key) != 32 or len(seed) != 32:
            raise TokenError("this is not a worker token (CONTEST.KEY.SECRET)")
        return cls(contest, key, seed)

    @property
    def text(self) -> str:
        return f"{self.contest}.{_b64(self.contest_key)}.{_b64(self.seed)}"

    @property
    def private(self) -> Ed25519PrivateKey:
        return Ed25519PrivateKey.from_private_bytes(self.seed)

    @property
    def key_id(self) -> str:
        """The worker's public key, base64url: what the server keeps."""
        return _b64(_public_raw(self.private.public_key()))


def request_message(
    method: str, target: str, body: bytes, at: str, nonce: str, instance: str, contest: str
) -> bytes:
    """What a worker's call signs: everything the server acts on."""
    digest = hashlib.sha256(body).hexdigest()
    fields = ("arbiter worker call", method.upper(), target, digest, at, nonce, instance, contest)
    return "\n".join(fields).encode()


def authorization(
    token: Token,
    method: str,
    target: str,
    body: bytes,
    instance: str,
    *,
    at: float | None = None,
    nonce: str | None = None,
) -> str:
    """The ``Authorization`` header of one call (``target``: path and query)."""
    stamp = f"{time.time() if at is None else at:.3f}"
    nonce = nonce or secrets.token_urlsafe(18)
    message = request_message(method, target, body, stamp, nonce, instance, token.contest)
    signature = _b64(token.private.sign(message))
    return f"{SCHEME} key={token.key_id}, time={stamp}, nonce={nonce}, signature={signature}"


@dataclass(frozen=True, slots=True)
class Signed:
    """A call's ``Authorization`` header, read: whose key, when, its nonce and its
    signature."""

    key_id: str
    at: str
    nonce: str
    signature: bytes

    @property
    def seconds(self) -> float:
        return float(self.at)

    def valid(self, method: str, target: str, body: bytes, instance: str, contest: str) -> bool:
        """True if the signature is the key's over this call."""
        try:
            key = Ed25519PublicKey.from_public_bytes(_unb64(self.key_id))
            message = request_message(method, target, body, self.at, self.nonce, instance, contest)
            key.verify(self.signature, message)
        except (InvalidSignature, ValueError):
            return False
        return True


def read_authorization(header: str) -> Signed | None:
    """The signed call's header read (None: none given).

    :raises TokenError: for a header of another form, or malformed.
    """
    if not header.strip():
        return None
    scheme, _, rest = header.strip().partition(" ")
    if scheme != SCHEME:
        raise TokenError(
            f"a worker signs its calls ({SCHEME}); this one sent {scheme!r}: "
            "a worker of an older arbiter, or not a worker"
        )
    params = dict(_PARAM.findall(rest))
    try:
        signed = Signed(params["key"], params["time"], params["nonce"], _unb64(params["signature"]))
        if len(signed.nonce) > 64 or len(signed.key_id) > 64:
            raise ValueError
        signed.seconds  # noqa: B018 - checks the time is a number
    except (KeyError, ValueError):
        raise TokenError("the worker's signed call is malformed") from None
    return signed


def challenge_message(contest: str, challenge: str) -> bytes:
    """What a server signs to prove it holds the contest's key: no record or
    manifest the contest signs starts this way."""
    return f"arbiter contest proof\n{contest}\n{challenge}".encode()


def proves(contest_key: bytes, contest: str, challenge: str, proof: str | None) -> bool:
    """True if ``proof`` (base64) is the contest key's signature of ``challenge``."""
    if not proof:
        return False
    try:
        key = Ed25519PublicKey.from_public_bytes(contest_key)
        key.verify(base64.b64decode(proof, validate=True), challenge_message(contest, challenge))
    except (InvalidSignature, binascii.Error, ValueError):
        return False
    return True


class SignedCalls(httpx.Auth):
    """Signs every request of an HTTP client with a worker's token, as process
    ``instance``."""

    requires_request_body = True

    def __init__(self, token: Token, instance: str) -> None:
        self.token = token
        self.instance = instance

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        target = request.url.raw_path.decode("ascii")
        request.headers["Authorization"] = authorization(
            self.token, request.method, target, request.content, self.instance
        )
        request.headers[INSTANCE_HEADER] = self.instance
        yield request
