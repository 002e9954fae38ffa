"""Race with a program run once per move, shaped like the Halma contest: it reads
``input.txt`` (its seat, its remaining seconds, the ten cells from its own side with
``o`` its tokens and ``x`` the opponent's) and writes ``F-T`` to ``output.txt``; it may
keep ``playdata.txt`` within a game. A whole-game clock charged as CPU of the
program's tree, killed 2 s past the flag."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from arbiter.clock import Clock, Limit, TimeControl
from arbiter.contract import Agent, AgentRun, Program, Supervision, keep_move, keep_outcome
from arbiter.errors import ConfigError
from arbiter.game import Game, Player
from arbiter.referee.file_seat import FileSeat
from tests.fakegame.notation import cell_of, format_move
from tests.fakegame.protocol import judge, move_text
from tests.fakegame.rules import CELLS, Move, State

__all__ = [
    "STARTS_ANYWHERE",
    "SUPERVISION",
    "TIME_CONTROL",
    "adjudicate",
    "comply",
    "judge",
    "move_text",
    "program_seat",
    "serve",
]

TIME_CONTROL = TimeControl.parse("10 kill=2")
STARTS_ANYWHERE = True

SUPERVISION = Supervision(expose=(str(Path(__file__).resolve().parents[1]),))
"""The test game's program imports the test game: namespaced programs may read the
tests' folder."""
adjudicate = keep_outcome
comply = keep_move


def input_text(s: State, seat: Player, remaining: float) -> str:
    row = ""
    for n in range(1, CELLS + 1):
        cell = cell_of(n, seat)
        row += (
            "o"
            if (s.pieces[seat] >> cell) & 1
            else "x"
            if (s.pieces[1 - seat] >> cell) & 1
            else "."
        )
    return f"{seat + 1}\n{remaining:.3f}\n{row}\n"


def parse_input(text: str) -> tuple[State, Player, float]:
    seat_line, remaining, row = text.split()
    seat = int(seat_line) - 1
    mine = sum(1 << cell_of(n + 1, seat) for n, ch in enumerate(row) if ch == "o")
    theirs = sum(1 << cell_of(n + 1, seat) for n, ch in enumerate(row) if ch == "x")
    pieces = (mine, theirs) if seat == 0 else (theirs, mine)
    return State(pieces, seat), seat, float(remaining)


class RaceFileSeat(FileSeat[State, Move]):
    def input_text(self, s: State, clock: Clock) -> str:
        return input_text(s, self.seat, clock.remaining[self.seat])

    def reply_text(self, output: str) -> str:
        return output.strip()


def program_seat(program: Program, *, supervision: Supervision) -> RaceFileSeat:
    return RaceFileSeat(program, supervision=supervision)


def serve(
    agent: Agent[State, Move], game: Game[State, Move], args: Sequence[str], run: AgentRun
) -> int:
    """One run of the program: one move, from and to the files in the working directory."""
    if args:
        raise ConfigError(f"a race file program takes no arguments, not {args!r}")
    s, seat, remaining = parse_input(Path("input.txt").read_text())
    played = Path("playdata.txt")
    count = int(played.read_text()) if played.exists() else 0
    played.write_text(str(count + 1))
    print(f"run {count + 1} of this game", file=sys.stderr)  # for the tests' transcripts
    agent.reset(game, seat, run.seed + count)
    m = agent.choose(s, Limit(time=min(0.2, remaining / 10)))
    Path("output.txt").write_text(run.reply(format_move(m, seat=seat)) + "\n")
    return 0
