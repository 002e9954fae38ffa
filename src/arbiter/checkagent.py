"""``arbiter check-agent``: a conformance check a contestant runs before submitting.

The program plays through the contest's exact protocol and clock, against the
built-in random player: a whole game in each seat, a game on a short clock, and,
for contests that give a program the whole board (checkers, Halma), single moves
from prepared positions that exercise the rules people get wrong. Those positions
are found by a seeded search of random games for the property each check needs, so
they are the same every time. Each check passes when the program made no fault; a
failure shows the verdict and the end of what the program was sent and wrote.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from arbiter.agents.random import RandomAgent
from arbiter.bitboard import bits
from arbiter.clock import TimeControl
from arbiter.contract import GameSpec
from arbiter.game import Player
from arbiter.record import GameRecord
from arbiter.referee.match import play_game
from arbiter.referee.seat import LocalSeat, Program
from arbiter.referee.transcript import game_dir

TRANSCRIPT_LINES = 12
"""Lines of the program's transcript shown with a failure."""


@dataclass(frozen=True, slots=True)
class Check:
    """One check: the program's seat, where the game starts (``None``: the start), the
    clock, and the ply at which the game is stopped (``None``: played to the end). A
    check from a prepared position gives the program the side to move there."""

    name: str
    about: str
    seat: Player
    start: str | None = None
    clock: str | None = None
    stop_at: int | None = None


@dataclass(frozen=True, slots=True)
class Result:
    check: Check
    passed: bool
    verdict: str
    transcript: tuple[str, ...] = ()


def _find(
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


def _checkers_probes(spec: GameSpec[Any, Any]) -> list[Check]:
    def forced(game: Any, s: Any) -> bool:
        moves = game.legal_moves(s)
        return bool(moves) and all(m.captures for m in moves)

    def multi(game: Any, s: Any) -> bool:
        return forced(game, s) and any(len(m.captures) >= 2 for m in game.legal_moves(s))

    return [
        Check("forced capture", "a capture is compulsory", 0, start)
        for start in [_find(spec, forced, 1)]
        if start
    ] + [
        Check("multi-jump", "a jump goes on while it can, every landing written", 0, start)
        for start in [_find(spec, multi, 2, 400)]
        if start
    ]


def _halma_probes(spec: GameSpec[Any, Any]) -> list[Check]:
    from arbiter.games.halma.rules import CAMPS, destinations, reach

    def narrowed(game: Any, s: Any) -> bool:
        """Rule 1(b) rules out moves the board allows (a piece outside could move)."""
        p = s.to_move
        occupied = s.pieces[0] | s.pieces[1]
        outside = list(bits(s.pieces[p] & ~CAMPS[p]))
        return any(reach(p, c, occupied) for c in outside) and not set(outside) & set(
            destinations(s)
        )

    def chain(game: Any, s: Any) -> bool:
        return any(len(m.hops) >= 3 for m in game.legal_moves(s))

    found = [
        ("camp first", "while pieces are in the camp, one must leave it (rule 1(b))", narrowed, 3),
        ("hop chain", "a chain of three hops or more, one J line each", chain, 4),
    ]
    return [
        Check(name, about, 0, start)
        for name, about, want, seed in found
        for start in [_find(spec, want, seed, 120)]
        if start
    ]


PER_MOVE_SHORT = Check("short clock", "a whole game at 0.5 s a move", 0, clock="st=0.5")
SHORT = {
    "alquerque": Check("short clock", "a whole game with 10 s for it", 0, clock="10"),
    "chinese-checkers": Check(
        "short clock", "a whole game with 5 s, then 1 s a move", 0, clock="5 ot=1"
    ),
    "halma": Check("little time", "a move with 2 s left", 0, clock="2 kill=10", stop_at=1),
}
"""Each game's check of a program's timing, where 0.5 s a move is not the contest's shape."""

PROBES: dict[str, Callable[[GameSpec[Any, Any]], list[Check]]] = {
    "checkers": _checkers_probes,
    "halma": _halma_probes,
}


def checks(spec: GameSpec[Any, Any], clock: str | None) -> list[Check]:
    """The checks for ``spec``'s programs (``clock``: the whole games' clock, default
    the contest's)."""
    out = [
        Check("first seat", "a whole game moving first", 0, clock=clock),
        Check("second seat", "a whole game moving second", 1, clock=clock),
        SHORT.get(
            spec.name, Check("short clock", "a whole game at 0.5 s a move", 0, clock="st=0.5")
        ),
    ]
    probes = PROBES.get(spec.name)
    game = spec.make()
    for probe in probes(spec) if probes is not None else []:
        assert probe.start is not None
        s = spec.notation.parse_position(probe.start)
        seat = game.to_move(s)  # the program is the side to move
        # one move, the program's: both games keep the ply in the position
        out.append(replace(probe, seat=seat, clock=clock, stop_at=s.ply + 1))
    return out


def run(spec: GameSpec[Any, Any], command: str, check: Check, workdir: str) -> Result:
    """Plays one check."""
    game_options: dict[str, Any] = {}
    start = None if check.start is None else spec.notation.parse_position(check.start)
    if check.stop_at is not None:
        game_options["max_plies"] = check.stop_at
    game = spec.make(game_options)
    log_dir = str(Path(workdir) / check.name.replace(" ", "-"))
    supervision = replace(spec.supervision, log_dir=game_dir(log_dir, 1))
    program = Program.from_command(command, name="program")
    seat = spec.referee.program_seat(program, supervision=supervision)
    opponent: LocalSeat[Any, Any] = LocalSeat(RandomAgent(), game, spec.referee, seed=7)
    seats = [seat, opponent] if check.seat == 0 else [opponent, seat]
    tc = TimeControl.parse(check.clock) if check.clock else spec.time_control
    record: GameRecord = asyncio.run(
        play_game(spec, game, seats, tc, start=start, options=game_options)
    )
    out = record.outcome
    lost = out.reason.is_fault and out.winner == 1 - check.seat
    verdict = f"{out.result()} by {out.reason}" + (f" ({out.detail})" if out.detail else "")
    logs = sorted(Path(game_dir(log_dir, 1)).glob(f"{check.seat + 1}-*.log"))
    lines = logs[0].read_text(errors="replace").splitlines() if logs else []
    return Result(check, not lost, verdict, tuple(lines[-TRANSCRIPT_LINES:]))


def check_agent(spec: GameSpec[Any, Any], command: str, clock: str | None = None) -> list[Result]:
    """Runs every check of ``spec`` on ``command``.

    :raises ConfigError: for a command that is empty or badly quoted.
    """
    Program.from_command(command)  # a command that is empty or badly quoted: at once
    with tempfile.TemporaryDirectory(prefix="arbiter-check-") as workdir:
        return [run(spec, command, check, workdir) for check in checks(spec, clock)]
