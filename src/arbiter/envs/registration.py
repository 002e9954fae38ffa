"""Every shipped game under a Gymnasium id, ``arbiter/<Game>-v0`` (``arbiter/Votey-v0``,
``arbiter/Checkers-v0``, ``arbiter/Alquerque-v0``, ``arbiter/ChineseCheckers-v0``,
``arbiter/Halma-v0``): one seat against a built-in engine
(:class:`~arbiter.envs.single.SingleAgentEnv`; ``gymnasium.make``'s keywords go to
it: ``opponent=``, ``seat=``, ``opponent_limit=``, the rules' options).

Gymnasium 1.x loads no plugins by itself: the ids are registered when
:mod:`arbiter.envs` is imported, and ``gymnasium.make("arbiter.envs:arbiter/Checkers-v0")``
imports it on the way (Gymnasium's ``module:id`` form). Nothing else is imported for
them, and registering twice changes nothing.
"""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

from arbiter.games import GAME_NAMES

NAMESPACE = "arbiter"
VERSION = 0
ENTRY = "arbiter.envs.single:SingleAgentEnv"


def env_name(game: str) -> str:
    """A game's Gymnasium name: its command-line name in CamelCase.

    >>> env_name("chinese-checkers")
    'ChineseCheckers'
    """
    return "".join(part.capitalize() for part in game.split("-"))


def env_id(game: str) -> str:
    """A game's Gymnasium id: ``arbiter/ChineseCheckers-v0``."""
    return f"{NAMESPACE}/{env_name(game)}-v{VERSION}"


def register_envs() -> None:
    """Registers every shipped game's id (those registered already are left)."""
    for game in GAME_NAMES:
        if env_id(game) not in registry:
            register(id=env_id(game), entry_point=ENTRY, kwargs={"game": game})
