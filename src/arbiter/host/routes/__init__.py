"""The contest server's routes, a router per audience: :mod:`.public` (anyone),
:mod:`.accounts` (signing in and out), :mod:`.contestant` (an entrant's own),
:mod:`.organiser` and :mod:`.worker_api` (machines that play the games). What they
share is in :mod:`arbiter.host.deps`."""

import functools
import html
from pathlib import Path

STATIC = Path(__file__).parents[2] / "web" / "static"
"""The boards and replays of the web app, shared with ``arbiter serve``."""


@functools.cache
def _static_text(name: str) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


def headed_page(name: str, contest: str, head: str = "") -> str:
    """The web app's page ``name`` (``replay.html``, ``game.html``) headed and titled
    with the ``contest``'s name, as every page of the contest is, with ``head`` added
    to its ``<head>``."""
    shown = html.escape(contest)
    text = _static_text(name)
    text = text.replace('<header><a href="/">arbiter</a>', f'<header><a href="/">{shown}</a>', 1)
    text = text.replace("<title>arbiter:", f"<title>{shown}:", 1)
    return text.replace("<head>", f"<head>\n{head}", 1) if head else text
