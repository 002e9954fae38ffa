"""What ``arbiter check-agent`` exercises in Alquerque beyond whole games: its timing,
and games steered into the rules people get wrong (see :mod:`arbiter.contract.probes`)."""

from __future__ import annotations

from typing import Any

from arbiter.contract import Check, GameSpec, Steer
from arbiter.contract.probes import BUSY_MACHINE
from arbiter.games.alquerque import rules as alquerque
from arbiter.games.alquerque.rules import Alquerque

TIMING = BUSY_MACHINE
"""The contest's timing, checked on its own clock with every core busy (a program
cannot be told its clock)."""


def probes(spec: GameSpec[Any, Any]) -> list[Check]:
    """The game's checks beyond whole games against random: its timing first."""
    return [TIMING, *_probes(spec)]


def _probes(spec: GameSpec[Any, Any]) -> list[Check]:
    def offer_captures(game: Alquerque, s: alquerque.State, m: alquerque.Move) -> int:
        """Take chains, and leave the program captures to make (the longest best)."""
        after = game.apply(s, m)
        chains = [len(c.captures) for c in alquerque.captures_of(after)]
        return 10 * len(m.captures) + 5 * max(chains, default=0) + len(chains)

    def captured(game: Alquerque, s: alquerque.State, m: alquerque.Move) -> str | None:
        if len(m.captures) >= 2:
            return "capture chains"
        return "captures" if m.captures else None

    def leave_back_open(game: Alquerque, s: alquerque.State, m: alquerque.Move) -> int:
        """Leave the program's move back open to it, with few other steps."""
        after = game.apply(s, m)
        return 100 - len(alquerque.steps_of(after)) if _back_open(after) else 0

    def went_on(game: Alquerque, s: alquerque.State, m: alquerque.Move) -> str | None:
        return "positions with the move back ruled out" if _back_open(s) else None

    return [
        Check(
            "capture chains",
            "captures are compulsory and chains complete, the opponent's chains read",
            1,
            steer=Steer(offer_captures, captured),
        ),
        Check(
            "no going back",
            "a normal move is not the reverse of the player's previous normal move",
            0,
            steer=Steer(leave_back_open, went_on),
        ),
    ]


def _back_open(s: alquerque.State) -> bool:
    """True when the side to move has no capture and its last normal move's reverse
    step lies open on the board (the rule, not the board, rules it out)."""
    back = s.back[s.to_move]
    empty = ~(s.pieces[0] | s.pieces[1])
    return back is not None and (empty >> back[0]) & 1 == 1 and not alquerque.captures_of(s)
