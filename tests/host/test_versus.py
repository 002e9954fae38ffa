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
