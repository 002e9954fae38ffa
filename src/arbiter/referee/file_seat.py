"""A contest program run once per move, reading an input file and writing an output file
(the Halma contest's shape).

:class:`FileSeat` runs the program through a
:class:`~arbiter.referee.filerun.FileRunner` in the program's own working
directory: before each game it clears the files the program keeps, for each move
it writes the input file the contest defines, runs the program, charges it (CPU
of its whole tree, or wall time) and reads the output file. The program is not
running between its moves, so there is nothing to suspend. A contest's
``referee.py`` subclasses it for the files' contents: :meth:`input_text` and
:meth:`reply_text`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, TypeVar

from arbiter.clock import Clock
from arbiter.contract import Program, Reply, Supervision
from arbiter.errors import AgentFault, Crash, Malformed
from arbiter.game import Outcome, Player
from arbiter.referee.box import Box
from arbiter.referee.filerun import FileRunner
from arbiter.referee.supervision import (
    confinement,
    make_box,
    program_argv,
    program_environment,
)
from arbiter.referee.transcript import Transcript

if TYPE_CHECKING:
    from arbiter.contract import GameSpec

S = TypeVar("S")
M = TypeVar("M")


class FileSeat(Generic[S, M]):
    """The referee's seat for a program run once per move; see the module docstring.

    The program runs in a box of its own for each game (:mod:`arbiter.referee.box`):
    a fresh work directory, a copy of ``program.cwd`` when it has one, removed when
    the game ends, so games played at once never share files.
    """

    input_name = "input.txt"
    output_name = "output.txt"
    scratch: tuple[str, ...] = ("playdata.txt",)

    def __init__(self, program: Program, *, supervision: Supervision | None = None) -> None:
        self.program = program
        self.name = program.label
        self.supervision = supervision or Supervision()
        self.seat: Player = 0
        self.transcript: Transcript | None = None
        self._replies = 0
        self.box: Box | None = None
        self._runner: FileRunner | None = None

    @property
    def runner(self) -> FileRunner:
        """The runner of this game's program (once started)."""
        assert self._runner is not None, "start() first"
        return self._runner

    # -- what a contest's protocol supplies ------------------------------------

    def input_text(self, s: S, clock: Clock) -> str:
        """The input file's contents for a move in ``s``."""
        raise NotImplementedError

    def reply_text(self, output: str) -> str:
        """The move text in the output file's contents (by default all of it).

        :raises Malformed: if the file's form is wrong.
        """
        return output

    # -- the seat --------------------------------------------------------------

    async def start(self, seat: Player, clock: Clock) -> None:
        self.seat = seat
        sup = self.supervision
        argv = program_argv(self.program)
        self.box = box = make_box(sup, self.program, argv)
        self._runner = FileRunner(
            argv,
            box.path,
            name=self.name,
            input_name=self.input_name,
            output_name=self.output_name,
            scratch=self.scratch,
            env=program_environment(box.path, sup.pass_env, box.folders),
            confinement=confinement(sup),
            box=box,
        )
        self.runner.new_game()
        if self.supervision.log_dir is not None:
            self.transcript = Transcript(self.supervision.log_dir, seat, self.name)
            self.transcript.open(f"run once per move in {self.runner.workdir}")
            self.runner.on_stderr = self.transcript.stderr

    async def ask(self, s: S, clock: Clock) -> Reply:
        kill_at = clock.kill_at(self.seat)
        given = self.input_text(s, clock)
        if self.transcript is not None:
            self.transcript.sent(f"{self.input_name}:\n{given}")
        try:
            return await self._run(given, kill_at)
        except AgentFault as e:
            if self.transcript is not None:
                self.transcript.fault(e)
            raise

    async def _run(self, given: str, kill_at: float | None) -> Reply:
        sup = self.supervision
        result = await self.runner.run(
            given,
            charging=sup.charging,
            kill_at=kill_at,
            wall_limit=sup.wall_limit(kill_at),
            memory_limit=sup.memory_limit,
        )
        if result.output is None:
            why = f"wrote no {self.output_name}"
            if result.exit_code:
                how = (
                    f"killed by signal {-result.exit_code}"
                    if result.exit_code < 0
                    else f"exited with code {result.exit_code}"
                )
                raise Crash(f"{how}, and {why}", who=self.name)
            raise Malformed(why, who=self.name)
        if self.transcript is not None:
            self.transcript.received(
                f"{self.output_name} ({result.seconds:.3f}s):\n{result.output}"
            )
        reply = Reply(self.reply_text(result.output), result.seconds)
        self._replies += 1
        if self.transcript is not None:
            self.transcript.replied(self._replies, result.seconds)
        return reply

    async def tell(self, before: S, move: M, after: S) -> None:
        pass  # the next input file says it all

    async def rewind(self, s: S) -> bool:
        return False

    async def stop(self, outcome: Outcome) -> None:
        if self.transcript is not None:
            self.transcript.finish(outcome)
            self.transcript.close()
            self.transcript = None
        if self._runner is not None:
            self._runner.on_stderr = None
        if self.box is not None:
            self.box.close()
            self.box = None


def runs_once_per_move(spec: GameSpec[Any, Any]) -> bool:
    """True when ``spec``'s contest runs its programs once per move (they do not run
    between their moves, so there is nothing to suspend and no opponent's time to
    think on)."""
    seat = spec.program_seat(Program(("true",), "."), supervision=spec.supervision)
    return isinstance(seat, FileSeat)
