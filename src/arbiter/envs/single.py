"""One seat of a game as a Gymnasium environment, the other played by a built-in engine.

The learner's observation, action mask, actions and rewards are those of
:class:`~arbiter.envs.aec.GameEnv` for its seat; after each of its moves the opponent
(``random``, ``greedy``, ``alphabeta:depth=2``: any built-in engine as
``arbiter match`` names it) answers within ``opponent_limit``, so every ``step``
returns with the learner to act again, or the game over. The opponent draws its
choices from the ``reset`` seed, so a seeded episode is repeatable.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, Generic, SupportsFloat, TypeVar

import gymnasium
import numpy as np

from arbiter.agents.registry import make_agent
from arbiter.clock import Limit
from arbiter.contract import GameSpec
from arbiter.envs.aec import AGENTS, GameEnv, Observation
from arbiter.errors import ConfigError

S = TypeVar("S")
M = TypeVar("M", bound=Hashable)


class SingleAgentEnv(gymnasium.Env[Observation, np.int64], Generic[S, M]):
    """``game`` from ``seat`` (0 moves first) against the built-in ``opponent``.

    :raises ConfigError: for an unknown game or engine, or a seat other than 0 or 1.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"]}  # noqa: RUF012

    def __init__(
        self,
        game: str | GameSpec[S, M],
        *,
        opponent: str = "random",
        seat: int = 0,
        opponent_limit: Limit | None = None,
        render_mode: str | None = None,
        opening_plies: int = 0,
        **rules_options: Any,
    ) -> None:
        if seat not in (0, 1):
            raise ConfigError(f"seat {seat}: expected 0 (first to move) or 1")
        self.game: GameEnv[S, M] = GameEnv(
            game, render_mode=render_mode, opening_plies=opening_plies, **rules_options
        )
        self.seat = seat
        self.me = AGENTS[seat]
        self.opponent = make_agent(self.game.spec, opponent)
        self.opponent_limit = opponent_limit or Limit()
        self.render_mode = render_mode
        self.observation_space = self.game.observation_space(self.me)
        self.action_space = self.game.action_space(self.me)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Starts a game (``options`` as :meth:`GameEnv.reset` takes them) and lets the
        opponent move first where it holds the first seat."""
        super().reset(seed=seed)
        drawn = int(self.np_random.integers(2**31))
        self.game.reset(seed=drawn, options=options)
        self.opponent.reset(self.game.rules, 1 - self.seat, drawn)
        self._answer()
        return self.game.observe(self.me), dict(self.game.infos[self.me])

    def step(
        self, action: np.int64 | int
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Plays one leg of the learner's move; when the move is complete, the
        opponent's reply.

        :raises RuntimeError: if the game is over (``reset`` starts another).
        """
        if self.game.outcome is not None:
            raise RuntimeError("the game is over: call reset() to start another")
        before = self.game.position
        self.game.step(action)
        reward = self.game.rewards[self.me]
        if self.game.last_move is not None and self.game.position is not before:
            self.opponent.observe(before, self.game.last_move)
        reward += self._answer()
        over = self.game.outcome is not None
        return self.game.observe(self.me), reward, over, False, dict(self.game.infos[self.me])

    def _answer(self) -> float:
        """Plays the opponent's moves while it is to act; returns the learner's reward."""
        reward = 0.0
        while self.game.outcome is None and self.game.agent_selection != self.me:
            m = self.opponent.choose(self.game.position, self.opponent_limit)
            for action in self.game.actions_of(m):
                self.game.step(action)
            reward += self.game.rewards[self.me]
        return reward

    def render(self) -> str | None:
        """The board as text (``ansi``), or printed (``human``)."""
        return self.game.render()
