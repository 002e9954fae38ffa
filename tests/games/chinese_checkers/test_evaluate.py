"""The Chinese checkers evaluation's end-game term: an opposing marble trapped in the
target, which only a marble free to leave lets the crossing finish."""

from __future__ import annotations

import pytest

from arbiter.games.chinese_checkers import evaluate as ev
from arbiter.games.chinese_checkers.rules import State

from .test_rules import position

THEIRS = {121} | set(range(2, 11))
"""The second player's last marble on the tip of the first player's target (121), the
other nine out of the way."""
TIP_CLOSED = {116, 118, 119, 120}
"""Around the tip: both neighbours and both holes a hop from it would land on."""


def test_a_marble_with_no_move_out_of_the_target_is_trapped() -> None:
    assert ev.trapped(position(TIP_CLOSED | set(range(90, 96)), THEIRS), 0) == 1
    # 116 open: the tip hops over 119 to 116 and on over 112 to 103, out
    opened = position(set(range(112, 121)) - {116} | {100, 104}, THEIRS)
    assert ev.trapped(opened, 0) == 0
    # a hop that stays inside the target is no way out
    inside = position(set(range(112, 121)) - {116} | {103, 105}, THEIRS)
    assert ev.trapped(inside, 0) == 1
    # the count is the first player's alone: the second traps nothing of its
    assert ev.trapped(opened, 1) == 0


def term(s: State, monkeypatch: pytest.MonkeyPatch) -> int:
    """How much the trap term moves the evaluation of ``s``."""
    with monkeypatch.context() as m:
        m.setattr(ev, "TRAP_FROM", 11)
        without = ev.evaluate(s)
    return without - ev.evaluate(s)


def test_packing_the_target_round_a_marble_costs_near_the_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    packed = position(set(range(112, 121)) | {100}, THEIRS, ply=200)
    assert term(packed, monkeypatch) == ev.W_TRAPPED
    # leaving the way out open is worth more than the two steps it costs
    opened = position(set(range(112, 121)) - {116} | {100, 104}, THEIRS, ply=200)
    assert ev.evaluate(opened) > ev.evaluate(packed)
    # with fewer than TRAP_FROM of its marbles in the target, a side is still racing
    racing = position(TIP_CLOSED | set(range(90, 96)), THEIRS, ply=200)
    assert term(racing, monkeypatch) == 0
    # and before HOME_FROM_PLY the term is off
    assert term(position(set(range(112, 121)) | {100}, THEIRS, ply=20), monkeypatch) == 0
