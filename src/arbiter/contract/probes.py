"""What ``arbiter check-agent`` exercises in each game beyond whole games against random.

Two kinds of check lead a program into the rules people get wrong:

- *Prepared positions*, for contests that hand a program the whole board each move
  (checkers, Halma): a position found by a seeded search of random games for the
  property the check needs (a forced capture, a camp rule that rules moves out), so
  it is the same every time. The program plays one move from it.
Each game's ``probes`` module says which of them it has, with its timing check (the
game's spec loads it); this module holds what they share.

- *Steered games*, for contests whose programs keep their own board from the start
  (Votey, Alquerque, Chinese checkers): the opponent is a
  :class:`~arbiter.agents.steering.SteeringAgent` that prefers the moves leading
  there (leaving wins open, offering captures and capture chains, leaving a move
  back open, opening long hops and chains through the neutral triangles). What the
  program met is counted, so a report says the rule was exercised and how often.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from arbiter.contract.spec import Check, GameSpec

STEERED_PLIES = 200
"""A steered game is stopped here: long enough to meet the rule many times."""

BUSY_MACHINE = Check(
    "busy machine", "a whole game on the contest's clock with every core busy", 0, busy=True
)
"""A program's timing where its protocol cannot tell it the clock (it is written for
the contest's): the contest's clock, on a machine whose every core is kept busy, as a
contest's machine is while it plays many games at once. A program that measures the
wrong time (wall time where CPU time is charged, or the reverse), or that leaves no
margin, loses here. (A shorter clock than the contest's would fail every program that
uses its time well: it cannot know.)"""


def find_position(
    spec: GameSpec[Any, Any], want: Callable[[Any, Any], bool], seed: int, plies: int = 200
) -> str | None:
    """The first position of seeded random games where ``want(game, state)`` holds."""
    game = spec.make()
    rng = random.Random(seed)
    for _ in range(200):
        s = game.initial()
        for _ in range(plies):
            if game.outcome(s) is not None:
                break
            if want(game, s):
                return str(spec.notation.format_position(s))
            s = game.apply(s, rng.choice(game.legal_moves(s)))
    return None


def prepared(
    spec: GameSpec[Any, Any],
    found: list[tuple[str, str, Callable[[Any, Any], bool], int, int]],
) -> list[Check]:
    """The checks of ``(name, about, want, seed, plies)``: the first position of seeded
    random games where ``want`` holds, the program playing the side to move there (the
    side ``want`` looks at: a forced capture is the program's to make); a check whose
    position is never found is left out."""
    game = spec.make()
    checks = []
    for name, about, want, seed, plies in found:
        start = find_position(spec, want, seed, plies)
        if start:
            seat = game.to_move(spec.notation.parse_position(start))
            checks.append(Check(name, about, seat, start))
    return checks
