"""A checkers contest program whose evaluation was learned by self-play.

    python examples/learned_checkers.py [--weights FILE] ARGS...

It searches :data:`DEPTH` plies with arbiter's alpha-beta in Python
(:class:`arbiter.agents.alphabeta.AlphaBetaAgent`, the forced captures played out
beyond) and scores positions with a linear value of the learning environments'
observation planes (:mod:`arbiter.envs`: the side to move's pieces, the opponent's,
kings; turned half a circle for the second seat, so both seats' men run the same way),
whose weights ``examples/train_checkers.py`` learns. The same search with an untrained
value (every weight 0) loses nearly every game to ``greedy``: what it wins, it wins by
what it learned. ARGS are what the contest starts a program with; it speaks the
contest's protocol through the same code as the built-in engines
(:meth:`arbiter.contract.GameSpec.serve`), so ``arbiter check-agent checkers "python
examples/learned_checkers.py --weights examples/checkers_value.npz"`` checks it like any
entrant (the weights named on the command line: the walls show a program only the
files its command names).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from arbiter.agents.alphabeta import AlphaBetaAgent
from arbiter.clock import TimeControl
from arbiter.contract import AgentRun
from arbiter.envs import BoardEncoding
from arbiter.games import find_game

WEIGHTS = Path(__file__).with_name("checkers_value.npz")
"""Where the training script writes the weights, and the program reads them."""

SCALE = 10_000
"""The evaluation's integer scale: a value of 1.0 (a sure win) is this many points."""

DEPTH = 2
"""The search's depth in plies (captures are played out beyond it)."""

PLANES = 3
"""The observation's planes the value reads: the side to move's pieces, the
opponent's, kings (the others are the same in every position of one seat)."""


def features(planes: npt.NDArray[np.int8], seats: npt.NDArray[np.int32]) -> npt.NDArray[np.float32]:
    """The value's inputs from observations ``(n, 8, 8, 6)`` of the sides ``seats``: the
    first :data:`PLANES` planes, turned half a circle for the second seat, so that a
    man's square means the same to either side (each seat's men run the other way)."""
    out = planes[:, :, :, :PLANES].astype(np.float32)
    second = seats == 1
    out[second] = out[second, ::-1, ::-1, :]
    return out.reshape(len(out), planes.shape[1] * planes.shape[2] * PLANES)


class LearnedEvaluation:
    """The game's own evaluation (move ordering, forced captures, draws) with a learned
    :meth:`evaluate`: ``weights . planes + bias`` of the position from the side to
    move, on :data:`SCALE`."""

    def __init__(self, weights: npt.NDArray[np.float32], bias: float) -> None:
        spec = find_game("checkers")
        self.base: Any = spec.evaluation
        self.rules = spec.make()
        self.encoding = BoardEncoding(spec)
        self.weights = np.asarray(weights, np.float32).reshape(-1)
        self.bias = float(bias)

    @classmethod
    def load(cls, path: Path) -> LearnedEvaluation:
        """The evaluation whose weights ``path`` holds (``weights``, ``bias``).

        :raises OSError: if the file cannot be read.
        :raises KeyError: if it is not a weights file.
        """
        with np.load(path) as saved:
            return cls(saved["weights"], float(saved["bias"]))

    def value(self, s: Any) -> float:
        """The learned value of ``s`` for its side to move: about -1 lost, +1 won."""
        seat = self.rules.to_move(s)
        planes = self.encoding.observation(s, seat, ())
        x = features(planes[np.newaxis], np.array([seat], np.int32))[0]
        return float(np.dot(self.weights, x)) + self.bias

    def evaluate(self, s: Any) -> int:
        return int(SCALE * self.value(s))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.base, name)  # order_hint, noisy_moves, draw_value, ...


def player(evaluation: LearnedEvaluation) -> AlphaBetaAgent[Any, Any]:
    """The player: :data:`DEPTH` plies of alpha-beta over ``evaluation``."""
    return AlphaBetaAgent(evaluation, depth=DEPTH)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", type=Path, default=WEIGHTS)
    parser.add_argument("--seed", type=int, default=0)
    options, contest_args = parser.parse_known_args(argv)
    try:
        evaluation = LearnedEvaluation.load(options.weights)
    except (OSError, KeyError, ValueError) as e:
        print(f"learned_checkers: cannot read weights {options.weights}: {e}", file=sys.stderr)
        return 2
    spec = find_game("checkers")
    clock = spec.time_control
    if clock.per_move is not None:
        clock = TimeControl.per_move_seconds(1.0)
    run = AgentRun(clock, sys.stdin, sys.stdout, sys.stderr, seed=options.seed)
    return spec.serve(player(evaluation), spec.make(), contest_args, run)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
