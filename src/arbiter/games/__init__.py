"""The registry of games: one :class:`~arbiter.contract.GameSpec` per contest, by name.

An explicit table with no registration side effects at import: a game's modules
are imported only when it is looked up. :func:`register` adds a game from outside
the package (a test game, or a contest of an organiser's own).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arbiter.contract import GameSpec
from arbiter.errors import ConfigError


def _votey() -> GameSpec[Any, Any]:
    from arbiter.games.votey import SPEC

    return SPEC


def _checkers() -> GameSpec[Any, Any]:
    from arbiter.games.checkers import SPEC

    return SPEC


def _alquerque() -> GameSpec[Any, Any]:
    from arbiter.games.alquerque import SPEC

    return SPEC


def _chinese_checkers() -> GameSpec[Any, Any]:
    from arbiter.games.chinese_checkers import SPEC

    return SPEC


def _halma() -> GameSpec[Any, Any]:
    from arbiter.games.halma import SPEC

    return SPEC


_FACTORIES: dict[str, Callable[[], GameSpec[Any, Any]]] = {
    "votey": _votey,
    "checkers": _checkers,
    "alquerque": _alquerque,
    "chinese-checkers": _chinese_checkers,
    "halma": _halma,
}

GAME_NAMES: tuple[str, ...] = tuple(_FACTORIES)
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
