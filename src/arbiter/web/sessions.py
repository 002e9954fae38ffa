"""Live games in the browser: a person against an engine, or two engines, each played
by the same referee loop as ``arbiter match`` and ``arbiter play``.

A :class:`Session` runs :func:`~arbiter.referee.match.play_game` as a task on the
server's event loop. The person is a :class:`WebSeat`: when it is asked for a move it
waits for one from the page, which the session has already checked against the rules
(a bad request is refused with a message and changes nothing). Every move reaches
the session as the referee's own :class:`~arbiter.referee.events.MovePlayed`, with the
move, the positions and the clocks the referee judged and charged, so the position,
the move list and the clocks the page shows are the referee's: the session neither
judges nor clocks a move again. What the page asks of the board (the cells a move
may start from, what follows a click, whether the moves are forced) goes to the
game's :class:`~arbiter.contract.layout.BoardView`; the session knows nothing of any
game's moves. The
session lives on the server: a page reloaded, or opened elsewhere, sees the same
game.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import secrets
import time
from dataclasses import dataclass
from typing import Any

from arbiter.agents.registry import make_agent
from arbiter.agents.spec import AgentSpec
from arbiter.clock import Clock, Limit, TimeControl
from arbiter.contract import GameSpec, Reply, Seat, Supervision
from arbiter.contract.layout import Continuation
from arbiter.errors import Resigned
from arbiter.game import Outcome, Player
from arbiter.referee.events import Event, GameEnded, MovePlayed, one_line
from arbiter.referee.match import play_game
from arbiter.referee.seat import LocalSeat, TakeBack, make_seat


class WebError(Exception):
    """A request the game cannot take: ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True, slots=True)
class Ply:
    """A move played: the position after it, the move, its text in the record's
    numbering (on one line), who played it, the seconds charged, the engine's note,
    the cells it passed through, and the clocks after it."""

    state: Any
    move: Any
    text: str
    seat: Player
    seconds: float
    note: str
    path: tuple[int, ...]
    clock: Clock


class WebSeat:
    """The person at the page: asked for a move, it waits for the session to hand it one
    the page sent (already checked), or a take-back, or a resignation."""

    def __init__(self, session: Session, name: str) -> None:
        self.session = session
        self.name = name
        self.seat: Player = 0
        self.moved = 0

    async def start(self, seat: Player, clock: Clock) -> None:
        self.seat = seat

    async def ask(self, s: Any, clock: Clock) -> Reply:
        session = self.session
        started = time.monotonic()
        action = await session.wait_for_person(s)
        if action == "undo":
            raise TakeBack
        if action == "resign":
            raise Resigned("resigned", who=self.name)
        self.moved += 1
        text = session.spec.contest.move_text(session.game, s, action, seat=self.seat)
        return Reply(text, time.monotonic() - started)

    async def tell(self, before: Any, move: Any, after: Any) -> None:
        pass

    async def rewind(self, s: Any) -> bool:
        self.moved -= 1
        self.session.rewound(s)
        return True

    async def stop(self, outcome: Outcome) -> None:
        pass


_ids = itertools.count(1)


class Session:
    """One game on the server (see the module docstring). ``human`` is the person's
    seat, or None when two engines play."""

    def __init__(
        self,
        spec: GameSpec[Any, Any],
        players: tuple[str, str],
        tc: TimeControl,
        human: Player | None,
        options: dict[str, Any] | None = None,
        start: Any = None,
        untimed: frozenset[Player] = frozenset(),
    ) -> None:
        # the id is the game's key: whoever holds it plays the person's side, so it
        # carries 128 random bits (the contest server lets strangers play entrants)
        self.id = f"{next(_ids)}-{secrets.token_urlsafe(16)}"
        self.spec = spec
        self.options = dict(options or {})
        self.game = spec.make(self.options)
        self.players = players
        self.tc = tc
        self.human = human
        self.start = self.game.initial() if start is None else start
        self.from_position = start is not None
        self.plies: list[Ply] = []
        self.outcome: Outcome | None = None
        # the clocks at the start, a seat in ``untimed`` without one (:class:`Clock`)
        self.first_clock = Clock.start(tc, untimed=untimed)
        self.clock = self.first_clock
        self.turn_started = time.monotonic()
        self.undo_allowed = False
        self.owner: int | None = None
        """The account that started it, where the server has accounts (the contest
        site: only it sees and plays the game); None on ``arbiter serve``."""
        self._request: asyncio.Future[Any] | None = None
        self._listeners: set[asyncio.Queue[dict[str, Any]]] = set()
        self._changed = asyncio.Event()
        self.version = 0  # counts the changes, so a page can drop a snapshot older than its own
        self.task: asyncio.Task[Any] | None = None
        self.seen = time.monotonic()  # the last request about it, or the last watcher's leave

    # -- the game ---------------------------------------------------------------

    @property
    def state(self) -> Any:
        return self.plies[-1].state if self.plies else self.start

    def begin(self, seats: list[Seat[Any, Any]]) -> None:
        """Starts the referee loop for ``seats`` (in seat order) on the running loop."""
        self.task = asyncio.create_task(
            play_game(
                self.spec,
                self.game,
                seats,
                self.tc,
                events=self._event,
                options=self.options,
                takebacks=self.undo_allowed,
                start=self.start if self.from_position else None,
                untimed=self.first_clock.untimed,
            )
        )

    def _event(self, event: Event) -> None:
        if isinstance(event, MovePlayed):
            played = event.played
            if played is None:  # the referee runs in this process: it always says
                raise RuntimeError("a move event without the move reached a browser session")
            self.clock = played.clock
            path = self.spec.board_view().clicks.move_path(played.before, played.move)
            text = one_line(event.text)
            self.plies.append(
                Ply(
                    played.after,
                    played.move,
                    text,
                    event.seat,
                    event.seconds,
                    event.note,
                    path,
                    self.clock,
                )
            )
        elif isinstance(event, GameEnded):
            self.outcome = event.record.outcome
        else:
            return
        self.turn_started = time.monotonic()
        self._publish()

    def rewound(self, s: Any) -> None:
        """The referee took moves back to the position ``s``."""
        while self.plies and self.state != s:
            self.plies.pop()
        self.clock = self.plies[-1].clock if self.plies else self.first_clock
        self.turn_started = time.monotonic()
        self._publish()

    async def wait_for_person(self, s: Any) -> Any:
        """What the person does next: a checked move, ``undo`` or ``resign``."""
        loop = asyncio.get_running_loop()
        self._request = loop.create_future()
        self._publish()
        try:
            return await self._request
        finally:
            self._request = None

    # -- requests from the page ---------------------------------------------------

    def _check_turn(self) -> None:
        if self.outcome is not None:
            raise WebError(409, f"the game is over: {self.outcome.explained()}")
        if self.human is None:
            raise WebError(409, "two engines are playing this game; it takes no moves")
        if self.game.to_move(self.state) != self.human or self._request is None:
            raise WebError(409, "it is not your turn: the engine is thinking")

    def continuations(self, clicks: list[int]) -> Continuation[Any]:
        """The cells that may follow ``clicks``, for the person to move."""
        self._check_turn()
        return self.spec.board_view().clicks.continuations(self.game, self.state, clicks)

    async def play(self, clicks: list[int]) -> None:
        """Plays the person's move given as the cells clicked.

        :raises WebError: for a finished game, a move out of turn, or clicks that are
            not a legal move.
        """
        self._check_turn()
        found = self.spec.board_view().clicks.continuations(self.game, self.state, clicks)
        if found.move is None:
            shown = " ".join(self.label(c) for c in clicks) or "nothing"
            more = "; it can go on" if found.next else ""
            raise WebError(422, f"not a legal move: {shown}{more}")
        await self._answer(found.move)

    async def undo(self) -> None:
        """Takes back the person's last move and the engine's reply.

        :raises WebError: when there is nothing to take back or take-backs are off.
        """
        self._check_turn()
        if not self.undo_allowed:
            raise WebError(409, "take-backs are only allowed against a built-in engine")
        if not any(p.seat == self.human for p in self.plies):
            raise WebError(409, "there is no move of yours to take back")
        await self._answer("undo")

    async def resign(self) -> None:
        """The person resigns.

        :raises WebError: for a finished game or out of turn.
        """
        self._check_turn()
        await self._answer("resign")

    async def _answer(self, action: Any) -> None:
        """Hands ``action`` to the waiting seat and waits until the game has moved on."""
        assert self._request is not None
        self._changed.clear()
        self._request.set_result(action)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(5):
                await self._changed.wait()

    async def ready(self, timeout: float = 10.0) -> None:
        """Waits until the person is asked for a move or the game is over (the engine's
        first move played when it moves first)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                while self._request is None and self.outcome is None:
                    self._changed.clear()
                    await self._changed.wait()

    async def stop(self) -> None:
        """Ends the referee loop (its programs stopped)."""
        if self.task is not None and not self.task.done():
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task

    # -- what the page sees ---------------------------------------------------------

    def label(self, cell: int) -> str:
        cells = self.spec.board_view().layout.cells
        return cells[cell].label if 0 <= cell < len(cells) else str(cell)

    def listen(self) -> asyncio.Queue[dict[str, Any]]:
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=64)
        self._listeners.add(queue)
        self.touch()
        return queue

    def forget(self, queue: asyncio.Queue[dict[str, Any]]) -> None:
        self._listeners.discard(queue)
        self.touch()

    def touch(self) -> None:
        """Notes that someone asked about the game just now."""
        self.seen = time.monotonic()

    def abandoned(self, after: float) -> bool:
        """True when no page watches the game and no one has asked about it for
        ``after`` seconds (its page was closed)."""
        return not self._listeners and time.monotonic() - self.seen > after

    def _publish(self) -> None:
        self.version += 1
        self._changed.set()
        snapshot = self.snapshot()
        for queue in list(self._listeners):
            if queue.full():  # a page that stopped reading gets the latest only
                with contextlib.suppress(asyncio.QueueEmpty):
                    queue.get_nowait()
            queue.put_nowait(snapshot)

    def snapshot(self) -> dict[str, Any]:
        """The whole game as the page shows it."""
        s = self.state
        spec = self.spec
        over = self.outcome is not None
        to_move = None if over else self.game.to_move(s)
        mine = not over and to_move == self.human and self._request is not None
        board = spec.board_view()
        origins = board.clicks.continuations(self.game, s, []).next if mine else ()
        forced = board.forced(self.game, s) if mine and board.forced is not None else None
        clocks = [None if r == float("inf") else round(r, 3) for r in self.clock.remaining]
        return {
            "id": self.id,
            "version": self.version,
            "game": spec.name,
            "title": spec.title,
            "seat_names": list(spec.seat_names),
            "players": list(self.players),
            "human": self.human,
            "time_control": str(self.tc),
            "to_move": to_move,
            "your_turn": mine,
            "thinking": not over and not mine and (self.human is None or to_move != self.human),
            "ply": len(self.plies),
            "pieces": board.pieces(s),
            "last": list(self.plies[-1].path) if self.plies else [],
            "origins": list(origins),
            "forced": forced,
            "moves": [
                {"seat": p.seat, "text": p.text, "seconds": round(p.seconds, 3), "note": p.note}
                for p in self.plies
            ],
            "clocks": clocks,
            "per_move": self.tc.per_move,
            "running_for": None if over else round(time.monotonic() - self.turn_started, 3),
            "result": None if self.outcome is None else result_json(self.outcome),
            "can_undo": mine
            and self.undo_allowed
            and any(p.seat == self.human for p in self.plies),
            "position": spec.notation.format_position(s),
        }


def result_json(outcome: Outcome) -> dict[str, Any]:
    return {
        "result": outcome.result(),
        "winner": outcome.winner,
        "reason": str(outcome.reason),
        "detail": outcome.detail,
        "text": outcome.explained(),
    }


def human_game(
    spec: GameSpec[Any, Any],
    human: Player,
    engine: AgentSpec,
    tc: TimeControl,
    move_time: float,
    *,
    seed: int = 0,
    start: Any = None,
    supervision: Supervision | None = None,
    person_timed: bool = True,
) -> Session:
    """A person against ``engine`` (a built-in, thinking ``move_time`` seconds a move, or
    a configured program on ``tc``, watched by ``supervision``, default the game's),
    from ``start`` (default: the game's start); started on the running loop. Without
    ``person_timed`` only the engine plays on ``tc`` (a contest's clock, made for
    programs), the person without a clock."""
    names = ["you", engine.name]
    if human == 1:
        names.reverse()
    untimed = frozenset() if person_timed else frozenset({human})
    session = Session(spec, (names[0], names[1]), tc, human, start=start, untimed=untimed)
    person = WebSeat(session, "you")
    computer: Seat[Any, Any]
    if engine.program is None:
        computer = LocalSeat(
            make_agent(spec, engine),
            session.game,
            spec.contest,
            name=engine.name,
            seed=seed,
            limit=Limit(time=move_time),
        )
        session.undo_allowed = True
    else:
        watch = supervision or spec.supervision
        computer = make_seat(spec, session.game, engine, supervision=watch, seed=seed)
    seats: list[Seat[Any, Any]] = [person, computer] if human == 0 else [computer, person]
    session.begin(seats)
    return session


def engine_game(
    spec: GameSpec[Any, Any],
    engines: tuple[AgentSpec, AgentSpec],
    tc: TimeControl,
    move_time: float,
    *,
    seed: int = 0,
    start: Any = None,
) -> Session:
    """Two engines (built-in or configured programs) playing, for watching."""
    session = Session(spec, (engines[0].name, engines[1].name), tc, None, start=start)
    seats: list[Seat[Any, Any]] = []
    for i, engine in enumerate(engines):
        if engine.program is None:
            seats.append(
                LocalSeat(
                    make_agent(spec, engine),
                    session.game,
                    spec.contest,
                    name=engine.name,
                    seed=seed + i,
                    limit=Limit(time=move_time),
                )
            )
        else:
            seats.append(
                make_seat(spec, session.game, engine, supervision=spec.supervision, seed=seed + i)
            )
    session.begin(seats)
    return session
