"""Nim's evaluation: a pile that is a multiple of four is lost for the side to move."""

from __future__ import annotations

from collections.abc import Sequence

from tests.nim.rules import State


def evaluate(s: State) -> int:
    return -100 if s.pile % 4 == 0 else 100


def order_hint(s: State, m: int) -> int:
    return 1 if m % 4 == 0 else 0


def noisy_moves(s: State) -> Sequence[int]:
    return ()


def draw_value(s: State) -> int:
    return 0


def moves_to_go(s: State) -> int:
    return s.pile // 2 + 1
