"""The delays failed log-ins earn, kept in the contest's database so that every server
process of the contest holds the same address back, and a restart forgets nothing.

A row counts the failures of one name from one address, and a row with an empty
name those of every name from that address (:class:`~arbiter.host.models.LoginFailure`).
After ``free`` failures a row's address waits ``first`` seconds before its next try,
twice as long after each further failure, up to ``most``; an hour of quiet forgets
a row. Times are seconds since the epoch (the processes may run on several
machines: a monotonic clock is one process's own).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from arbiter.host.db import insert_of
from arbiter.host.models import LoginFailure

QUIET = 3600.0
"""Seconds after its last failure when a row is forgotten."""

TIDY_ONE_IN = 100
"""About one failure in this many deletes the rows quiet for :data:`QUIET`."""

ANY_NAME = ""
"""The name of an address's row over every name."""

FIELD = 64
"""The longest name or address a row keeps (the columns' width)."""


@dataclass(frozen=True, slots=True)
class Delays:
    """How failures slow an address: ``free`` tries per name (``free_per_address``
    over all names), then ``first`` seconds doubling up to ``most``."""

    free: int
    free_per_address: int
    first: float
    most: float

    def wait(self, session: Session, name: str, address: str, moment: float) -> float:
        """Seconds ``address`` must still wait before trying ``name`` (0: none)."""
        keys = [(_name(name), _address(address)), (ANY_NAME, _address(address))]
        held = [
            f.until
            for f in session.scalars(
                select(LoginFailure).where(
                    LoginFailure.address == _address(address),
                    LoginFailure.name.in_([k[0] for k in keys]),
                )
            )
            if moment - f.last <= QUIET
        ]
        return max(0.0, max(held, default=0.0) - moment)

    def failed(self, session: Session, name: str, address: str, moment: float) -> None:
        """Counts a failure of ``name`` from ``address`` (and of the address over all
        names), and commits it: the caller is about to refuse the log-in."""
        if random.randrange(TIDY_ONE_IN) == 0:
            session.execute(delete(LoginFailure).where(LoginFailure.last < moment - QUIET))
        for key, free in (
            (_name(name), self.free),
            (ANY_NAME, self.free_per_address),
        ):
            self._count(session, key, _address(address), free, moment)
        session.commit()

    def succeeded(self, session: Session, name: str, address: str) -> None:
        """Forgets the failures of ``name`` from ``address`` (not those of the address
        over all names); not committed: it lands with the log-in."""
        session.execute(
            delete(LoginFailure).where(
                LoginFailure.name == _name(name), LoginFailure.address == _address(address)
            )
        )

    def _count(self, session: Session, name: str, address: str, free: int, moment: float) -> None:
        insert = insert_of(session)
        session.execute(
            insert(LoginFailure)
            .values(name=name, address=address, count=0, last=moment, until=0.0)
            .on_conflict_do_nothing(index_elements=["name", "address"])
        )
        row = session.scalars(
            select(LoginFailure)
            .where(LoginFailure.name == name, LoginFailure.address == address)
            .with_for_update()  # two processes counting at once each count
        ).one()
        if moment - row.last > QUIET:
            row.count = 0
        row.count += 1
        row.last = moment
        if row.count >= free:
            row.until = moment + min(self.most, self.first * 2 ** (row.count - free))
        session.flush()


def _name(name: str) -> str:
    """A name's row key: never :data:`ANY_NAME`, whatever was typed."""
    return "@" + name.lower()[: FIELD - 1]


def _address(address: str) -> str:
    return address[:FIELD]
