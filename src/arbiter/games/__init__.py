"""The registry of games: one :class:`~arbiter.contract.GameSpec` per contest, by name.

An explicit table with no registration side effects at import: a game's modules
are imported only when it is looked up. :func:`register` adds a game from outside
the package (a test game, or a contest of an organiser's own).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import partial
from typing import Any

from arbiter.contract import GameSpec
from arbiter.errors import ConfigError


def _load(module: str) -> GameSpec[Any, Any]:
    """The ``SPEC`` of the game package ``module``, imported now."""
    spec: GameSpec[Any, Any] = importlib.import_module(module).SPEC
    return spec


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
    """Returns the names of every game that can be looked up now."""
    return tuple(_FACTORIES)


def register(spec: GameSpec[Any, Any]) -> None:
    """Makes ``spec`` findable by its name (replacing a game of that name)."""
    _FACTORIES[spec.name] = lambda: spec


def unregister(name: str) -> None:
    """Forgets the game called ``name``, if it was registered."""
    if name not in GAME_NAMES:
        _FACTORIES.pop(name, None)


def find_game(name: str) -> GameSpec[Any, Any]:
    """Returns the spec of the game called ``name`` on the command line.

    :raises ConfigError: naming the game and the known ones, if there is none.
    """
    key = name.strip().lower().replace("_", "-")
    if key not in _FACTORIES:
        raise ConfigError(f"unknown game {name!r}: expected one of {', '.join(_FACTORIES)}")
    return _FACTORIES[key]()
