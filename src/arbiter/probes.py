"""What ``arbiter check-agent`` exercises in each game beyond whole games against random.

Two kinds of check lead a program into the rules people get wrong:

- *Prepared positions*, for contests that hand a program the whole board each move
  (checkers, Halma): a position found by a seeded search of random games for the
  property the check needs (a forced capture, a camp rule that rules moves out), so
  it is the same every time. The program plays one move from it.
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
from dataclasses import dataclass, replace
from typing import Any

from arbiter.bitboard import bits, popcount
from arbiter.contract import GameSpec
from arbiter.game import Player
from arbiter.games.alquerque import rules as alquerque
from arbiter.games.alquerque.rules import Alquerque
from arbiter.games.checkers import rules as checkers
from arbiter.games.chinese_checkers import rules as cc
from arbiter.games.chinese_checkers.rules import ChineseCheckers
from arbiter.games.halma import rules as halma
from arbiter.games.votey import rules as votey

Watch = Callable[[Any, Any, Any], "str | None"]
"""What a program's move in a position met, as a word to count (or ``None``)."""


@dataclass(frozen=True, slots=True)
class Steer:
    """A steered game: the opponent's preference, and what to count in the program's
    moves."""

    prefer: Callable[[Any, Any, Any], int]
    watch: Watch


@dataclass(frozen=True, slots=True)
class Check:
    """One check: the program's seat, where the game starts (``None``: the start), the
    clock, the ply at which the game is stopped (``None``: played to the end), and the
    opponent's steering (``None``: random). A check from a prepared position gives the
    program the side to move there."""

    name: str
    about: str
    seat: Player
    start: str | None = None
    clock: str | None = None
    stop_at: int | None = None
    steer: Steer | None = None


STEERED_PLIES = 200
"""A steered game is stopped here: long enough to meet the rule many times."""


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


def _prepared(
    spec: GameSpec[Any, Any],
    found: list[tuple[str, str, Callable[[Any, Any], bool], int, int]],
) -> list[Check]:
    """The checks of ``(name, about, want, seed, plies)``: the first position of seeded
    random games where ``want`` holds (a check whose position is never found is left
    out)."""
    return [
        Check(name, about, 0, start)
        for name, about, want, seed, plies in found
        for start in [find_position(spec, want, seed, plies)]
        if start
    ]


def _checkers(spec: GameSpec[Any, Any]) -> list[Check]:
    def forced(game: checkers.Checkers, s: checkers.State) -> bool:
        moves = game.legal_moves(s)
        return bool(moves) and all(m.captures for m in moves)

    def multi(game: checkers.Checkers, s: checkers.State) -> bool:
        return forced(game, s) and any(len(m.captures) >= 2 for m in game.legal_moves(s))

    return _prepared(
        spec,
        [
            ("forced capture", "a capture is compulsory", forced, 1, 200),
            ("multi-jump", "a jump goes on while it can, every landing written", multi, 2, 400),
        ],
    )


def _halma(spec: GameSpec[Any, Any]) -> list[Check]:
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
        for check in _prepared(
            spec, [("very little time", "a move deep in a game with 0.3 s left", midgame, 5, 80)]
        )
    ]
    return late + _prepared(
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


def _votey(spec: GameSpec[Any, Any]) -> list[Check]:
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


def _alquerque(spec: GameSpec[Any, Any]) -> list[Check]:
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


def _chinese_checkers(spec: GameSpec[Any, Any]) -> list[Check]:
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


PROBES: dict[str, Callable[[GameSpec[Any, Any]], list[Check]]] = {
    "checkers": _checkers,
    "halma": _halma,
    "votey": _votey,
    "alquerque": _alquerque,
    "chinese-checkers": _chinese_checkers,
}
"""Each game's checks beyond whole games against random."""
