"""Each game as a PettingZoo AEC environment: two agents taking turns on the rules engine.

The agents are ``player_0`` (the seat that moves first) and ``player_1``. Each observes
``{"observation": ..., "action_mask": ...}`` (:mod:`arbiter.envs.encoding`): the
position from its own side and, when it is to act, the actions it may play. A move of
several actions (a capture chain, one jump each) is played by the same agent acting
again. The rewards are the contest's: +1 to the winner, -1 to the loser, 0 each for a
draw, given when the game ends; an action the mask does not allow loses the game, as
an illegal move does in every contest (``infos[agent]["illegal"]`` says why). The
rules are the game's engine, with its options (``max_plies=``); where the game has a
compiled kernel the whole step (legs, mask, observation) runs there, as a batch of one
(:mod:`arbiter.envs.stepping`), and the Python step is the reference it is held to.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.logger import warn
from pettingzoo import AECEnv

from arbiter.contract import GameSpec
from arbiter.contract.learning import Encoding
from arbiter.envs.encoding import encoding_of
from arbiter.envs.kernel import ILLEGAL, MOVE
from arbiter.envs.stepping import Stepper, stepper
from arbiter.errors import ConfigError, NotationError, Reason
from arbiter.game import Outcome, Player
from arbiter.games import find_game

S = TypeVar("S")
M = TypeVar("M", bound=Hashable)

Observation = dict[str, npt.NDArray[np.int8]]
"""What an agent observes: ``observation`` and ``action_mask``."""

AGENTS = ("player_0", "player_1")
"""The agents, by seat."""


class GameEnv(AECEnv, Generic[S, M]):  # type: ignore[misc]  # PettingZoo is untyped
    """One game of ``game`` (a name, or a spec) at a time, as an AEC environment.

    ``reset(seed=..., options=...)`` starts a game: from the start position, or from
    ``options["position"]`` (the game's one-line position text), then
    ``opening_plies`` random moves drawn from ``seed`` (varied openings for self-play).

    :raises ConfigError: for an unknown game, one with neither a board nor an encoding
        of its own, or a bad option.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's class attribute)
        "render_modes": ["ansi", "human"],
        "name": "arbiter",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str | GameSpec[S, M],
        *,
        render_mode: str | None = None,
        opening_plies: int = 0,
        **rules_options: Any,
    ) -> None:
        super().__init__()
        spec = find_game(game) if isinstance(game, str) else game
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ConfigError(f"render_mode {render_mode!r}: expected ansi or human")
        if opening_plies < 0:
            raise ConfigError(f"opening_plies {opening_plies}: expected 0 or more")
        # PettingZoo's naming: the game's name in snake case and its version
        self.metadata = {**self.metadata, "name": f"{spec.name.replace('-', '_')}_v0"}
        self.spec = spec
        self.rules = spec.rules(**rules_options)
        self.encoding: Encoding[S, M] = encoding_of(spec, self.rules)
        self.render_mode = render_mode
        self.opening_plies = opening_plies
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        box = spaces.Box(0, 1, self.encoding.shape, np.int8)
        mask = spaces.Box(0, 1, (self.encoding.actions,), np.int8)
        observed = spaces.Dict({"observation": box, "action_mask": mask})
        self.observation_spaces = dict.fromkeys(AGENTS, observed)
        self.action_spaces = dict.fromkeys(AGENTS, spaces.Discrete(self.encoding.actions))
        self.outcome: Outcome | None = None
        self._step: Stepper[S, M] = stepper(self.rules, self.encoding)

    @property
    def position(self) -> S:
        """The position (after the last complete move)."""
        return self._step.position

    @property
    def last_move(self) -> M | None:
        """The last complete move, or None since :meth:`reset`."""
        return self._step.last_move

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Starts a new game (see the class docstring).

        :raises ConfigError: if ``options["position"]`` is not a position of the game.
        """
        s = self.rules.initial()
        if options and options.get("position"):
            try:
                s = self.spec.notation.parse_position(str(options["position"]))
            except NotationError as e:
                raise ConfigError(f"options['position']: {e}") from None
        rng = random.Random(seed)
        for _ in range(self.opening_plies):
            legal = self.rules.legal_moves(s)
            if not legal or self.rules.outcome(s) is not None:
                break
            s = self.rules.apply(s, rng.choice(legal))
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.outcome = None
        self._step.begin(s)
        self._entered()

    def _entered(self) -> None:
        """After a move (or a reset): the side to act, and the game's end if decided."""
        self.agent_selection = AGENTS[self._step.to_move()]
        if self._step.ended():
            outcome = self.rules.outcome(self.position)
            if outcome is not None:
                self._finish(outcome)

    def _finish(self, outcome: Outcome, illegal: tuple[Player, str] | None = None) -> None:
        self.outcome = outcome
        for seat, agent in enumerate(AGENTS):
            self.rewards[agent] = (
                0.0 if outcome.winner is None else (1.0 if outcome.winner == seat else -1.0)
            )
            self.terminations[agent] = True
            self.infos[agent] = {
                "result": outcome.result(),
                "reason": outcome.reason.value,
                "detail": outcome.detail,
            }
        if illegal is not None:
            self.infos[AGENTS[illegal[0]]]["illegal"] = illegal[1]

    def legal_actions(self) -> list[int]:
        """The actions the agent to act may play now, in the order of the legal moves."""
        return [] if self.outcome is not None else self._step.legal_actions()

    def actions_of(self, m: M) -> list[int]:
        """The actions that play the legal move ``m`` in the current position."""
        return list(self.encoding.actions_of(self.position, m))

    def observe(self, agent: str) -> Observation:
        seat: Player = 0 if agent == AGENTS[0] else 1
        to_act = agent == self.agent_selection and self.outcome is None
        mask = self._step.mask() if to_act else np.zeros(self.encoding.actions, np.int8)
        return {"observation": self._step.observation(seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        """Plays one action for the agent to act (``None`` for an agent whose game is
        over)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        seat: Player = 0 if agent == AGENTS[0] else 1
        number = self._number(action)
        done = ILLEGAL if number is None else self._step.act(number)
        if done == ILLEGAL:
            self._illegal(seat, action, number)
        elif done == MOVE:
            self._entered()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _number(self, action: Any) -> int | None:
        """The action as one of the game's action numbers, or None."""
        try:
            number = int(action)
        except (TypeError, ValueError, OverflowError):
            return None
        return number if 0 <= number < self.encoding.actions else None

    def _illegal(self, seat: Player, action: Any, number: int | None) -> None:
        if number is None:
            why = f"action {action!r} is not one of this game's actions"
        else:
            why = f"action {action!r} ({self.encoding.action_text(number)}) is not legal here"
        self._finish(Outcome(1 - seat, Reason.ILLEGAL_MOVE, why), (seat, why))

    def render(self) -> str | None:
        """The board as text (``ansi``), or printed (``human``)."""
        if self.render_mode is None:
            warn("render() called without a render_mode (ansi or human)")
            return None
        text = self.spec.notation.draw_board(self.position, self.last_move)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the rules engine holds no resources."""
