"""What ``arbiter check-agent`` exercises in Votey beyond whole games: its timing,
and games steered into the rules people get wrong (see :mod:`arbiter.contract.probes`)."""

from __future__ import annotations

from typing import Any

from arbiter.contract import Check, GameSpec, Steer
from arbiter.contract.probes import BUSY_MACHINE
from arbiter.games.votey import rules as votey

TIMING = BUSY_MACHINE
"""The contest's timing, checked on its own clock with every core busy (a program
cannot be told its clock)."""


def probes(spec: GameSpec[Any, Any]) -> list[Check]:
    """The game's checks beyond whole games against random: its timing first."""
    return [TIMING, *_probes(spec)]


def _probes(spec: GameSpec[Any, Any]) -> list[Check]:
    def wins_open(game: votey.Votey, s: votey.State, m: votey.Move) -> int:
        """Leave the program winning moves (and few groups to join), never win."""
        after = game.apply(s, m)
        if after.winner is not None:
            return -1000
        p = after.to_move
        open_wins = sum(game.apply(after, r).winner == p for r in game.legal_moves(after))
        return 100 * open_wins - votey.groups(after.pieces[p])

    def claimed(game: votey.Votey, s: votey.State, m: votey.Move) -> str | None:
        return "winning moves" if game.apply(s, m).winner == s.to_move else None

    return [
        Check(
            "winning claim",
            "a winning move is written negated (the opponent leaves wins open)",
            0,
            steer=Steer(wins_open, claimed),
        )
    ]
