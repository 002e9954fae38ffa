"""Learning environments: steps per second through ``arbiter.envs``, per game.

Usage: python benchmarks/envs.py [--seconds S] [--game NAME]

Two agents pick uniformly among the actions their masks allow (the loop of a
self-play learner, with no network), observing every step as a learner must; games
are played to their end and restarted. Prints, per game, the AEC environment's steps
(actions) per second and whole games per second, and the Gymnasium environment's
against the built-in ``random`` engine, on the core in use (``arbiter --version``).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from arbiter import core, envs
from arbiter.games import GAME_NAMES


def aec(game: str, seconds: float) -> tuple[float, float]:
    """Steps and games per second of two random learners in the AEC environment."""
    env = envs.raw_env(game)
    rng = np.random.default_rng(1)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=games)
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            action = (
                None if terminated or truncated else rng.choice(np.flatnonzero(obs["action_mask"]))
            )
            env.step(action)
            steps += 1
        games += 1
    took = time.perf_counter() - start
    return steps / took, games / took


def gym(game: str, seconds: float) -> float:
    """Steps per second of one random learner against the random engine (Gymnasium)."""
    env = envs.gym_env(game)
    rng = np.random.default_rng(1)
    steps = 0
    start = time.perf_counter()
    episode = 0
    while time.perf_counter() - start < seconds:
        obs, _ = env.reset(seed=episode)
        done = False
        while not done:
            obs, _, done, _, _ = env.step(rng.choice(np.flatnonzero(obs["action_mask"])))
            steps += 1
        episode += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--game", choices=GAME_NAMES, action="append")
    args = parser.parse_args()
    print(f"# {core.describe()}, {args.seconds:g} s per figure")
    print(f"{'game':18}{'AEC steps/s':>13}{'games/s':>10}{'Gym steps/s':>13}")
    for game in args.game or GAME_NAMES:
        steps, games = aec(game, args.seconds)
        print(f"{game:18}{steps:13,.0f}{games:10.2f}{gym(game, args.seconds):13,.0f}")


if __name__ == "__main__":
    main()
