"""Shared test settings: the test game is registered with the games."""

import os
import tempfile

from arbiter.games import register
from tests.fakegame import RACE, RACE_FILES

register(RACE)
register(RACE_FILES)

# the misbehaving agent scripts and the test game's program are programs, not test modules
collect_ignore_glob = ["referee/agents/*.py", "fakegame/program.py"]

# records written by the tests are sealed with a key of their own, never the user's
os.environ["ARBITER_RECORD_KEY"] = os.path.join(tempfile.mkdtemp(prefix="arbiter-key-"), "key")
