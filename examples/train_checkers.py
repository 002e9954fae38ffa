"""Learns a checkers evaluation by self-play and writes it for the contest program
``examples/learned_checkers.py``.

    python examples/train_checkers.py [--minutes 30] [--out FILE] [--processes 2]

The value is linear in the learning environments' observation planes (384 numbers:
the side to move's men, the opponent's, kings, ...), fitted by scikit-learn's ridge
regression to the results of games, each position labelled with the result for its
side to move (+1, 0, -1):

1. **Random games**, 1,024 at a time through ``arbiter.envs.batch`` on the compiled
   core (a few million positions in seconds): the first value.
2. **Self-play rounds** for the rest of the time: the current player (the greedy
   engine's search with the learned value, :mod:`learned_checkers`) against itself on
   every process, each game from a few random moves and with a random move now and
   then, so the games differ; the value is refitted on the newest positions after
   each round.

The weights go to ``--out`` (``examples/checkers_value.npz`` by default, where the
program looks). The choice of library: scikit-learn, for a well-kept, CPU-only
least-squares fit with no training loop of our own; a linear value trains in seconds
and evaluates in microseconds inside a search.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import numpy.typing as npt
from sklearn.linear_model import Ridge

sys.path.insert(0, str(Path(__file__).parent))
from learned_checkers import WEIGHTS, LearnedEvaluation, features

from arbiter import envs
from arbiter.agents.greedy import GreedyAgent
from arbiter.clock import Limit
from arbiter.games import find_game

KEEP = 400_000
"""The most positions a fit uses: the newest."""
OPENING = 6
"""Random moves at the start of each self-play game, at most."""
EXPLORE = 0.05
"""The chance of a random move in self-play."""

Positions = tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]
"""The value's inputs of positions (:func:`learned_checkers.features`) and their labels."""


def random_games(count: int, seed: int) -> Positions:
    """The positions between moves of about ``count`` random games, with their results."""
    games = envs.batch("checkers", 1024, seed=seed, opening_plies=0)
    state = games.init()
    ids = np.arange(games.n)
    next_id = games.n
    seen: list[tuple[npt.NDArray[np.int8], npt.NDArray[np.int32], npt.NDArray[np.int64]]] = []
    results: dict[int, npt.NDArray[np.float32]] = {}
    while len(results) < count:
        between = state.observation[:, :, :, 3].sum(axis=(1, 2)) == 0  # no chain begun
        seen.append(
            (state.observation[between].copy(), state.current_player[between].copy(), ids[between])
        )
        state = games.step(games.random_actions())
        for i in np.flatnonzero(state.terminated):
            results[int(ids[i])] = state.rewards[i].copy()
            ids[i] = next_id
            next_id += 1
    planes = np.concatenate([o for o, _, _ in seen])
    seats = np.concatenate([p for _, p, _ in seen])
    game_ids = np.concatenate([g for _, _, g in seen])
    done = np.array([int(g) in results for g in game_ids])
    labels = np.array(
        [results[int(g)][p] for g, p in zip(game_ids[done], seats[done], strict=True)],
        np.float32,
    )
    return features(planes[done], seats[done]), labels


def self_play(
    weights: npt.NDArray[np.float32], bias: float, seed: int, seconds: float
) -> Positions:
    """Games of the player against itself for ``seconds``: their positions and results."""
    evaluation = LearnedEvaluation(weights, bias)
    rules, encoding = evaluation.rules, evaluation.encoding
    rng = random.Random(seed)
    planes: list[npt.NDArray[np.int8]] = []
    seats: list[int] = []
    labels: list[float] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        players = [GreedyAgent(evaluation), GreedyAgent(evaluation)]
        for seat, player in enumerate(players):
            player.reset(rules, seat, rng.randrange(2**31))
        s = rules.initial()
        game: list[tuple[npt.NDArray[np.int8], int]] = []
        ply = 0
        opening = rng.randrange(OPENING + 1)
        while (outcome := rules.outcome(s)) is None:
            seat = rules.to_move(s)
            game.append((encoding.observation(s, seat, ()), seat))
            legal = rules.legal_moves(s)
            if ply < opening or rng.random() < EXPLORE:
                m = rng.choice(legal)
            else:
                m = players[seat].choose(s, Limit())
            s = rules.apply(s, m)
            ply += 1
        for obs, seat in game:
            planes.append(obs)
            seats.append(seat)
            labels.append(
                0.0 if outcome.winner is None else (1.0 if outcome.winner == seat else -1.0)
            )
    return features(np.array(planes, np.int8), np.array(seats, np.int32)), np.array(
        labels, np.float32
    )


def fit(
    planes: npt.NDArray[np.float32], labels: npt.NDArray[np.float32]
) -> tuple[npt.NDArray[np.float32], float]:
    """The ridge fit of the newest :data:`KEEP` positions: weights and bias."""
    model = Ridge(alpha=10.0).fit(planes[-KEEP:], labels[-KEEP:])
    return model.coef_.astype(np.float32), float(model.intercept_)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--minutes", type=float, default=30.0, help="the whole training's wall time"
    )
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--random-games", type=int, default=6_000)
    parser.add_argument("--rounds", type=int, default=4, help="self-play rounds")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    find_game("checkers")  # the rules and the compiled core, before the clock starts
    started = time.monotonic()
    deadline = started + 60 * args.minutes
    planes, labels = random_games(args.random_games, args.seed)
    weights, bias = fit(planes, labels)
    print(
        f"random games: {len(labels):,} positions, fitted in {time.monotonic() - started:.0f} s",
        flush=True,
    )
    for r in range(args.rounds):
        left = deadline - time.monotonic() - 15  # the last fit and the write
        if left <= 0:
            break
        seconds = left / (args.rounds - r)
        with ProcessPoolExecutor(args.processes) as pool:
            jobs = [
                pool.submit(self_play, weights, bias, args.seed * 1000 + 10 * r + p, seconds)
                for p in range(args.processes)
            ]
            played = [job.result() for job in jobs]
        new_planes = np.concatenate([p for p, _ in played])
        new_labels = np.concatenate([y for _, y in played])
        planes = np.concatenate([planes[-KEEP:], new_planes])
        labels = np.concatenate([labels[-KEEP:], new_labels])
        weights, bias = fit(planes, labels)
        print(
            f"self-play round {r + 1}: {len(new_labels):,} positions in {seconds:.0f} s, "
            f"{np.mean(new_labels == 0):.0%} drawn",
            flush=True,
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(args.out, weights=weights, bias=np.float32(bias))
    print(f"wrote {args.out} after {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
