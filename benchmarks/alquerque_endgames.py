"""Alquerque endgames: does the side ahead convert before the 100-move tie?

Usage: python benchmarks/alquerque_endgames.py [--clock S] [--workers N] [--limit K]
       python benchmarks/alquerque_endgames.py --make RECORDS.jsonl ...

The positions (``alquerque_endgames.txt`` beside this script) come from real games of
the built-in engine (``arbiter match alquerque alphabeta alphabeta --openings 8``):
from each game, the first position at plies 100-140 where one side is two men or more
ahead, with the side to move and the plies played (so the tie is where it was). From
each, the built-in alpha-beta plays both sides on a game clock of ``--clock`` seconds
each for the rest of the game, charged in wall time as the contest charges it. Printed:
how often the side ahead won before the tie, and in how many plies, and how the others
ended. ``--make`` writes the positions file from record files.
"""

from __future__ import annotations

import argparse
import asyncio
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from arbiter.agents.registry import make_agent
from arbiter.clock import TimeControl
from arbiter.games import find_game
from arbiter.record import read_records
from arbiter.referee.match import play_game
from arbiter.referee.seat import LocalSeat

POSITIONS = Path(__file__).with_name("alquerque_endgames.txt")


def make(records: list[str]) -> list[str]:
    """The first position at plies 100-140 with a lead of two men or more, per game."""
    spec = find_game("alquerque")
    rules = spec.rules()
    found = []
    for path in records:
        for _, record in read_records(path):
            s = (
                rules.initial()
                if record.start is None
                else spec.notation.parse_position(record.start)
            )
            for text in record.moves:
                if 100 <= s.ply <= 140 and rules.outcome(s) is None:
                    lead = s.pieces[0].bit_count() - s.pieces[1].bit_count()
                    if abs(lead) >= 2:
                        found.append(spec.notation.format_position(s))
                        break
                s = rules.apply(s, spec.contest.judge(rules, s, text, seat=0))
    return found


def play(job: tuple[str, float, int]) -> tuple[bool, int, str]:
    """One endgame: (the side ahead won, the plies it took, how it ended)."""
    text, clock, seed = job
    spec = find_game("alquerque")
    rules = spec.rules()
    s = spec.notation.parse_position(text)
    ahead = 0 if s.pieces[0].bit_count() > s.pieces[1].bit_count() else 1
    seats = [
        LocalSeat(make_agent(spec, "alphabeta"), rules, spec.contest, seed=seed + seat)
        for seat in (0, 1)
    ]
    tc = TimeControl.parse(f"{clock:g}")
    record = asyncio.run(play_game(spec, rules, seats, tc, start=s, seed=seed))
    out = record.outcome
    return out.winner == ahead, len(record.moves), f"{out.result()} {out.reason}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--make", nargs="+", metavar="RECORDS")
    parser.add_argument("--clock", type=float, default=10.0, help="seconds a side (wall)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--limit", type=int, default=None, help="only the first K positions")
    args = parser.parse_args()
    if args.make:
        found = make(args.make)
        POSITIONS.write_text("".join(f"{t}\n" for t in found))
        print(f"{len(found)} positions written to {POSITIONS}")
        return
    texts = POSITIONS.read_text().split("\n")
    texts = [t for t in texts if t.strip()][: args.limit]
    jobs = [(t, args.clock, i) for i, t in enumerate(texts)]
    with ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(play, jobs))
    won = [plies for ok, plies, _ in results if ok]
    print(f"# {len(texts)} endgames, {args.clock:g} s a side (wall), built-in against itself")
    for (ok, plies, how), text in zip(results, texts, strict=True):
        print(f"{'won ' if ok else 'NOT '} {plies:4d} plies  {how:28s} {text}")
    rate = len(won) / len(results)
    mean = sum(won) / len(won) if won else 0
    print(f"converted {len(won)} of {len(results)} ({rate:.0%}), in {mean:.0f} plies on average")


if __name__ == "__main__":
    main()
