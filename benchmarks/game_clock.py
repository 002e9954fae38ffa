"""Time management under a contest's game clock: self-play of the built-in alpha-beta
engine, each move's search depth and time by phase of the game.

Each game runs as ``arbiter match`` runs it (the contest's clock and charging), and
the engine's own notes give the depth of each search. Prints, per phase (opening:
plies 1-20, middle game: 21-80, end: 81 on), the moves, the mean and range of the
depths reached and the mean seconds per move, then each game's total time used per
side out of the clock.

With ``--against SPEC`` the engine meets another agent instead, seats alternating,
and the time each used is summed per agent: ``--engine "arbiter agent alquerque"
--against alphabeta`` compares the built-in engine run as a program (keeping its own
account of the clock) with the same engine in process.

Usage: python benchmarks/game_clock.py GAME [--games N] [--tc TEXT] [--engine SPEC]
       [--against SPEC]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
from collections import defaultdict

from arbiter.agents.spec import AgentSpec
from arbiter.clock import TimeControl
from arbiter.games import GAME_NAMES, find_game
from arbiter.referee.events import Event, MovePlayed
from arbiter.referee.match import play_game
from arbiter.referee.seat import make_seat

PHASES = (("opening", 1, 20), ("middle", 21, 80), ("end", 81, 10_000))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=GAME_NAMES)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--tc", help="time control (default: the contest's)")
    parser.add_argument("--engine", default="alphabeta")
    parser.add_argument("--against", help="another agent (default: the engine itself)")
    args = parser.parse_args()
    agents = [
        AgentSpec.parse(args.engine, name="A"),
        AgentSpec.parse(args.against or args.engine, name="B"),
    ]
    used_by: dict[str, list[float]] = defaultdict(list)
    spec = find_game(args.game)
    game = spec.make()
    tc = TimeControl.parse(args.tc) if args.tc else spec.time_control
    depths: dict[str, list[int]] = defaultdict(list)
    seconds: dict[str, list[float]] = defaultdict(list)
    opponent = args.against or "itself"
    print(f"{spec.title}, {args.engine} (A) against {opponent} (B), clock {tc.describe()}")
    moves: list[MovePlayed] = []

    def sink(event: Event) -> None:
        if isinstance(event, MovePlayed):
            moves.append(event)

    for number in range(1, args.games + 1):
        moves.clear()
        order = agents if number % 2 else agents[::-1]
        seats = [
            make_seat(spec, game, agent, supervision=spec.supervision, seed=2 * number + i)
            for i, agent in enumerate(order)
        ]
        record = asyncio.run(play_game(spec, game, seats, tc, seed=number, events=sink))
        for move in moves:
            found = re.match(r"depth (\d+)", move.note)
            phase = next(name for name, lo, hi in PHASES if lo <= move.ply <= hi)
            if found:
                depths[phase].append(int(found.group(1)))
            seconds[phase].append(move.seconds)
        used = [sum(record.times[seat::2]) for seat in (0, 1)]
        for agent, spent in zip(order, used, strict=True):
            used_by[agent.name].append(spent)
        print(
            f"game {number}: {order[0].name}-{order[1].name} {record.outcome.result()} by "
            f"{record.reason}{f' ({record.detail})' if record.reason.is_fault else ''}, "
            f"{len(record.moves)} plies, time used {used[0]:.1f}s / {used[1]:.1f}s"
        )
    for name, spent in sorted(used_by.items()):
        print(f"{name}: {statistics.fmean(spent):.1f}s used a game (of the clock's {tc})")
    print(f"{'phase':8s} {'moves':>6s} {'depth':>6s} {'range':>7s} {'s/move':>7s}")
    for name, _, _ in PHASES:
        d, t = depths[name], seconds[name]
        if t:
            rng = f"{min(d)}-{max(d)}" if d else "-"
            mean = f"{statistics.fmean(d):6.1f}" if d else f"{'-':>6s}"
            print(f"{name:8s} {len(t):6d} {mean} {rng:>7s} {statistics.fmean(t):7.3f}")


if __name__ == "__main__":
    main()
