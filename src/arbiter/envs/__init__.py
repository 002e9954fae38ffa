"""Every game with a board or an encoding of its own as learning environments:
PettingZoo AEC for two learners (self-play), Gymnasium for one learner against a
built-in engine.

>>> from arbiter import envs
>>> e = envs.env("votey")
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum())
((8, 8, 6), 36)

They need the ``rl`` extra (``pip install -e '.[rl]'``: NumPy, Gymnasium, PettingZoo);
the rest of arbiter does not. Positions, actions and observations are described in
:mod:`arbiter.envs.encoding`, the environments in :mod:`arbiter.envs.aec` and
:mod:`arbiter.envs.single`, and many games stepped at once, after pgx, in
:mod:`arbiter.envs.batch` (``envs.batch("checkers", 1024)``). Each shipped
game has a Gymnasium id as well
(:mod:`arbiter.envs.registration`): ``gymnasium.make("arbiter.envs:arbiter/Checkers-v0")``.
"""

from __future__ import annotations

from typing import Any

try:
    from pettingzoo.utils import wrappers

    from arbiter.contract.learning import Encoding
    from arbiter.envs.aec import AGENTS, GameEnv
    from arbiter.envs.batch import Batch, batch
    from arbiter.envs.encoding import CHANNELS, BoardEncoding, encoding_of
    from arbiter.envs.registration import env_id, register_envs
    from arbiter.envs.single import SingleAgentEnv
except ImportError as e:  # the extra is not installed
    raise ImportError(
        f"arbiter.envs needs the rl extra ({e.name} is missing): pip install -e '.[rl]'"
    ) from None

__all__ = [
    "AGENTS",
    "CHANNELS",
    "Batch",
    "BoardEncoding",
    "Encoding",
    "GameEnv",
    "SingleAgentEnv",
    "batch",
    "encoding_of",
    "env",
    "env_id",
    "gym_env",
    "raw_env",
]


def raw_env(game: str, **kwargs: Any) -> GameEnv[Any, Any]:
    """The AEC environment of ``game`` without PettingZoo's wrappers (see :class:`GameEnv`).

    :raises ConfigError: for an unknown game or a bad option.
    """
    return GameEnv(game, **kwargs)


def env(game: str, **kwargs: Any) -> Any:
    """The AEC environment of ``game`` (``votey``, ``checkers``, ``alquerque``,
    ``chinese-checkers``, ``halma``) in PettingZoo's order-enforcing wrapper, as its
    own environments are given; keywords as :class:`GameEnv` takes them.

    :raises ConfigError: for an unknown game or a bad option.
    """
    return wrappers.OrderEnforcingWrapper(raw_env(game, **kwargs))


def gym_env(game: str, **kwargs: Any) -> SingleAgentEnv[Any, Any]:
    """``game`` as a Gymnasium environment against a built-in engine (keywords as
    :class:`SingleAgentEnv` takes them: ``opponent``, ``seat``, ``opponent_limit``).

    :raises ConfigError: for an unknown game or engine, or a bad option.
    """
    return SingleAgentEnv(game, **kwargs)


register_envs()  # Gymnasium's ids (arbiter/Checkers-v0, ...): a dict entry each
