"""Accounts: the organiser (made from the command line), contestants (registering
where the contest is open, or with an invitation code), and log-in.

Passwords are hashed with Argon2id (argon2-cffi's defaults, RFC 9106's second
recommended set); a hash made with weaker parameters is upgraded at the next log-in.
Failed log-ins slow the address that made them, with growing delays, per name and
per address (:class:`LogIn`), so a password cannot be guessed at speed and nobody
can lock another out; a failed log-in says the same whether the name or the
password was wrong.
"""

from __future__ import annotations

import math
import re
import secrets
import time
from collections.abc import Callable

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from arbiter.errors import ArbiterError
from arbiter.host.login_delays import Delays
from arbiter.host.models import Account, Invitation

NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{2,31}")
"""An account name: 3 to 32 letters, digits, ``_`` or ``-``, starting with a letter
(it appears in standings, file names and URLs as it is)."""

MIN_PASSWORD = 10
MAX_PASSWORD = 256

ROLES = ("organiser", "contestant")

_hasher = PasswordHasher()


class AccountError(ArbiterError, ValueError):
    """A name, password or code that cannot be taken; the message says which."""


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def check_name(name: str) -> str:
    """:raises AccountError: for a name :data:`NAME` does not allow."""
    if not NAME.fullmatch(name):
        raise AccountError("a name is 3 to 32 letters, digits, '_' or '-', starting with a letter")
    return name


def check_password(password: str) -> str:
    """:raises AccountError: for a password shorter than :data:`MIN_PASSWORD`."""
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError(f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    return password


def create(session: Session, name: str, password: str, role: str = "contestant") -> Account:
    """Makes an account (not committed).

    :raises AccountError: for a bad name or password, or a name already taken (in
        any letter case, so ``Alice`` and ``alice`` are never two people).
    """
    if role not in ROLES:
        raise AccountError(f"a role is one of {', '.join(ROLES)}")
    check_name(name)
    check_password(password)
    taken = session.scalar(select(Account.id).where(func.lower(Account.name) == name.lower()))
    if taken is not None:
        raise AccountError(f"the name {name!r} is taken")
    account = Account(name=name, password_hash=hash_password(password), role=role)
    session.add(account)
    session.flush()
    return account


def set_password(session: Session, name: str, password: str) -> Account:
    """Sets the password of ``name`` (the command line's way to make or mend the
    organiser's account).

    :raises AccountError: for an unknown name or a bad password.
    """
    account = session.scalar(select(Account).where(Account.name == name))
    if account is None:
        raise AccountError(f"no account named {name!r}")
    account.password_hash = hash_password(check_password(password))
    return account


def change_password(account: Account, current: str, new: str) -> None:
    """Sets ``account``'s password to ``new`` if ``current`` is its password (not
    committed).

    :raises AccountError: for a wrong current password or a new one too short.
    """
    try:
        _hasher.verify(account.password_hash, current)
    except (VerificationError, InvalidHashError):
        raise AccountError("the current password is wrong") from None
    account.password_hash = hash_password(check_password(new))


def register(
    session: Session, name: str, password: str, code: str | None, *, open_: bool
) -> Account:
    """A contestant registering: with an unused invitation ``code`` unless the contest
    is open.

    :raises AccountError: for a missing, unknown or used code, or as :func:`create`.
    """
    invitation = None
    if not open_:
        if not code:
            raise AccountError("this contest takes entrants by invitation: give your code")
        invitation = session.get(Invitation, code)
        if invitation is None or invitation.used_by is not None:
            raise AccountError("that invitation code is unknown or used")
    account = create(session, name, password)
    if invitation is not None:
        invitation.used_by = account.id
    return account


def invite(session: Session) -> str:
    """A new invitation code (not committed)."""
    code = secrets.token_urlsafe(12)
    session.add(Invitation(code=code))
    return code


class LogIn:
    """Log-in slowed, never locked: after ``free`` failed attempts at a name from one
    address, that address waits before trying that name again, twice as long after
    each further failure (``first`` seconds, then double, up to ``most``); an address
    failing at many names (``free_per_address``) waits the same way for all of them.

    A name is never held for every address, so nobody locks its owner out by failing
    at it from elsewhere (a fixed window per name did: ten wrong passwords a minute,
    each from a new address, kept the organiser out). Guessing stays slow: each
    address gets a few tries per name, and each try costs an Argon2id hash. Failures
    are forgotten after an hour of quiet. They are kept in the contest's database
    (:mod:`arbiter.host.login_delays`): every server process holds the same address
    back, and a restart forgets nothing.
    """

    def __init__(
        self,
        *,
        free: int = 3,
        free_per_address: int = 20,
        first: float = 1.0,
        most: float = 900.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.delays = Delays(free, free_per_address, first, most)
        self.clock = clock

    def __call__(self, session: Session, name: str, password: str, address: str) -> Account:
        """The account ``name`` if ``password`` is its password.

        :raises AccountError: "wrong name or password" (the same for either), or
            "wait N s" while this address is held back for this name.
        """
        moment = self.clock()
        wait = self.delays.wait(session, name, address, moment)
        if wait > 0:
            raise AccountError(
                f"too many failed log-ins from your address: wait {math.ceil(wait)} s"
            )
        account = session.scalar(select(Account).where(Account.name == name))
        wrong = AccountError("wrong name or password")
        try:
            if account is None:
                _hasher.hash(password)  # the same time as a real check
                raise wrong
            try:
                _hasher.verify(account.password_hash, password)
            except (VerificationError, InvalidHashError):
                raise wrong from None
        except AccountError:
            self.delays.failed(session, name, address, moment)
            raise
        self.delays.succeeded(session, name, address)
        if _hasher.check_needs_rehash(account.password_hash):
            account.password_hash = hash_password(password)
        return account
