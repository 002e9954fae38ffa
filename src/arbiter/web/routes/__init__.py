"""The routes of ``arbiter serve``, one router per part: the pages, live games, replays
and stored tournaments (each uses the server's state, :mod:`arbiter.web.served`)."""

from pathlib import Path

STATIC = Path(__file__).resolve().parents[1] / "static"
"""The pages' files."""
