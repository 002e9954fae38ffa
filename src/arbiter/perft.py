"""Perft: the number of move sequences of a given length, the standard move-generator check.

A position whose game is over has no moves and so adds nothing below it (as in
chess perft). Leaves are counted in bulk (the length of the last move list).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TypeVar

from arbiter.core import CompiledRules
from arbiter.game import Game

S = TypeVar("S")
M = TypeVar("M", bound=Hashable)


def perft(game: Game[S, M], s: S, depth: int) -> int:
    """Returns the number of legal move sequences of exactly ``depth`` plies from ``s``:
    whole in the compiled kernel when the game was made with one (``game.compiled``),
    else through the game's Python functions."""
    compiled: CompiledRules[S, M] | None = getattr(game, "compiled", None)
    if compiled is not None:
        return compiled.perft(s, depth)
    return _perft(game, s, depth)


def _perft(game: Game[S, M], s: S, depth: int) -> int:
    moves = game.legal_moves(s)
    if depth <= 1:
        return len(moves) if depth == 1 else 1
    apply = game.apply
    return sum(_perft(game, apply(s, m), depth - 1) for m in moves)


def divide(game: Game[S, M], s: S, depth: int) -> list[tuple[M, int]]:
    """Returns (move, perft of the position after it at ``depth - 1``) for every legal
    move: the breakdown that locates a move-generator bug by comparison."""
    return [(m, perft(game, game.apply(s, m), depth - 1)) for m in game.legal_moves(s)]
