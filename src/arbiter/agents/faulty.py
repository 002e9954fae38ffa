"""A built-in engine that misbehaves on purpose, to test a referee against every fault.

``arbiter agent GAME --fault MODE`` runs the engine through the contest's protocol
as usual until its ``--fault-ply``-th move, and then commits the fault. Organisers
use it to see how their set-up judges a broken program before a contest; the test
suite runs every fault against every game. Faults that are a wrong reply (garbage,
an illegal move, two moves at once) replace the text the protocol writes, through
the run's reply filter; the others happen in the program itself.

Every process a fault starts carries ``--fault-tag`` in its command line, so a test
can check that none outlives its game.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Hashable
from typing import Generic, TypeVar

from arbiter.agents.faults import Fault
from arbiter.clock import Limit
from arbiter.contract import Agent, GameSpec
from arbiter.errors import AgentFault, IllegalMove, NotationError, Reason
from arbiter.game import Game, Player

S = TypeVar("S")
M = TypeVar("M", bound=Hashable)

STDERR_FLOOD = 100 << 20
"""Bytes a ``stderr-flood`` writes to standard error."""

LONG_LINE = 10 << 20
"""Characters of a ``long-line`` reply (no line break inside)."""


VERDICT: dict[Fault, Reason | None] = {
    Fault.CRASH: Reason.CRASH,
    Fault.SEGV: Reason.CRASH,
    Fault.GARBAGE: Reason.MALFORMED,
    Fault.EMPTY: Reason.MALFORMED,
    Fault.LONG_LINE: Reason.MALFORMED,
    Fault.ILLEGAL: Reason.ILLEGAL_MOVE,
    Fault.TWO_MOVES: Reason.EARLY_OUTPUT,
    Fault.SLEEP: Reason.TIME,
    Fault.BURN: Reason.TIME,
    Fault.BURN_THREAD: Reason.TIME,
    Fault.BURN_CHILD: Reason.TIME,
    Fault.FORK_BOMB: Reason.TIME,
    # suspended with the program from its reply on, a burner in a thread or a detached
    # process gains nothing and costs little: the game plays on (it is killed at the end)
    Fault.DETACH: None,
    Fault.CLOSE_STDOUT: Reason.CRASH,
    Fault.STDERR_FLOOD: None,  # not a fault: the game plays on
    Fault.PONDER: None,
    Fault.LONG_LINE_UNENDED: Reason.MALFORMED,
    Fault.DEBUG_LINES: Reason.MALFORMED,
    Fault.BINARY: Reason.MALFORMED,
    Fault.DETACH_EXIT: Reason.CRASH,
    Fault.STATS_AFTER: None,
    # with a uid of its own or namespaces it cannot reach its referee: the game plays
    # on; below them the referee's worker dies (see :func:`acceptable`)
    Fault.KILL_PARENT: None,
}
"""How the referee rules each fault of the first program to move, with the waiting
program suspended; ``None``: no fault of that program, the game plays on. (Under a
memory limit a fork bomb may lose by memory instead.)"""

STARTS_PROCESSES = frozenset({Fault.BURN_CHILD, Fault.FORK_BOMB, Fault.DETACH, Fault.DETACH_EXIT})
"""Faults that start another process: where a program must run alone (Chinese
checkers) they lose by :attr:`Reason.FORKED` once the referee sees the child (a
detached child may escape a referee without cgroups, which sees only descendants)."""

NOT_ONCE_PER_MOVE = frozenset(
    {Fault.TWO_MOVES, Fault.CLOSE_STDOUT, Fault.PONDER, Fault.LONG_LINE_UNENDED, Fault.BINARY}
)
"""Faults only a program running between its moves can commit: a program run once per
move has no output stream to close or to write ahead on."""

ONCE_PER_MOVE_VERDICT: dict[Fault, Reason | None] = {
    Fault.DEBUG_LINES: None,  # its output stream is not read: harmless
    Fault.DETACH_EXIT: Reason.MALFORMED,  # it exits 0 without its output file: no move
}
"""Where a program run once per move is ruled otherwise than in :data:`VERDICT`."""


def acceptable(
    fault: Fault,
    *,
    once_per_move: bool,
    single_process: bool,
    memory_limit: bool,
    walled: bool = True,
) -> frozenset[Reason | None]:
    """The rulings a referee may give ``fault`` (committed at the program's first
    move): the reason it loses by, or ``None`` where the program has done nothing to
    lose by and the game plays on. ``walled``: programs run behind a uid of their own
    or namespaces. One place for the fault suite and the soak.

    >>> sorted(acceptable(Fault.CRASH, once_per_move=False, single_process=False,
    ...     memory_limit=False))
    [<Reason.CRASH: 'crash'>]
    """
    if once_per_move and fault in NOT_ONCE_PER_MOVE:
        return frozenset()  # it cannot be committed: nothing to rule
    if fault is Fault.KILL_PARENT and not walled:
        return frozenset({Reason.CRASH})  # its referee's worker died: the game is forfeited
    expected = ONCE_PER_MOVE_VERDICT.get(fault, VERDICT[fault]) if once_per_move else VERDICT[fault]
    found: set[Reason | None] = {expected}
    if single_process and fault in STARTS_PROCESSES:
        found = {Reason.FORKED}
        if fault in (Fault.DETACH, Fault.DETACH_EXIT):
            found.add(expected)  # a detached child may get out of sight first
    if fault is Fault.FORK_BOMB and memory_limit:
        found.add(Reason.MEMORY)  # under a memory limit a fork bomb may run out of it first
    if once_per_move and fault is Fault.DETACH_EXIT:
        # run once per move, its time is judged when it exits, and its detached burner's
        # CPU until then is its own (the whole tree, and its cgroup): it may be over
        found.add(Reason.TIME)
    return frozenset(found)


_BURN = "import sys\nwhile True: pass"


def _burn_forever() -> None:
    while True:
        pass


class FaultyAgent(Generic[S, M]):
    """``inner`` until its ``ply``-th move, then the ``fault``."""

    name = "faulty"

    def __init__(
        self,
        inner: Agent[S, M],
        spec: GameSpec[S, M],
        fault: Fault,
        *,
        ply: int = 1,
        tag: str = "",
    ) -> None:
        self.inner = inner
        self.spec = spec
        self.fault = fault
        self.ply = ply
        self.tag = tag
        self.moves = 0
        self.seat: Player = 0
        self._game: Game[S, M] | None = None
        self._replacement: str | None = None

    def reset(self, game: Game[S, M], seat: Player, seed: int) -> None:
        self._game, self.seat, self.moves = game, seat, 0
        self.inner.reset(game, seat, seed)

    def observe(self, s: S, m: M) -> None:
        self.inner.observe(s, m)

    def note(self) -> str:
        return self.inner.note()

    def halt(self) -> None:
        self.inner.halt()

    def after_game(self) -> None:
        """What the program does once its game is over (``stats-after``: 1 MB of output)."""
        if self.fault is Fault.STATS_AFTER:
            for i in range(20_000):
                print(f"stat {i} " + "y" * 40)
            sys.stdout.flush()

    def reply_filter(self, text: str) -> str:
        """The text the protocol writes: the fault's, once, at the fault move."""
        replacement, self._replacement = self._replacement, None
        return text if replacement is None else replacement

    def _spawn(self, *, detached: bool) -> None:
        subprocess.Popen(
            [sys.executable, "-c", _BURN, "--fault-tag", self.tag],
            start_new_session=detached,
            stdin=subprocess.DEVNULL,
        )

    def choose(self, s: S, limit: Limit) -> M:
        self.moves += 1
        m = self.inner.choose(s, limit)
        if self.moves != self.ply:
            return m
        fault = self.fault
        if fault is Fault.CRASH:
            # with an escape sequence that would clear an organiser's screen if shown raw
            print("faulty agent: crashing on purpose\x1b[2J", file=sys.stderr, flush=True)
            os._exit(3)
        if fault is Fault.SEGV:
            os.kill(os.getpid(), signal.SIGSEGV)
        if fault is Fault.SLEEP:
            time.sleep(10**6)
        if fault is Fault.BURN:
            _burn_forever()
        if fault is Fault.BURN_THREAD:
            threading.Thread(target=_burn_forever, daemon=True).start()
            time.sleep(10**6)
        if fault is Fault.BURN_CHILD:
            self._spawn(detached=False)
            time.sleep(10**6)
        if fault is Fault.FORK_BOMB:
            while True:
                with contextlib.suppress(OSError):
                    os.fork()
        if fault is Fault.DETACH:
            self._spawn(detached=True)
        if fault is Fault.CLOSE_STDOUT:
            sys.stdout.flush()
            os.close(1)
            time.sleep(10**6)
        if fault is Fault.STDERR_FLOOD:
            chunk = b"e" * 65535 + b"\n"
            for _ in range(STDERR_FLOOD // len(chunk)):
                sys.stderr.buffer.write(chunk)
            sys.stderr.flush()
        if fault is Fault.PONDER:
            threading.Thread(target=_burn_forever, daemon=True).start()
        if fault is Fault.LONG_LINE_UNENDED:
            sys.stdout.write("1" * LONG_LINE)
            sys.stdout.flush()
            time.sleep(10**6)
        if fault is Fault.BINARY:
            sys.stdout.flush()
            sys.stdout.buffer.write(b"\xff\xfe junk\n")
            sys.stdout.buffer.flush()
            time.sleep(10**6)
        if fault is Fault.DEBUG_LINES:
            for i in range(20_000):
                print(f"debug {i} " + "x" * 40)
        if fault is Fault.DETACH_EXIT:
            self._spawn(detached=True)
            os._exit(0)
        if fault is Fault.KILL_PARENT:
            with contextlib.suppress(OSError):
                os.kill(os.getppid(), signal.SIGKILL)
        texts = {
            Fault.GARBAGE: "no move here \x1b[2J\x1b[31mYOU LOSE",
            Fault.EMPTY: "",
            Fault.LONG_LINE: "1" * LONG_LINE,
        }
        if fault in texts:
            self._replacement = texts[fault]
        elif fault is Fault.ILLEGAL:
            self._replacement = self.illegal_text(s)
            if self._replacement is None:
                # every well-formed move is legal here (a game of drops at its start):
                # the fault waits for a move where one is not
                self.ply += 1
        elif fault is Fault.TWO_MOVES:
            text = self.spec.contest.move_text(self._game_(), s, m, seat=self.seat)
            self._replacement = f"{text}\n{text}"
        return m

    def _game_(self) -> Game[S, M]:
        assert self._game is not None, "reset() first"
        return self._game

    def illegal_text(self, s: S) -> str | None:
        """A well-formed move text that is not legal in ``s``: a move of some position
        near ``s`` that the referee rejects as illegal; None where there is none (every
        column open in a game of drops)."""
        game, referee = self._game_(), self.spec.contest
        rng = random.Random(0)
        frontier = [s]
        for _ in range(200):
            position = rng.choice(frontier)
            for m in game.legal_moves(position):
                text = referee.move_text(game, position, m, seat=self.seat)
                try:
                    referee.judge(game, s, text, seat=self.seat)
                except IllegalMove:
                    return text
                except (NotationError, AgentFault):  # a wrong claim, not an illegal move
                    continue
            moves = game.legal_moves(position)
            if moves:
                frontier.append(game.apply(position, rng.choice(moves)))
        return None
