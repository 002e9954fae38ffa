"""A person as a seat: moves typed at the terminal, judged by the same referee loop.

The person types moves in the contest's own notation, from their own side of the
board (in Chinese checkers their home is 1-10 whichever seat they hold). Before
each move the board is drawn with the last move marked. ``moves`` lists the legal
moves, ``undo`` takes back the person's last move and the reply (against built-in
engines), ``board`` draws the board again, ``numbers`` labels every point with the
name the person gives it, ``help`` explains, ``quit`` resigns.
A malformed or illegal entry is explained and asked for again; the referee then
judges the accepted text like any program's reply. The person is charged the wall
time they take.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from arbiter.clock import Clock
from arbiter.contract import GameSpec, Reply
from arbiter.errors import IllegalMove, NotationError, Resigned
from arbiter.game import Game, Outcome, Player
from arbiter.referee.events import Event, GameEnded, MovePlayed, one_line
from arbiter.referee.seat import TakeBack

S = TypeVar("S")
M = TypeVar("M", bound=Hashable)

HELP = (
    "Type a move in the contest's notation, or one of: moves (list the legal moves), "
    "undo (take back your last move), board (draw the board), numbers (the board's "
    "points as you name them), help, quit (resign)."
)


class HumanSeat(Generic[S, M]):
    """A person at the terminal; ``read`` and ``write`` default to it, tests pass their own.
    ``undo`` allows take-backs (the game must be played with them allowed)."""

    def __init__(
        self,
        spec: GameSpec[S, M],
        game: Game[S, M],
        *,
        name: str = "you",
        undo: bool = True,
        read: Callable[[str], str] = input,
        write: Callable[[str], None] = print,
    ) -> None:
        self.spec = spec
        self.game = game
        self.name = name
        self.undo = undo
        self.read = read
        self.write = write
        self.seat: Player = 0
        self.last: M | None = None
        self.state: S | None = None
        self.moved = 0

    async def start(self, seat: Player, clock: Clock) -> None:
        self.seat = seat

    def _draw(self, s: S) -> None:
        self.write("")
        self.write(self.spec.notation.draw_board(s, self.last))

    async def ask(self, s: S, clock: Clock) -> Reply:
        notation = self.spec.notation
        names = self.spec.seat_names
        t0 = time.monotonic()
        self._draw(s)
        while True:
            try:
                entry = (
                    await asyncio.to_thread(self.read, f"{names[self.seat]} to move> ")
                ).strip()
            except EOFError:
                raise Resigned("input ended") from None
            command = entry.lower()
            if not entry or command == "board":
                if command:
                    self._draw(s)
                continue
            if command in ("quit", "resign", "exit"):
                raise Resigned("resigned", who=self.name)
            if command in ("help", "?"):
                self.write(HELP)
                continue
            if command == "numbers":
                self.write(notation.draw_numbers(seat=self.seat))
                continue
            if command == "moves":
                texts = [notation.format_move(m, seat=self.seat) for m in self.game.legal_moves(s)]
                joined = any("\n" in text for text in texts)
                self.write((", " if joined else " ").join(one_line(text) for text in texts))
                continue
            if command in ("undo", "takeback"):
                if not self.undo:
                    self.write("no take-backs in this game")
                    continue
                if self.moved == 0:
                    self.write("nothing to undo")
                    continue
                raise TakeBack
            try:
                m = notation.resolve_move(entry, s, seat=self.seat)
            except (NotationError, IllegalMove) as e:
                self.write(f"not played: {e}")
                continue
            self.moved += 1
            self.last, self.state = m, self.game.apply(s, m)
            text = self.spec.contest.move_text(self.game, s, m, seat=self.seat)
            return Reply(text, time.monotonic() - t0)

    async def tell(self, before: S, move: M, after: S) -> None:
        self.last, self.state = move, after

    async def rewind(self, s: S) -> bool:
        self.moved -= 1
        self.last, self.state = None, s
        self.write("took back your last move")
        return True

    async def stop(self, outcome: Outcome) -> None:
        if self.state is not None:
            self._draw(self.state)


def terminal_events(
    spec: GameSpec[S, M], human: Player, write: Callable[[str], None] = print
) -> Callable[[Event], None]:
    """Returns the event sink of terminal play: it shows the opponent's moves as the
    person writes them, with the engine's search note, and the result."""

    def show(event: Event) -> None:
        if isinstance(event, MovePlayed) and event.seat != human:
            note = f" ({event.note})" if event.note else ""
            write(f"{spec.seat_names[event.seat]} plays {event.shown(human)}{note}")
        elif isinstance(event, GameEnded):
            record = event.record
            out = record.outcome
            if out.winner is None:
                write(f"Draw ({out.reason}).")
            else:
                who = "You win" if out.winner == human else f"{record.players[out.winner]} wins"
                write(f"{who}: {spec.seat_names[out.winner]} wins by {out.reason}.")

    return show
