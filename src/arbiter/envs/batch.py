"""Many games at once, after pgx: ``n`` games of one game stepped by one call, each
step returning arrays a learner feeds a network from.

>>> from arbiter import envs
>>> games = envs.batch("checkers", 4, seed=1)
>>> state = games.init()
>>> state.observation.shape, state.legal_action_mask.shape, state.rewards.shape
((4, 8, 8, 6), (4, 1024), (4, 2))
>>> import numpy as np
>>> first = np.argmax(state.legal_action_mask, axis=1)  # each game's first legal action
>>> state = games.step(first)
>>> state.current_player.tolist()
[1, 1, 1, 1]

A state's attributes are named as pgx names them (:class:`~arbiter.envs.kernel.Arrays`):
``observation`` ``(n, rows, columns, planes)`` from each game's side to move,
``legal_action_mask`` ``(n, actions)``, ``current_player``, ``rewards`` ``(n, 2)`` by
seat, ``terminated`` and ``truncated``. Observations and actions are the AEC
environment's (:mod:`arbiter.envs.encoding`): a capture chain is one action per jump,
its player acting again. An action the mask does not allow loses that game, as an
illegal move does in every contest. With ``auto_reset`` (the default) a game that ends
is started again at once: its step reports the end (``terminated``, ``rewards``) and
shows the next game's start. ``opening_plies`` random moves begin each game, drawn from
``seed`` (the same on both paths).

With an ``opponent`` (any built-in engine as ``arbiter match`` names it: ``random``,
``greedy``, ``alphabeta:depth=2``) the learner holds ``seat`` in every game and the
opponent answers within each step, as the Gymnasium environment's does: every state
returned has the learner to act, or its game over. ``random`` plays in C, its moves
drawn from each game's generator; another engine is asked game by game, so a batch
against it runs at that engine's speed.

On the compiled core the games live in C and a step is one call with no Python loop
over the games; the arrays are the batch's own, written in place by the next step (copy
what you keep). A game without a kernel (a toy game, an encoding of its own, or
``ARBITER_PURE``) is stepped game by game in Python, with the same results.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt

from arbiter.agents.registry import make_agent
from arbiter.clock import Limit
from arbiter.contract import GameSpec
from arbiter.envs.encoding import BoardEncoding, encoding_of
from arbiter.envs.kernel import (
    ILLEGAL,
    MOVE,
    Arrays,
    compiled_games,
    draws_base,
    kernel_name,
    mix64,
)
from arbiter.envs.stepping import PythonStepper
from arbiter.errors import ConfigError
from arbiter.game import Game
from arbiter.games import find_game

S = TypeVar("S")
M = TypeVar("M", bound=Hashable)


class Batch(Generic[S, M]):
    """``n`` games of ``game`` (a name, or a spec) with the rules' options
    (``max_plies=``); see the module docstring.

    :raises ConfigError: for an unknown game, one with neither a board nor an encoding
        of its own, or a bad option.
    """

    def __init__(
        self,
        game: str | GameSpec[S, M],
        n: int,
        *,
        seed: int = 0,
        auto_reset: bool = True,
        opening_plies: int = 0,
        opponent: str | None = None,
        seat: int = 0,
        opponent_limit: Limit | None = None,
        **rules_options: Any,
    ) -> None:
        if n < 1:
            raise ConfigError(f"a batch of {n} games: expected 1 or more")
        if opening_plies < 0:
            raise ConfigError(f"opening_plies {opening_plies}: expected 0 or more")
        if seat not in (0, 1):
            raise ConfigError(f"seat {seat}: expected 0 (first to move) or 1")
        self.spec = find_game(game) if isinstance(game, str) else game
        self.seat = seat
        # the engine asked game by game (random plays inside the games themselves)
        self._engine = None
        if opponent is not None and opponent != "random":
            self._engine = make_agent(self.spec, opponent)
        self._limit = opponent_limit or Limit()
        rival = 1 - seat if opponent == "random" else -1
        self.rules: Game[S, M] = self.spec.rules(**rules_options)
        self.encoding = encoding_of(self.spec, self.rules)
        self.n = n
        self.num_actions = self.encoding.actions
        self.observation_shape = tuple(self.encoding.shape)
        self._arrays = Arrays.zeros(n, self.observation_shape, self.num_actions)
        encoding, arrays = self.encoding, self._arrays
        if isinstance(encoding, BoardEncoding) and kernel_name(encoding, self.rules) is not None:
            self._games: Any = compiled_games(
                encoding,
                self.rules,
                arrays,
                seed=seed,
                opening_plies=opening_plies,
                auto_reset=auto_reset,
                rival=rival,
            )
        else:
            self._games = PythonGames(
                self.rules,
                encoding,
                arrays,
                seed=seed,
                opening_plies=opening_plies,
                auto_reset=auto_reset,
                rival=rival,
            )
        if self._engine is not None:
            self._engine.reset(self.rules, 1 - seat, seed)

    @property
    def compiled(self) -> bool:
        """Whether the games are stepped on the compiled core."""
        return not isinstance(self._games, PythonGames)

    def init(self) -> Arrays:
        """Every game from its start (and its opening); rewards 0."""
        self._games.init()
        self._answer()
        return self._arrays

    def step(self, actions: npt.ArrayLike) -> Arrays:
        """One action for each game's side to move.

        :raises ValueError: if ``actions`` is not ``n`` integers.
        """
        chosen = np.ascontiguousarray(actions, dtype=np.int64)
        if chosen.shape != (self.n,):
            raise ValueError(f"actions of shape {chosen.shape}: expected ({self.n},)")
        self._games.step(chosen)
        self._answer()
        return self._arrays

    def _answer(self) -> None:
        """The engine's moves in every game where it is to move (a game that ends
        restarting where it may, with the engine to move first again)."""
        if self._engine is None:
            return
        rival = 1 - self.seat
        while waiting := self._games.waiting(rival):
            for i in waiting:
                s = self._position(i)
                m = self._engine.choose(s, self._limit)
                for action in self.encoding.actions_of(s, m):
                    self._games.play(i, action)

    def _position(self, i: int) -> S:
        """Game ``i``'s position as the rules engine's state."""
        if isinstance(self._games, PythonGames):
            return self._games.games[i].position  # type: ignore[no-any-return]
        unpack = getattr(self.rules, "compiled").unpack  # noqa: B009 (a kernel: compiled)
        return unpack(self._games.state(i))  # type: ignore[no-any-return]

    def random_actions(self) -> npt.NDArray[np.int64]:
        """For each game, an action its side to move may play, drawn uniformly from the
        game's generator (``seed``); -1 for a game that is over. A random player for
        baselines and opponents, without a pass over the whole mask."""
        out = np.empty(self.n, np.int64)
        self._games.random(out)
        return out


class PythonGames(Generic[S, M]):
    """The batch game by game on the rules engine and the encoding in Python: for a game
    without a kernel, and the reference the compiled batch is held to."""

    def __init__(
        self,
        rules: Game[S, M],
        encoding: Any,
        arrays: Arrays,
        *,
        seed: int,
        opening_plies: int,
        auto_reset: bool,
        rival: int = -1,
    ) -> None:
        self.rules = rules
        self.arrays = arrays
        self.opening = opening_plies
        self.auto_reset = auto_reset
        self.rival = rival
        n = len(arrays.current_player)
        self.games = [PythonStepper(rules, encoding) for _ in range(n)]
        self.over = [False] * n
        self.draws = [(draws_base(seed, i), 0) for i in range(n)]

    def init(self) -> None:
        self.arrays.rewards[:] = 0
        for i in range(len(self.games)):
            self._restart(i)
            self._publish(i)
            self._random_answer(i)

    def step(self, actions: npt.NDArray[np.int64]) -> None:
        self.arrays.rewards[:] = 0
        for i in range(len(self.games)):
            self.arrays.terminated[i] = self.over[i]
            if not self.over[i]:
                self.play(i, int(actions[i]))
                self._random_answer(i)

    def play(self, i: int, action: int) -> None:
        """One action for game ``i`` within a step (``step_game`` in ``csrc/envs.c``)."""
        if self.over[i]:
            return
        game = self.games[i]
        seat = game.to_move()
        known = 0 <= action < self.arrays.legal_action_mask.shape[1]
        done = game.act(action) if known else ILLEGAL
        if done == ILLEGAL:
            self._end(i, 1 - seat)
        elif done == MOVE and game.ended():
            outcome = self.rules.outcome(game.position)
            self._end(i, None if outcome is None else outcome.winner)
        if self.over[i] and self.auto_reset:
            self._restart(i)
            self.arrays.terminated[i] = True
        self._publish(i)

    def _random_answer(self, i: int) -> None:
        """The random opponent's legs while game ``i`` waits for it (``answer``)."""
        game = self.games[i]
        while self.rival >= 0 and not self.over[i] and game.to_move() == self.rival:
            legal = game.legal_actions()
            if not legal:
                return
            self.play(i, legal[self._draw(i) % len(legal)])

    def waiting(self, seat: int) -> list[int]:
        """The games going on whose side to move is ``seat``."""
        return [i for i, g in enumerate(self.games) if not self.over[i] and g.to_move() == seat]

    def random(self, out: npt.NDArray[np.int64]) -> None:
        for i, game in enumerate(self.games):
            legal = [] if self.over[i] else game.legal_actions()
            out[i] = legal[self._draw(i) % len(legal)] if legal else -1

    def _end(self, i: int, winner: int | None) -> None:
        self.over[i] = True
        self.arrays.terminated[i] = True
        if winner is not None:
            self.arrays.rewards[i, winner] = 1.0
            self.arrays.rewards[i, 1 - winner] = -1.0

    def _draw(self, i: int) -> int:
        base, j = self.draws[i]
        self.draws[i] = (base, j + 1)
        return mix64((base + j) & ((1 << 64) - 1))

    def _restart(self, i: int) -> None:
        s = self.rules.initial()
        for _ in range(self.opening):
            legal = self.rules.legal_moves(s)
            if self.rules.outcome(s) is not None or not legal:
                break
            s = self.rules.apply(s, legal[self._draw(i) % len(legal)])
        self.games[i].begin(s)
        self.over[i] = False
        self.arrays.terminated[i] = False
        if self.games[i].ended():
            outcome = self.rules.outcome(s)
            self._end(i, None if outcome is None else outcome.winner)

    def _publish(self, i: int) -> None:
        game = self.games[i]
        seat = game.to_move()
        self.arrays.current_player[i] = seat
        self.arrays.observation[i] = game.observation(seat)
        self.arrays.legal_action_mask[i] = False if self.over[i] else game.mask()


def batch(game: str | GameSpec[Any, Any], n: int, **kwargs: Any) -> Batch[Any, Any]:
    """``n`` games of ``game`` at once (keywords as :class:`Batch` takes them).

    :raises ConfigError: for an unknown game or a bad option.
    """
    return Batch(game, n, **kwargs)
