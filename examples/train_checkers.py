"""Learns a checkers evaluation by self-play and writes it for the contest program
``examples/learned_checkers.py``.

    python examples/train_checkers.py [--minutes 30] [--out FILE] [--processes 2]

The value is linear in the learning environments' observation planes (192 numbers: the
side to move's men, the opponent's, kings; turned for the second seat), fitted by
scikit-learn's ridge regression to the results of games, each position labelled with
the result for its side to move (+1, 0, -1):

1. **Random self-play**: 6,000 games of the random player against itself, 1,024 at a
   time through ``arbiter.envs.batch`` on the compiled core (400,000 positions in a few
   seconds). Their results say what a position is worth to whoever holds it; this
   first value is already the player's strength against ``greedy``.
2. **Self-play rounds** for the rest of the time, gated: the player (its search with
   the current value) against itself on every process, from a few random moves and
   with a random move now and then; a value refitted on these games and the random
   ones replaces the current one only if it scores at least :data:`GATE` of a match
   against it (``--gate-games``, 100 by default), so that a round does not make the
   player worse, as a value fitted to the draws and repetitions of a player's games
   with itself can.

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
from learned_checkers import WEIGHTS, LearnedEvaluation, features, player

from arbiter import envs
from arbiter.clock import Limit
from arbiter.games import find_game

KEEP = 400_000
"""The most self-play positions a fit uses (the newest), beside the random games'."""
OPENING = 6
"""Random moves at the start of each self-play game, at most."""
EXPLORE = 0.05
"""The chance of a random move in self-play."""
GATE = 0.55
"""The share of a match a refitted value must score against the current one to
replace it."""
RESERVE = 0.15
"""The share of the time kept for each round's gate match, the last fit and the write."""

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


Weights = tuple[npt.NDArray[np.float32], float]


def self_play(weights: Weights, seed: int, seconds: float) -> Positions:
    """Games of the player against itself for ``seconds``: their positions and results."""
    evaluation = LearnedEvaluation(*weights)
    rules, encoding = evaluation.rules, evaluation.encoding
    rng = random.Random(seed)
    planes: list[npt.NDArray[np.int8]] = []
    seats: list[int] = []
    labels: list[float] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        players = [player(evaluation), player(evaluation)]
        for seat, one in enumerate(players):
            one.reset(rules, seat, rng.randrange(2**31))
        s = rules.initial()
        game: list[tuple[npt.NDArray[np.int8], int]] = []
        opening = rng.randrange(OPENING + 1)
        while (outcome := rules.outcome(s)) is None:
            seat = rules.to_move(s)
            game.append((encoding.observation(s, seat, ()), seat))
            if len(game) <= opening or rng.random() < EXPLORE:
                m = rng.choice(rules.legal_moves(s))
            else:
                m = players[seat].choose(s, Limit())
            s = rules.apply(s, m)
        for obs, seat in game:
            planes.append(obs)
            seats.append(seat)
            won = outcome.winner
            labels.append(0.0 if won is None else (1.0 if won == seat else -1.0))
    # (no game finished in the time, on a machine busy enough: no positions)
    observed = np.array(planes, np.int8).reshape(-1, *encoding.shape)
    return features(observed, np.array(seats, np.int32)), np.array(labels, np.float32)


def match(new: Weights, old: Weights, first: int, games: int) -> float:
    """Points of the player with ``new`` against ``old`` over ``games`` games from
    ``first`` (seats alternating, openings of a few random moves by the game's number)."""
    players = (LearnedEvaluation(*new), LearnedEvaluation(*old))
    rules = players[0].rules
    points = 0.0
    for number in range(first, first + games):
        rng = random.Random(number)
        seat_of_new = number % 2
        agents = [player(players[1]), player(players[1])]
        agents[seat_of_new] = player(players[0])
        for seat, one in enumerate(agents):
            one.reset(rules, seat, number)
        s = rules.initial()
        for _ in range(rng.randrange(OPENING + 1)):
            s = rules.apply(s, rng.choice(rules.legal_moves(s)))
        while (outcome := rules.outcome(s)) is None:
            s = rules.apply(s, agents[rules.to_move(s)].choose(s, Limit()))
        points += 0.5 if outcome.winner is None else float(outcome.winner == seat_of_new)
    return points


def fit(
    planes: npt.NDArray[np.float32], labels: npt.NDArray[np.float32]
) -> tuple[npt.NDArray[np.float32], float]:
    """The ridge fit of the positions: weights and bias."""
    model = Ridge(alpha=10.0).fit(planes, labels)
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
    parser.add_argument("--gate-games", type=int, default=100, help="each round's gate match")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    find_game("checkers")  # the rules and the compiled core, before the clock starts
    started = time.monotonic()
    deadline = started + 60 * args.minutes
    first_planes, first_labels = random_games(args.random_games, args.seed)
    best: Weights = fit(first_planes, first_labels)
    print(
        f"random games: {len(first_labels):,} positions, played and fitted in "
        f"{time.monotonic() - started:.0f} s",
        flush=True,
    )
    kept: list[Positions] = []
    for r in range(args.rounds):
        left = deadline - time.monotonic() - min(60.0, RESERVE * 60 * args.minutes)
        if left <= 0:
            break
        seconds = left / (args.rounds - r)
        with ProcessPoolExecutor(args.processes) as pool:
            seeds = [args.seed * 1000 + 10 * r + p for p in range(args.processes)]
            played = list(pool.map(self_play, [best] * len(seeds), seeds, [seconds] * len(seeds)))
        kept = [*kept, *played]
        mine = np.concatenate([x for x, _ in kept])[-KEEP:]  # the newest self-play
        results = np.concatenate([y for _, y in kept])[-KEEP:]
        candidate = fit(
            np.concatenate([first_planes, mine]), np.concatenate([first_labels, results])
        )
        share = max(1, args.gate_games // args.processes)
        with ProcessPoolExecutor(args.processes) as pool:
            firsts = [1_000_000 * (r + 1) + share * p for p in range(args.processes)]
            score = sum(
                pool.map(
                    match,
                    [candidate] * len(firsts),
                    [best] * len(firsts),
                    firsts,
                    [share] * len(firsts),
                )
            )
        verdict = "kept" if score >= GATE * share * args.processes else "refused"
        if verdict == "kept":
            best = candidate
        print(
            f"self-play round {r + 1}: {sum(len(y) for _, y in played):,} positions in "
            f"{seconds:.0f} s; the refitted value scored {score:g}/{share * args.processes} "
            f"against the current one: {verdict}",
            flush=True,
        )
    weights, bias = best
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(args.out, weights=weights, bias=np.float32(bias))
    print(f"wrote {args.out} after {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
