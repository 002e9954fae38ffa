"""What ``arbiter check-agent`` exercises in checkers beyond whole games: its timing,
and prepared positions (see :mod:`arbiter.contract.probes`)."""

from __future__ import annotations

from typing import Any

from arbiter.contract import Check, GameSpec
from arbiter.contract.probes import BUSY_MACHINE, prepared
from arbiter.games.checkers import rules as checkers

TIMING = BUSY_MACHINE
"""The contest's timing, checked on its own clock with every core busy (a program
cannot be told its clock)."""


def probes(spec: GameSpec[Any, Any]) -> list[Check]:
    """The game's checks beyond whole games against random: its timing first."""
    return [TIMING, *_probes(spec)]


def _probes(spec: GameSpec[Any, Any]) -> list[Check]:
    def forced(game: checkers.Checkers, s: checkers.State) -> bool:
        moves = game.legal_moves(s)
        return bool(moves) and all(m.captures for m in moves)

    def multi(game: checkers.Checkers, s: checkers.State) -> bool:
        return forced(game, s) and any(len(m.captures) >= 2 for m in game.legal_moves(s))

    return prepared(
        spec,
        [
            ("forced capture", "a capture is compulsory", forced, 1, 200),
            ("multi-jump", "a jump goes on while it can, every landing written", multi, 2, 400),
        ],
    )
