"""Learning environments: steps per CPU second through ``arbiter.envs``, per game, beside
OpenSpiel's Python API on the same games in the same run.

Usage: python benchmarks/envs.py [--seconds S] [--game NAME] [--batch N]

- **AEC** (PettingZoo, one game): two learners take turns; the one to act observes
  (its observation and action mask, as NumPy arrays) and picks uniformly among the
  actions its mask allows, reading the mask as booleans (NumPy finds the set entries
  of a boolean array several times faster than of PettingZoo's int8). Games are played
  to their end and restarted.
- **OpenSpiel** (``pyspiel``, one game, where OpenSpiel has the game: Votey is its
  ``lines_of_action``, checkers and Chinese checkers its own): the same loop on its
  Python API in its own idiom, the player to act reading ``observation_tensor`` as a
  NumPy array and picking uniformly from ``legal_actions`` (its ``legal_actions_mask``
  is a Python list: over Lines of Action's 8,192 actions it would cost OpenSpiel
  twenty times its step).
- **batch** (``envs.batch``, N games): every game steps at once with a uniformly drawn
  legal action each (``random_actions``), finished games restarting by themselves.
- **Gym**: one learner against the built-in ``random`` engine.

OpenSpiel is a benchmark-only extra (``pip install open_spiel``; the test extra has
it). Figures are steps (actions) per second of this process's CPU time, so a busy
machine slows them less than the wall clock would.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from arbiter import core, envs
from arbiter.games import GAME_NAMES

OPENSPIEL = {
    "votey": "lines_of_action",
    "checkers": "checkers",
    "chinese-checkers": "chinese_checkers",
}
"""The games OpenSpiel has, by arbiter's name."""


def rate(run: Callable[[], int], seconds: float) -> float:
    """Steps per CPU second of ``run`` (one game or one batch step: its steps), run
    until ``seconds`` of CPU time are spent."""
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        steps += run()
    return steps / (time.process_time() - start)


def aec(game: str, seconds: float) -> float:
    """Two random learners in the AEC environment, observing every step."""
    env = envs.raw_env(game)
    rng = random.Random(1)
    games = [0]

    def one_game() -> int:
        steps = 0
        env.reset(seed=games[0])
        games[0] += 1
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                legal = obs["action_mask"].view(np.bool_).nonzero()[0]
                env.step(legal[rng.randrange(len(legal))])
            steps += 1
        return steps

    return rate(one_game, seconds)


def openspiel(game: str, seconds: float) -> float | None:
    """The same two learners on OpenSpiel's Python API, or None where it lacks the game."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    if game not in OPENSPIEL:
        return None
    spiel = pyspiel.load_game(OPENSPIEL[game])
    rng = random.Random(1)

    def one_game() -> int:
        steps = 0
        state = spiel.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            np.asarray(state.observation_tensor(player), np.float32)
            legal = state.legal_actions(player)
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
        return steps

    return rate(one_game, seconds)


def batched(game: str, n: int, seconds: float) -> float:
    """``n`` games stepped at once with a random legal action each."""
    games = envs.batch(game, n, seed=1)
    games.init()
    return rate(lambda: (games.step(games.random_actions()), n)[1], seconds)


def gym(game: str, seconds: float) -> float:
    """One random learner against the random engine (Gymnasium)."""
    env = envs.gym_env(game)
    rng = random.Random(1)
    episodes = [0]

    def one_game() -> int:
        steps = 0
        obs: Any
        obs, _ = env.reset(seed=episodes[0])
        episodes[0] += 1
        done = False
        while not done:
            legal = obs["action_mask"].view(np.bool_).nonzero()[0]
            obs, _, done, _, _ = env.step(legal[rng.randrange(len(legal))])
            steps += 1
        return steps

    return rate(one_game, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per figure")
    parser.add_argument("--game", choices=GAME_NAMES, action="append")
    parser.add_argument("--batch", type=int, default=1024, help="games in the batch")
    args = parser.parse_args()
    print(f"# {core.describe()}; {args.seconds:g} CPU s per figure; steps per CPU second")
    head = ("game", "AEC", "OpenSpiel", "AEC/OS", f"batch {args.batch}", "batch/OS", "Gym")
    print(f"{head[0]:18}" + "".join(f"{h:>14}" for h in head[1:]))
    for game in args.game or GAME_NAMES:
        one = aec(game, args.seconds)
        theirs = openspiel(game, args.seconds)
        many = batched(game, args.batch, args.seconds)
        cells = [
            f"{one:,.0f}",
            "-" if theirs is None else f"{theirs:,.0f}",
            "-" if theirs is None else f"{one / theirs:.2f}",
            f"{many:,.0f}",
            "-" if theirs is None else f"{many / theirs:.1f}",
            f"{gym(game, args.seconds):,.0f}",
        ]
        print(f"{game:18}" + "".join(f"{c:>14}" for c in cells), flush=True)


if __name__ == "__main__":
    main()
