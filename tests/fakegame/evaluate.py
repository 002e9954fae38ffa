"""Race evaluation: how far the side to move's tokens have come, less the opponent's."""

from __future__ import annotations

from tests.fakegame.rules import TARGET, Move, State


def _progress(s: State, p: int) -> int:
    cells = [c for c in range(10) if (s.pieces[p] >> c) & 1]
    return sum(c if p == 0 else 9 - c for c in cells) + 5 * bin(s.pieces[p] & TARGET[p]).count("1")


def evaluate(s: State) -> int:
    p = s.to_move
    return _progress(s, p) - _progress(s, 1 - p)


def order_hint(s: State, m: Move) -> int:
    return abs(m.target - m.origin)


def noisy_moves(s: State) -> tuple[Move, ...]:
    return ()


def draw_value(s: State) -> int:
    """A draw is worth nothing to either side."""
    return 0


def moves_to_go(s: State) -> int:
    """A race lasts about 10 moves a side."""
    return max(1, 10 - s.ply // 2)
