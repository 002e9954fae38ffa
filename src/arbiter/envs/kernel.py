"""The learning environments' step on the compiled core: games held in C, each masked,
observed and stepped there (``csrc/envs.c``), writing into NumPy arrays a learner reads.

The board's encoding (:mod:`arbiter.envs.encoding`) stays the reference: the compiled
step is the same encoding made from the kernel's view of a position (each cell's piece,
each move's path), and ``tests/test_envs_kernel.py`` holds the two equal over random
games. It is taken where a game has a compiled kernel and the board's encoding (a game's
own encoding, a toy game, or the pure path asked for with ``ARBITER_PURE`` keep the
Python step).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from arbiter.contract.learning import Encoding
from arbiter.envs.encoding import BoardEncoding
from arbiter.game import Game

ILLEGAL, LEG, MOVE, OVER = 0, 1, 2, 3
"""What an action did (``Batch.act``): not a leg of any legal move, a leg of a move
being made, the last leg of a move, nothing (the game was over)."""

MASK64 = (1 << 64) - 1


def mix64(x: int) -> int:
    """splitmix64's finaliser (``mix64`` in ``csrc/core.h``): a batch's draws of
    random openings, the same on both paths."""
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


def draws_base(seed: int, i: int) -> int:
    """Where game ``i``'s generator starts in a batch seeded ``seed``: its ``j``-th draw
    is ``mix64(base + j)``."""
    return mix64(mix64(i) ^ (seed & MASK64))


@dataclass(frozen=True)
class Arrays:
    """What a learner reads of ``n`` games, named as pgx names them; written in place by
    each step."""

    observation: npt.NDArray[np.int8]
    """``(n, rows, columns, planes)``: each game from its side to move."""
    legal_action_mask: npt.NDArray[np.bool_]
    """``(n, actions)``: the actions the side to move may play (none once it is over)."""
    current_player: npt.NDArray[np.int32]
    """``(n,)``: the seat to act, 0 the first."""
    rewards: npt.NDArray[np.float32]
    """``(n, 2)``: by seat, given at the step that ends a game (+1 win, -1 loss, 0 draw)."""
    terminated: npt.NDArray[np.bool_]
    """``(n,)``: the game ended at this step (or earlier, where it is not restarted)."""
    truncated: npt.NDArray[np.bool_]
    """``(n,)``: always false: a game's own ply cap ends it as a draw, by its rules."""

    @classmethod
    def zeros(cls, n: int, shape: tuple[int, ...], actions: int) -> Arrays:
        return cls(
            np.zeros((n, *shape), np.int8),
            np.zeros((n, actions), np.bool_),
            np.zeros(n, np.int32),
            np.zeros((n, 2), np.float32),
            np.zeros(n, np.bool_),
            np.zeros(n, np.bool_),
        )


def kernel_name(encoding: Encoding[Any, Any], rules: Game[Any, Any]) -> str | None:
    """The compiled kernel that can step ``rules`` under ``encoding``, or None: the
    encoding must be the board's (the kernel's view is the board's) and the rules
    engine made on the compiled core."""
    compiled = getattr(rules, "compiled", None)
    if compiled is None or type(encoding) is not BoardEncoding:
        return None
    name = str(compiled.name)
    return name if name in compiled.core.GAMES else None


def compiled_games(
    encoding: BoardEncoding[Any, Any],
    rules: Game[Any, Any],
    arrays: Arrays,
    *,
    seed: int = 0,
    opening_plies: int = 0,
    auto_reset: bool = False,
    rival: int = -1,
) -> Any:
    """The core's ``Batch`` of ``len(arrays.current_player)`` games of ``rules`` writing
    into ``arrays`` (its start the rules' own, with their options such as ``max_plies``);
    ``rival`` the seat a random opponent plays in the core (-1: none).

    :raises ValueError: if the rules have no compiled kernel for this encoding.
    """
    name = kernel_name(encoding, rules)
    if name is None:
        raise ValueError(f"{type(rules).__name__} has no compiled step")
    compiled: Any = getattr(rules, "compiled", None)
    grid = encoding.grid
    places = bytes(x for cell in zip(grid.row_of, grid.column_of, strict=True) for x in cell)
    return compiled.core.Batch(
        name,
        compiled.pack(rules.initial()),
        len(arrays.current_player),
        grid.rows,
        grid.columns,
        places,
        seed & MASK64,
        opening_plies,
        auto_reset,
        arrays.observation,
        arrays.legal_action_mask,
        arrays.current_player,
        arrays.rewards,
        arrays.terminated,
        arrays.truncated,
        rival,
    )
