"""The typed contract every game meets: its notation, its contest protocol, its evaluation.

A game is four modules (``rules``, ``notation``, ``protocol``, ``evaluate``); the last
three are checked against the protocols below, and :class:`GameSpec` holds them
together with what the platform needs to know of the contest: its title, seat
names, rule options, default time control, how programs are watched, and its score.
The modules themselves are the implementations (a module satisfies a
``typing.Protocol`` by its functions), so ``mypy --strict`` rejects a game whose
module misses or misspells a function or gets a signature wrong.

Every function that turns text into a move, or a move into text, takes ``seat``
keyword-only: some contests number the board from each player's own side (Chinese
checkers), and the seat says whose numbering the text is in. Internal moves and
positions, and records, are always absolute (the first player's numbering).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, Protocol, TextIO, TypeVar

from arbiter.clock import Clock, TimeControl
from arbiter.errors import ConfigError
from arbiter.game import Game, Outcome, Player

if TYPE_CHECKING:
    from arbiter.agents.base import Agent
    from arbiter.referee.seat import Program, Seat
    from arbiter.referee.supervision import Supervision

S = TypeVar("S")
M = TypeVar("M", bound=Hashable)
S_in = TypeVar("S_in", contravariant=True)


class Notation(Protocol[S, M]):
    """A game's texts: moves in the contest's notation, positions, a board drawing."""

    def parse_move(self, text: str, *, seat: Player) -> M:
        """Parses a move written from ``seat``'s side, without a position.

        :raises NotationError: naming the text, if it is not a move.
        """
        ...

    def resolve_move(self, text: str, s: S, *, seat: Player) -> M:
        """Parses a move written from ``seat``'s side and finds it among ``s``'s legal moves.

        :raises NotationError: if the text is not a move.
        :raises IllegalMove: if it is not legal in ``s`` (the message says why).
        """
        ...

    def format_move(self, m: M, *, seat: Player) -> str:
        """Returns the contest text of ``m`` as ``seat`` writes it."""
        ...

    def parse_position(self, text: str) -> S:
        """Parses a one-line position text.

        :raises NotationError: naming the text, if it is not a position.
        """
        ...

    def format_position(self, s: S) -> str:
        """Returns the one-line position text of ``s``."""
        ...

    def draw_board(self, s: S, last: M | None = None) -> str:
        """Returns the board as lines of text with the contest's coordinates."""
        ...

    def draw_numbers(self, *, seat: Player) -> str:
        """Returns the board laid out as :meth:`draw_board` draws it, each point labelled
        with the name ``seat`` gives it in moves (for a person learning the notation)."""
        ...


class Evaluation(Protocol[S_in, M]):
    """What a search needs to know of a game beyond its rules."""

    def evaluate(self, s: S_in) -> int:
        """Scores ``s`` for the side to move (higher is better)."""
        ...

    def order_hint(self, s: S_in, m: M) -> int:
        """Ranks ``m`` among the moves of ``s`` for search ordering (higher first)."""
        ...

    def noisy_moves(self, s: S_in) -> Sequence[M]:
        """The forced moves of ``s`` a quiescence search plays out (empty: none)."""
        ...

    def draw_value(self, s: S_in) -> int:
        """What a drawn end in ``s`` is worth to the side to move, on the evaluation's
        scale: 0 where a draw is a draw, more where the contest scores ties by the
        position (CodeCup's 7 minus the opponent's pieces)."""
        ...

    def moves_to_go(self, s: S_in) -> int:
        """Estimates how many more moves the side to move will make, to share a
        whole-game clock over the rest of the game (at least 1; bounded by the
        contest's own end where it has one, such as CodeCup's 100-move tie)."""
        ...


@dataclass(frozen=True, slots=True)
class AgentRun:
    """How a built-in engine runs as a contest program: its clock, seed and streams.
    Every protocol's ``serve`` writes its replies through :meth:`reply`."""

    time_control: TimeControl
    stdin: TextIO
    stdout: TextIO
    stderr: TextIO
    seed: int = 0
    verbose: bool = False
    reply_filter: Callable[[str], str] | None = None

    def reply(self, text: str) -> str:
        """The reply to write for the move text ``text`` (the filter's, if any: a
        faulty engine's garbage)."""
        return text if self.reply_filter is None else self.reply_filter(text)


class RefereeProtocol(Protocol[S, M]):
    """Both sides of a contest's protocol, and the contest's rulings that need a clock.

    ``STARTS_ANYWHERE`` says whether a program can begin a game from any position:
    True where the contest gives a program the whole board with every move (checkers,
    Halma), False where a program keeps its own board from the game's start and no
    message could set another (Votey, Alquerque, Chinese checkers), so openings are
    for built-in engines only.
    """

    STARTS_ANYWHERE: bool

    def judge(self, game: Game[S, M], s: S, text: str, *, seat: Player) -> M:
        """Returns the move a program's reply ``text`` makes in ``s``, judged as the
        contest's referee judges it (including any claim the text makes).

        :raises NotationError: if it is not a move.
        :raises IllegalMove: if it is not legal.
        :raises AgentFault: for a protocol offence (a false or missing win claim).
        """
        ...

    def move_text(self, game: Game[S, M], s: S, m: M, *, seat: Player) -> str:
        """Returns the reply a program at ``seat`` writes for ``m`` in ``s``."""
        ...

    def program_seat(self, program: Program, *, supervision: Supervision) -> Seat[S, M]:
        """Returns the referee's seat that runs ``program`` through this protocol."""
        ...

    def serve(
        self, agent: Agent[S, M], game: Game[S, M], args: Sequence[str], run: AgentRun
    ) -> int:
        """Plays one game as a contest program; ``args`` are the program's arguments.

        Returns the exit status.

        :raises ConfigError: if ``args`` are not what the contest starts a program with.
        """
        ...

    def adjudicate(
        self, game: Game[S, M], s: S, clock: Clock, ended: Outcome | None
    ) -> Outcome | None:
        """The contest's rulings that depend on the clock.

        Called after every move and when the rules end the game (``ended``): returns
        the outcome that stands (``ended`` itself when nothing changes, or ``None``
        to play on). The rules engine never sees a clock.
        """
        ...

    def comply(self, game: Game[S, M], s: S, m: M, *, out_of_time: bool) -> M:
        """Returns the move a built-in engine plays instead of its choice ``m`` where a
        clock ruling of :meth:`adjudicate` would punish ``m`` and another move escapes
        it (Chinese checkers: no marble left at home once the time is spent), else
        ``m``. ``out_of_time``: the seat's base time is spent, this move included."""
        ...


ContestScore = Callable[[Game[S, M], S, Outcome], tuple[float, float]]
"""A contest's score of a finished game: points of seat 0 and seat 1."""


def win_draw_loss(game: Game[S, M], s: S, outcome: Outcome) -> tuple[float, float]:
    """The plain score: 1 for a win, 0.5 each for a draw.

    >>> from arbiter.errors import Reason
    >>> from arbiter.games.votey.rules import Votey
    >>> win_draw_loss(Votey(), Votey().initial(), Outcome(1, Reason.TIME))
    (0.0, 1.0)
    """
    return outcome.points(0), outcome.points(1)


def keep_move(game: Game[S, M], s: S, m: M, *, out_of_time: bool) -> M:
    """The compliance of a contest with no clock rulings: the engine's move stands."""
    return m


def keep_outcome(game: Game[S, M], s: S, clock: Clock, ended: Outcome | None) -> Outcome | None:
    """The adjudication of a contest with no clock rulings: the rules' outcome stands."""
    return ended


OptionValue = int | float | bool | str


@dataclass(frozen=True, slots=True)
class RuleOption:
    """One option of a game's rules: the command line offers ``--name-with-dashes``."""

    name: str
    type: type[int] | type[float] | type[bool] | type[str]
    default: OptionValue
    help: str
    minimum: float | None = None

    @property
    def flag(self) -> str:
        """The command-line flag, e.g. ``--max-plies``."""
        return "--" + self.name.replace("_", "-")

    def check(self, value: object) -> OptionValue:
        """Returns ``value`` as this option's type.

        :raises ConfigError: naming the option, if it is of another type or too small.
        """
        if self.type is bool:
            if not isinstance(value, bool):
                raise ConfigError(f"option {self.name!r} must be true or false, not {value!r}")
            return value
        kind = {int: "a whole number", float: "a number", str: "text"}[self.type]
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise ConfigError(f"option {self.name!r} must be {kind}, not {value!r}")
        try:
            converted = self.type(value)
        except (ValueError, OverflowError):
            raise ConfigError(f"option {self.name!r} must be {kind}, not {value!r}") from None
        if self.type is int and converted != value:
            raise ConfigError(f"option {self.name!r} must be a whole number, not {value!r}")
        if self.minimum is not None and not isinstance(converted, str) and converted < self.minimum:
            raise ConfigError(f"option {self.name!r} must be at least {self.minimum:g}")
        return converted


MAX_PLIES = RuleOption(
    "max_plies", int, 1000, "ply cap at which the game ends (default 1000)", minimum=1
)
"""The ply cap every game has (RULES.md: 1000 unless the organiser sets another)."""


@dataclass(frozen=True)
class GameSpec(Generic[S, M]):
    """Everything the platform knows of one contest game.

    ``rules`` builds the rules engine from keyword options, each one of ``options``.
    """

    name: str
    title: str
    seat_names: tuple[str, str]
    rules: Callable[..., Game[S, M]]
    notation: Notation[S, M]
    referee: RefereeProtocol[S, M]
    evaluation: Evaluation[S, M]
    time_control: TimeControl
    supervision: Supervision
    options: tuple[RuleOption, ...] = (MAX_PLIES,)
    score: ContestScore[S, M] = field(default=win_draw_loss)

    def make(self, options: Mapping[str, object] | None = None) -> Game[S, M]:
        """Returns the rules engine with ``options`` (the defaults for those not given).

        :raises ConfigError: for an option this game does not have or a bad value.
        """
        known = {o.name: o for o in self.options}
        values: dict[str, OptionValue] = {}
        for name, value in (options or {}).items():
            if name not in known:
                names = ", ".join(known) or "none"
                raise ConfigError(f"{self.name} has no rule option {name!r} (it has: {names})")
            values[name] = known[name].check(value)
        return self.rules(**values)

    def seat_by_name(self, text: str) -> Player:
        """Returns the seat called ``text`` (a seat name, or ``1``/``2``).

        :raises ConfigError: naming the text and the seat names.
        """
        key = text.strip().lower()
        for i, name in enumerate(self.seat_names):
            if key in (name, str(i + 1)):
                return i
        raise ConfigError(f"unknown side {text!r}: expected {' or '.join(self.seat_names)}")
