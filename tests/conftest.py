"""Shared test settings: the test game is registered with the games."""

from arbiter.games import register
from tests.fakegame import RACE, RACE_FILES

register(RACE)
register(RACE_FILES)

# the misbehaving agent scripts and the test game's program are programs, not test modules
collect_ignore_glob = ["referee/agents/*.py", "fakegame/program.py"]
