"""What ``arbiter check-agent`` exercises in Chinese checkers beyond whole games: its timing,
and games steered into the rules people get wrong (see :mod:`arbiter.contract.probes`)."""

from __future__ import annotations

from typing import Any

from arbiter.bitboard import bits, popcount
from arbiter.contract import Check, GameSpec, Steer
from arbiter.contract.probes import BUSY_MACHINE
from arbiter.games.chinese_checkers import rules as cc
from arbiter.games.chinese_checkers.rules import ChineseCheckers

TIMING = BUSY_MACHINE
"""The contest's timing, checked on its own clock with every core busy (a program
cannot be told its clock)."""


def probes(spec: GameSpec[Any, Any]) -> list[Check]:
    """The game's checks beyond whole games against random: its timing first."""
    return [TIMING, *_probes(spec)]


def _probes(spec: GameSpec[Any, Any]) -> list[Check]:
    def open_long_hops(game: ChineseCheckers, s: cc.State, m: cc.Move) -> int:
        """Open long hops and hop chains through the neutral triangles to the program."""
        after = game.apply(s, m)
        if game.outcome(after) is not None:
            return -1
        return _long_and_neutral(after)

    def met(game: ChineseCheckers, s: cc.State, m: cc.Move) -> str | None:
        return "positions with long hops or neutral chains" if _long_and_neutral(s) else None

    return [
        Check(
            "long hops",
            "long hops and chains through the neutral triangles, never ending in one",
            1,
            steer=Steer(open_long_hops, met),
        )
    ]


def _long_and_neutral(s: cc.State) -> int:
    """For the side to move: the ends it reaches only by a long hop (over a marble
    more than one hole away), plus the neutral holes its hop chains pass through."""
    occupied = s.pieces[0] | s.pieces[1]
    total = 0
    for a in bits(s.pieces[s.to_move]):
        every = cc.hops_from(a, occupied)
        total += popcount(every & ~_short_hops_from(a, occupied) & ~cc.NEUTRAL)
        total += popcount(every & cc.NEUTRAL)
    return total


def _short_hops_from(start: int, occupied: int) -> int:
    """The cells a chain of hops over adjacent marbles only reaches from ``start``."""
    occupied &= ~(1 << start)
    reached = 0
    frontier = [start]
    while frontier:
        for line in cc.HOPS[frontier.pop()]:
            over, clear, land = line[0]
            if occupied & over and not occupied & clear and not (reached >> land) & 1:
                reached |= 1 << land
                frontier.append(land)
    return reached
