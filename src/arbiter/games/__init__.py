"""The registry of games: one :class:`GameSpec` per contest, found by its command-line name.

An explicit dict, with no registration side effects at import.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from arbiter.errors import ConfigError
from arbiter.game import Game


@dataclass(frozen=True, slots=True)
class GameSpec:
    """What the platform needs to know of one contest game.

    ``make`` builds the rules engine (keyword options such as ``max_plies``);
    ``notation``, ``protocol`` and ``evaluate`` are the game's modules of those names.
    """

    name: str
    title: str
    make: Callable[..., Game[Any, Any]]
    notation: ModuleType
    protocol: ModuleType
    evaluate: ModuleType
    seat_names: Sequence[str]


def _votey() -> GameSpec:
    from arbiter.games.votey import evaluate, notation, protocol, rules

    return GameSpec(
        "votey", "Votey Checkers", rules.Votey, notation, protocol, evaluate, ("black", "white")
    )


def _checkers() -> GameSpec:
    from arbiter.games.checkers import evaluate, notation, protocol, rules

    return GameSpec(
        "checkers",
        "American checkers",
        rules.Checkers,
        notation,
        protocol,
        evaluate,
        ("red", "white"),
    )


_FACTORIES: dict[str, Callable[[], GameSpec]] = {"votey": _votey, "checkers": _checkers}

GAME_NAMES: tuple[str, ...] = tuple(_FACTORIES)


def find_game(name: str) -> GameSpec:
    """Returns the spec of the game called ``name`` on the command line.

    :raises ConfigError: naming the game and the known ones, if there is none.
    """
    key = name.strip().lower().replace("_", "-")
    if key not in _FACTORIES:
        raise ConfigError(f"unknown game {name!r}: expected one of {', '.join(GAME_NAMES)}")
    return _FACTORIES[key]()
