"""Fits checkers' evaluation weights to the results of arbiter's own game records.

Every quiet position of the records (no capture for the side to move, so the static
score is what the search would use) is one sample: its features, each the side to
move's count less its opponent's, and the game's result for the side to move (1, 1/2
or 0). A logistic model of the result on the weighted features is fitted by Newton's
method (the Texel method: an evaluation scaled so that its score predicts the result),
and the weights are printed scaled to a man of 100, beside the evaluation's own.

The features are those of :mod:`arbiter.games.checkers.evaluate` (checked: with the
evaluation's own weights they give its score on every sample) and candidates it does
not have yet, so the fit says which are worth adding.

    arbiter match checkers alphabeta:nodes=4000 alphabeta:nodes=4000 --games 2000 \\
        --openings 6 --record games.jsonl
    python scripts/tune_checkers.py games.jsonl
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator

import numpy as np

from arbiter.bitboard import mask
from arbiter.errors import ArbiterError
from arbiter.games import find_game
from arbiter.games.checkers import evaluate as ev
from arbiter.games.checkers.rules import State, captures_of
from arbiter.record import read_records

EDGE = mask(c for c in range(32) if ev._COL[c] in (0, 7) or ev._ROW[c] in (0, 7))

CURRENT = {
    "men": ev.MAN,
    "kings": ev.KING,
    "advance": ev.W_ADVANCE,
    "back": ev.W_BACK,
    "centre": ev.W_CENTRE,
    "king_centre": ev.W_KING_CENTRE,
    "mobility": ev.W_MOBILITY,
    "runaways": ev.W_RUNAWAY,
    "runaway_rows": -6,
    "trade": 0,
    "king_edge": 0,
}
"""The evaluation's weights by feature (0 for a candidate it does not have)."""
NAMES = tuple(CURRENT)
WEIGHTS = tuple(CURRENT.values())


def side_features(s: State, p: int) -> list[int]:
    """Seat ``p``'s count of each feature, in the order of ``NAMES``."""
    own, enemy = s.pieces[p], s.pieces[1 - p]
    kings = s.kings & own
    men = own & ~kings
    advance = runaways = runaway_rows = 0
    b = men
    while b:
        low = b & -b
        cell = low.bit_length() - 1
        rows = ev.ROWS_TO_GO[p][cell]
        advance += 7 - rows
        if not ev.CONE[p][cell] & enemy:
            runaways += 1
            runaway_rows += rows
        b ^= low
    back = (men & ev.BACK_ROW[p]).bit_count() if enemy & ~s.kings else 0
    pieces, total = own.bit_count(), (own | enemy).bit_count()
    return [
        men.bit_count(),
        kings.bit_count(),
        advance,
        back,
        (own & ev.CENTRE).bit_count(),
        (kings & ev.INNER).bit_count(),
        ev._mobility(s, p),
        runaways,
        runaway_rows,
        (2 * pieces - total) * (24 - total),  # ahead in pieces, worth more as they go
        (kings & EDGE).bit_count(),
    ]


def features(s: State) -> list[int]:
    """The side to move's features less its opponent's."""
    p = s.to_move
    return [a - b for a, b in zip(side_features(s, p), side_features(s, 1 - p), strict=True)]


def samples(paths: list[str], skip: int) -> Iterator[tuple[list[int], float]]:
    """(features, result for the side to move) of every quiet position after the first
    ``skip`` plies of each checkers record in ``paths``."""
    spec = find_game("checkers")
    game = spec.make()
    for path in paths:
        for _, record in read_records(path):
            if record.game != "checkers" or not record.moves:
                continue
            s = (
                game.initial()
                if record.start is None
                else spec.notation.parse_position(record.start)
            )
            for i, text in enumerate(record.moves):
                if i >= skip and not captures_of(s):
                    if record.winner is None:
                        result = 0.5
                    else:
                        result = 1.0 if record.winner == s.to_move else 0.0
                    f = features(s)
                    if sum(w * v for w, v in zip(WEIGHTS, f, strict=True)) != ev.evaluate(s):
                        raise RuntimeError("the features no longer add up to the evaluation")
                    yield f, result
                s = game.apply(s, spec.contest.judge(game, s, text, seat=0))


def loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    """Mean cross-entropy of the results ``y`` predicted from the scores ``x @ w``."""
    p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-6) -> np.ndarray:
    """The logistic weights of ``x`` for the results ``y``, by Newton's method."""
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))
        grad = x.T @ (p - y) / len(y) + ridge * w
        hess = (x.T * (p * (1 - p))) @ x / len(y) + ridge * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    return w


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("records", nargs="+", help="JSON-lines game records")
    parser.add_argument("--skip", type=int, default=10, help="opening plies left out")
    parser.add_argument("--only", help="comma-separated features to fit (default all)")
    args = parser.parse_args(argv)
    chosen = NAMES if args.only is None else tuple(args.only.split(","))
    unknown = set(chosen) - set(NAMES)
    if unknown:
        print(f"unknown features: {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    try:
        rows = list(samples(args.records, args.skip))
    except (ArbiterError, OSError) as e:
        print(f"cannot read the records: {e}", file=sys.stderr)
        return 1
    if not rows:
        print("no quiet checkers positions in the records", file=sys.stderr)
        return 1
    x = np.array([f for f, _ in rows], dtype=float)
    y = np.array([r for _, r in rows])
    current = np.array([CURRENT[n] for n in NAMES], dtype=float)
    # the evaluation's own score, scaled to the results as a whole
    scores = x @ current
    scale = fit(scores[:, None], y)[0]
    columns = [NAMES.index(n) for n in chosen]
    w = fit(x[:, columns], y)
    per_man = 100 / w[chosen.index("men")] if "men" in chosen else 1 / scale
    print(f"{len(rows)} quiet positions; a man of 100 is {100 * scale:.3f} in log-odds")
    print(f"loss with the evaluation's weights {loss(scores[:, None], y, np.array([scale])):.5f}")
    print(f"loss with the fitted weights       {loss(x[:, columns], y, w):.5f}")
    print(f"{'feature':<14}{'now':>8}{'fitted':>10}")
    for n, value in zip(chosen, w, strict=True):
        print(f"{n:<14}{CURRENT[n]:>8}{value * per_man:>10.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
