"""Playing an entrant's program from the contest's page: only an entrant whose
accepted version has a stored program is an opponent."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbiter.host.versus import NoOpponent, entrant_agent
from tests.host.contests import seeded


def test_an_entrant_whose_program_is_not_stored_is_no_opponent(
    tmp_path: Path, database_url: str
) -> None:
    db, config = seeded(tmp_path, database_url, ("alice", "bob"))  # accepted, none stored
    with db.session() as s:
        with pytest.raises(NoOpponent, match="'alice' has no accepted program to play"):
            entrant_agent(s, config, "alice")
        with pytest.raises(NoOpponent, match="'nobody' has no accepted program to play"):
            entrant_agent(s, config, "nobody")
    db.close()


def test_the_entrant_asked_for_is_the_one_found_not_another(
    tmp_path: Path, database_url: str
) -> None:
    # bob's program is recorded (and not in the store), alice's is not: asking for bob
    # reaches his program, asking for alice never takes bob's in her place
    from sqlalchemy import select

    from arbiter.host.models import Account, Version

    db, config = seeded(tmp_path, database_url, ("alice", "bob"))
    with db.session() as s:
        bob = s.scalar(select(Account.id).where(Account.name == "bob"))
        row = s.scalar(select(Version).where(Version.account_id == bob))
        assert row is not None
        row.program_sha256 = "b" * 64
        s.commit()
        with pytest.raises(NoOpponent, match="the program of 'bob' cannot be started"):
            entrant_agent(s, config, "bob")
        with pytest.raises(NoOpponent, match="'alice' has no accepted program to play"):
            entrant_agent(s, config, "alice")
    db.close()
