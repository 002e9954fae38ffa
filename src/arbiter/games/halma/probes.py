"""What ``arbiter check-agent`` exercises in Halma beyond whole games: its timing,
and prepared positions (see :mod:`arbiter.contract.probes`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from arbiter.bitboard import bits, popcount
from arbiter.contract import Check, GameSpec
from arbiter.contract.probes import prepared
from arbiter.games.halma import rules as halma

TIMING = Check("little time", "a move with 2 s left", 0, clock="2 kill=10", stop_at=1)
"""The contest's timing, checked on its clock's shape."""


def probes(spec: GameSpec[Any, Any]) -> list[Check]:
    """The game's checks beyond whole games against random: its timing first."""
    return [TIMING, *_probes(spec)]


def _probes(spec: GameSpec[Any, Any]) -> list[Check]:
    def narrowed(game: halma.Halma, s: halma.State) -> bool:
        """Rule 1(b) rules out nine in ten of the moves the board and rule 1(a) allow,
        among them every move of a piece outside the camp: a program that ignores the
        rule all but surely plays one of them."""
        p = s.to_move
        occupied = s.pieces[0] | s.pieces[1]
        outside = list(bits(s.pieces[p] & ~halma.CAMPS[p]))
        allowed = sum(popcount(halma.reach(p, c, occupied)) for c in bits(s.pieces[p]))
        legal = halma.destinations(s)
        return (
            any(halma.reach(p, c, occupied) for c in outside)
            and not set(outside) & set(legal)
            and 10 * sum(popcount(ends) for ends in legal.values()) <= allowed
        )

    def chain(game: halma.Halma, s: halma.State) -> bool:
        return any(len(m.hops) >= 3 for m in game.legal_moves(s))

    def midgame(game: halma.Halma, s: halma.State) -> bool:
        return s.ply >= 60

    late = [
        replace(check, clock="0.3 kill=10")
        for check in prepared(
            spec, [("very little time", "a move deep in a game with 0.3 s left", midgame, 5, 80)]
        )
    ]
    return late + prepared(
        spec,
        [
            *(
                (
                    "camp first" + (f" ({i + 1})" if i else ""),
                    "while pieces are in the camp, one must leave it (rule 1(b))",
                    narrowed,
                    seed,
                    120,
                )
                for i, seed in enumerate((3, 4, 5))
            ),
            ("hop chain", "a chain of three hops or more, one J line each", chain, 4, 120),
        ],
    )
