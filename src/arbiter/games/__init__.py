"""The registry of games: one :class:`~arbiter.contract.GameSpec` per contest, by name.

An explicit table with no registration side effects at import: a game's modules
are imported only when it is looked up. A game from outside the package (a contest
of an organiser's own, a test game) is one more line: ``NAME=PACKAGE`` in the
``ARBITER_GAMES`` variable (comma-separated; the package's ``SPEC`` is the game,
read by every command and by the programs a referee starts, who are passed the
variable where their game asks for it), or :func:`register` in a running process.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from functools import cache, partial
from typing import Any

from arbiter.contract import GameSpec
from arbiter.errors import ConfigError

GAMES_VARIABLE = "ARBITER_GAMES"
"""The variable naming games from outside the package: ``NAME=PACKAGE,...``."""


def _load(module: str) -> GameSpec[Any, Any]:
    """The ``SPEC`` of the game package ``module``, imported now.

    :raises ConfigError: naming the package, if it cannot be imported or has no
        ``SPEC``.
    """
    try:
        found = importlib.import_module(module)
    except ImportError as e:
        raise ConfigError(f"cannot import the game package {module!r}: {e}") from None
    spec = getattr(found, "SPEC", None)
    if not isinstance(spec, GameSpec):
        raise ConfigError(f"the game package {module!r} has no SPEC (a GameSpec)")
    return spec


def outside_games() -> dict[str, str]:
    """The games ``ARBITER_GAMES`` names: each name with its package.

    :raises ConfigError: naming an entry that is not ``NAME=PACKAGE``.

    >>> kept = os.environ.get(GAMES_VARIABLE, "")
    >>> os.environ[GAMES_VARIABLE] = "nim=tests.nim"
    >>> outside_games()
    {'nim': 'tests.nim'}
    >>> os.environ[GAMES_VARIABLE] = kept
    """
    found: dict[str, str] = {}
    for entry in os.environ.get(GAMES_VARIABLE, "").split(","):
        if not entry.strip():
            continue
        name, sep, module = (part.strip() for part in entry.partition("="))
        if not sep or not name or not module:
            raise ConfigError(f"{GAMES_VARIABLE}: {entry.strip()!r} is not NAME=PACKAGE")
        found[name.lower().replace("_", "-")] = module
    return found


GAMES: dict[str, str] = {
    "votey": "arbiter.games.votey",
    "checkers": "arbiter.games.checkers",
    "alquerque": "arbiter.games.alquerque",
    "chinese-checkers": "arbiter.games.chinese_checkers",
    "halma": "arbiter.games.halma",
}
"""The games that ship with arbiter: each command-line name with the package whose
``SPEC`` is the game. A new game is its folder and one line here."""

_FACTORIES: dict[str, Callable[[], GameSpec[Any, Any]]] = {
    name: partial(_load, module) for name, module in GAMES.items()
}

GAME_NAMES: tuple[str, ...] = tuple(GAMES)
"""The games that ship with arbiter, by their command-line names."""


def game_names() -> tuple[str, ...]:
    """Returns the names of every game that can be looked up now: arbiter's, those
    registered, then those ``ARBITER_GAMES`` names.

    :raises ConfigError: if ``ARBITER_GAMES`` is malformed.
    """
    return tuple(dict.fromkeys([*_FACTORIES, *outside_games()]))


def register(spec: GameSpec[Any, Any]) -> None:
    """Makes ``spec`` findable by its name (replacing a game of that name)."""
    _FACTORIES[spec.name] = lambda: spec


def find_game(name: str) -> GameSpec[Any, Any]:
    """Returns the spec of the game called ``name`` on the command line.

    :raises ConfigError: naming the game and the known ones, if there is none, or
        naming the package of an outside game that cannot be loaded.
    """
    key = name.strip().lower().replace("_", "-")
    if key in _FACTORIES:
        return _FACTORIES[key]()
    outside = outside_games()
    if key in outside:
        return _cached(outside[key])
    raise ConfigError(f"unknown game {name!r}: expected one of {', '.join(game_names())}")


@cache
def _cached(module: str) -> GameSpec[Any, Any]:
    """An outside game's spec, loaded once."""
    return _load(module)
