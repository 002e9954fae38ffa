"""Which of a contestant's versions plays: each version's mark as its owner and the
public see it, so that "v1 accepted, v2 accepted" never leaves a reader guessing.

An accepted version is ``playing`` (the one the next test round pairs), a ``candidate
(not entered)`` (held back for testing until its owner enters it), ``frozen for the
final`` (the one the final plays, accepted from uploads before the freeze), ``after
the freeze`` (accepted too late for the final) or ``superseded`` (a newer one plays).
A version not accepted keeps its state (``building``, ``checking``, ``refused``).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.orm import Session

from arbiter.host.config import ContestConfig
from arbiter.host.models import Account, Version, stored_utc
from arbiter.host.rounds import final_begun, frozen_at

PLAYING = "playing"
CANDIDATE = "candidate (not entered)"
FROZEN = "frozen for the final"
LATE = "after the freeze: not in the final"
SUPERSEDED = "superseded"
DISQUALIFIED = "its owner disqualified"


def version_marks(
    session: Session, config: ContestConfig, account: Account, versions: Sequence[Version]
) -> dict[int, str]:
    """Each of ``account``'s ``versions``' mark, by version id."""
    entered = [v for v in versions if v.state == "accepted" and not v.trial]
    newest = max(entered, key=lambda v: v.number, default=None)
    frozen = None
    final = final_begun(session, config)
    if final:
        at = frozen_at(session, config)
        before = [v for v in entered if stored_utc(v.uploaded) <= at]
        frozen = max(before, key=lambda v: v.number, default=None)
    marks = {}
    for v in versions:
        if v.state != "accepted":
            marks[v.id] = v.state
        elif v.trial:
            marks[v.id] = CANDIDATE
        elif account.disqualified:
            marks[v.id] = DISQUALIFIED
        elif v is frozen:
            marks[v.id] = FROZEN
        elif final and v.number > (frozen.number if frozen else 0):
            marks[v.id] = LATE
        elif not final and v is newest:
            marks[v.id] = PLAYING
        else:
            marks[v.id] = SUPERSEDED
    return marks
