"""The contest server's routes, a router per audience: :mod:`.public` (anyone),
:mod:`.accounts` (signing in and out), :mod:`.contestant` (an entrant's own),
:mod:`.organiser` and :mod:`.worker_api` (machines that play the games). What they
share is in :mod:`arbiter.host.deps`."""

from pathlib import Path

STATIC = Path(__file__).parents[2] / "web" / "static"
"""The boards and replays of the web app, shared with ``arbiter serve``."""
