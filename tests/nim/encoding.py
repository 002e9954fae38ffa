"""Nim's own encoding for learning (:mod:`arbiter.contract.learning`), in place of the
board's (a pile of 60 stones drawn as cells would be 3,600 actions from stone to
stone): three actions, "take one, two or three", and the pile as one one-hot plane as
long as the rules' starting pile (the encoding is made for the rules, options and all).

The environments find it by its name in the game's folder, as they would any game's.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from arbiter.contract.learning import Encoding
from arbiter.game import Game, Player
from tests.nim.rules import State

TAKES = 3
"""Action ``a`` takes ``a + 1`` stones."""


class NimEncoding:
    """Observation: ``(2, stones + 1)`` for a game started with ``stones``: row 0 marks
    the pile's size, row 1 is all ones when the observer moves second."""

    actions = TAKES

    def __init__(self, stones: int) -> None:
        self.shape = (2, stones + 1)

    def actions_of(self, s: State, m: int) -> tuple[int, ...]:
        return (s.pile - m - 1,)

    def observation(self, s: State, seat: Player, played: Sequence[int]) -> npt.NDArray[np.int8]:
        out = np.zeros(self.shape, np.int8)
        out[0, s.pile] = 1
        out[1, :] = seat
        return out

    def action_text(self, action: int) -> str:
        if not 0 <= action < TAKES:
            raise ValueError(f"action {action} is outside 0..{TAKES - 1}")
        return f"take {action + 1}"


def encoding(rules: Game[State, int]) -> Encoding[State, int]:
    """The encoding for ``rules``: its planes as long as their starting pile."""
    return NimEncoding(rules.initial().pile)
