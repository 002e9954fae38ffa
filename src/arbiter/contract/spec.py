"""The typed contract every game meets, and the values the platform's layers pass
between them.

A game is a folder of modules: ``rules``, ``notation`` and ``evaluate``; ``contest``
(the contest's rulings: how a program's reply is judged, its clock and how its
programs are watched); ``player`` (the program's side of the contest's protocol,
which ``arbiter agent`` runs) and ``referee`` (the referee's side: the seat that runs
a program through that protocol). :class:`GameSpec` holds them together with what
the platform needs to know of the contest: its title, seat names, rule options,
default time control, supervision and score. The modules themselves are the
implementations (a module satisfies a ``typing.Protocol`` by its functions), so
``mypy --strict`` rejects a game whose module misses or misspells a function or gets
a signature wrong. A spec loads its player and referee sides only when they are
used: a contest program imports no referee, and a referee no program's side.

Every function that turns text into a move, or a move into text, takes ``seat``
keyword-only: some contests number the board from each player's own side (Chinese
checkers), and the seat says whose numbering the text is in. Internal moves and
positions, and records, are always absolute (the first player's numbering).

This module sits just above the base (:mod:`arbiter.game`, :mod:`arbiter.clock`,
:mod:`arbiter.errors`): every layer above may use it, and it uses none of them.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TextIO, TypeVar

from arbiter.clock import Clock, TimeControl
from arbiter.contract.agent import Agent
from arbiter.contract.programs import (
    Program,
    Seat,
    Supervision,
)
from arbiter.errors import ConfigError
from arbiter.game import Game, Outcome, Player, RuleEnd

if TYPE_CHECKING:  # the board and the encoding: the web app's and the environments' only
    from arbiter.contract.layout import BoardView
    from arbiter.contract.learning import Encoding, EncodingOf

S = TypeVar("S")
M = TypeVar("M", bound=Hashable)
S_in = TypeVar("S_in", contravariant=True)
M_in = TypeVar("M_in", bound=Hashable, contravariant=True)


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
    clock (``None``: the contest's, or the one the checker was given), the ply at which
    the game is stopped (``None``: played to the end), the opponent's steering
    (``None``: random), and whether every core of the machine is kept busy meanwhile
    (``busy``: as on a contest's machine playing many games at once, where a program
    that keeps the wrong clock loses). A check from a prepared position gives the
    program the side to move there."""

    name: str
    about: str
    seat: Player
    start: str | None = None
    clock: str | None = None
    stop_at: int | None = None
    steer: Steer | None = None
    busy: bool = False


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


class Contest(Protocol[S, M]):
    """A contest's rulings: how the referee judges a program's reply, the reply a
    built-in engine writes, and the rulings that need a clock. Pure functions of the
    rules and the notation, used by both sides of the protocol.

    ``STARTS_ANYWHERE`` says whether a program can begin a game from any position:
    True where the contest gives a program the whole board with every move (checkers,
    Halma), False where a program keeps its own board from the game's start and no
    message could set another (Votey, Alquerque, Chinese checkers), so openings are
    for built-in engines only. ``TIME_CONTROL`` is the contest's clock, ``SUPERVISION``
    how it watches a program.
    """

    STARTS_ANYWHERE: bool
    TIME_CONTROL: TimeControl
    SUPERVISION: Supervision

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


class PlayerSide(Protocol[S, M]):
    """The program's side of a contest's protocol: a built-in engine playing one game
    as a contest program (``arbiter agent``)."""

    def serve(
        self, agent: Agent[S, M], game: Game[S, M], args: Sequence[str], run: AgentRun
    ) -> int:
        """Plays one game as a contest program; ``args`` are the program's arguments.

        Returns the exit status.

        :raises ConfigError: if ``args`` are not what the contest starts a program with.
        """
        ...


class RefereeSide(Protocol[S_in, M_in]):
    """The referee's side of a contest's protocol: the seat that runs a program."""

    def program_seat(self, program: Program, *, supervision: Supervision) -> Seat[S_in, M_in]:
        """Returns the referee's seat that runs ``program`` through this protocol."""
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

    def check(self, value: object, label: str | None = None) -> OptionValue:
        """Returns ``value`` as this option's type; ``label`` is how the option is
        named in a refusal (``option 'max_plies'`` unless given, e.g. ``--max-plies``).

        :raises ConfigError: naming the option, if it is of another type or too small.
        """
        label = label or f"option {self.name!r}"
        if self.type is bool:
            if not isinstance(value, bool):
                raise ConfigError(f"{label} must be true or false, not {value!r}")
            return value
        kind = {int: "a whole number", float: "a number", str: "text"}[self.type]
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise ConfigError(f"{label} must be {kind}, not {value!r}")
        try:
            converted = self.type(value)
        except (ValueError, OverflowError):
            raise ConfigError(f"{label} must be {kind}, not {value!r}") from None
        if self.type is int and converted != value:
            raise ConfigError(f"{label} must be a whole number, not {value!r}")
        if self.minimum is not None and not isinstance(converted, str) and converted < self.minimum:
            raise ConfigError(f"{label} must be at least {self.minimum:g}")
        return converted


MAX_PLIES = RuleOption(
    "max_plies", int, 1000, "ply cap at which the game ends (default 1000)", minimum=1
)
"""The ply cap every game has (RULES.md: 1000 unless the organiser sets another)."""


@dataclass(frozen=True, slots=True)
class Loader:
    """A part of a game that only some commands use (a side of its protocol, its board,
    its probes): the module, or the module's attribute ``name``, imported when first
    called. A value, so a spec holding it can still be sent to another process.

    >>> Loader("arbiter.games.votey.board", "VIEW")().layout.game
    'votey'
    """

    module: str
    name: str | None = None

    def __call__(self) -> Any:
        found = importlib.import_module(self.module)
        return found if self.name is None else getattr(found, self.name)


Probes = Callable[["GameSpec[Any, Any]"], list[Check]]
"""A game's check-agent probes: the checks made for its spec beyond whole games."""


@dataclass(frozen=True)
class GameSpec(Generic[S, M]):
    """Everything the platform knows of one contest game.

    ``rules`` builds the rules engine from keyword options, each one of ``options``.
    ``player_side`` and ``referee_side`` load the two sides of the contest's protocol
    when first used (see the module docstring), and ``board`` its board in the browser.
    ``openings`` is the file of the opening set the game ships (most balanced by the
    built-in search, made by ``scripts/make_openings.py``), ``opening_plies`` how
    many random plies an opening of it plays. ``probes`` are what ``arbiter
    check-agent`` exercises in the game beyond whole games (:mod:`arbiter.contract.probes`).
    ``position_file`` reads the contest's own file of a position to answer (Halma's
    ``input.txt``): the position and the seconds it gives, ``None`` for another text.
    ``kits`` is the folder of its starter kits, one folder per language, each a
    minimal legal player a contest server offers its entrants. ``guide`` is its rules
    and protocol written for contestants (Markdown, in the contest's own terms, with
    the exact move syntax and an example dialogue), which a contest's page shows.
    ``endings`` are the ways to end its rules name beside the platform's reasons
    (:class:`~arbiter.game.RuleEnd`); its outcomes use no other. ``encoding`` is its
    own encoding for learning (:mod:`arbiter.contract.learning`), where it has one.

    :raises ConfigError: if two endings share a name.
    """

    name: str
    title: str
    seat_names: tuple[str, str]
    rules: Callable[..., Game[S, M]]
    notation: Notation[S, M]
    contest: Contest[S, M]
    evaluation: Evaluation[S, M]
    time_control: TimeControl
    supervision: Supervision
    player_side: Callable[[], PlayerSide[S, M]]
    referee_side: Callable[[], RefereeSide[S, M]]
    options: tuple[RuleOption, ...] = (MAX_PLIES,)
    score: ContestScore[S, M] = field(default=win_draw_loss)
    board: Callable[[], BoardView[S]] | None = None
    probes: Callable[[], Probes] | None = None
    position_file: Callable[[str], tuple[S, float] | None] | None = None
    openings: Path | None = None
    opening_plies: int = 6
    kits: Path | None = None
    guide: Path | None = None
    endings: tuple[RuleEnd, ...] = ()
    encoding: Callable[[], EncodingOf[S, M]] | None = None

    def __post_init__(self) -> None:
        names = [e.name for e in self.endings]
        if len(set(names)) != len(names):
            raise ConfigError(f"{self.name}: two of its endings share a name ({names})")

    @classmethod
    def of_folder(
        cls,
        package: str,
        *,
        name: str,
        title: str,
        seat_names: tuple[str, str],
        rules: Callable[..., Game[S, M]],
        notation: Notation[S, M],
        contest: Contest[S, M],
        evaluation: Evaluation[S, M],
        options: tuple[RuleOption, ...] = (MAX_PLIES,),
        score: ContestScore[S, M] = win_draw_loss,
        position_file: Callable[[str], tuple[S, float] | None] | None = None,
        opening_plies: int = 6,
        endings: tuple[RuleEnd, ...] = (),
    ) -> GameSpec[S, M]:
        """The spec of the game whose folder is the package ``package`` (a game's
        ``__init__`` passes its ``__name__``), laid out as arbiter's games are: its
        ``player`` and ``referee`` modules, and where the folder has them a ``board``
        module (its ``VIEW``), an ``encoding`` module (its ``encoding``), a ``probes``
        module (its ``probes``), ``openings.txt``,
        ``kits/`` and ``contestants.md`` (its :attr:`guide`); the clock and
        supervision are the contest's own.

        :raises ConfigError: if ``package`` cannot be found.
        """
        found = importlib.util.find_spec(package)
        if found is None or not found.submodule_search_locations:
            raise ConfigError(f"no game package {package!r}")
        folder = Path(next(iter(found.submodule_search_locations)))
        has = {p.stem for p in folder.glob("*.py")}
        return cls(
            name=name,
            title=title,
            seat_names=seat_names,
            rules=rules,
            notation=notation,
            contest=contest,
            evaluation=evaluation,
            time_control=contest.TIME_CONTROL,
            supervision=contest.SUPERVISION,
            player_side=Loader(f"{package}.player"),
            referee_side=Loader(f"{package}.referee"),
            options=options,
            score=score,
            board=Loader(f"{package}.board", "VIEW") if "board" in has else None,
            encoding=Loader(f"{package}.encoding", "encoding") if "encoding" in has else None,
            probes=Loader(f"{package}.probes", "probes") if "probes" in has else None,
            position_file=position_file,
            openings=folder / "openings.txt" if (folder / "openings.txt").is_file() else None,
            opening_plies=opening_plies,
            kits=folder / "kits" if (folder / "kits").is_dir() else None,
            guide=folder / "contestants.md" if (folder / "contestants.md").is_file() else None,
            endings=endings,
        )

    def declared(self, outcome: Outcome) -> Outcome:
        """``outcome`` with its ending as this game declares it, text and all (a
        record read back knows only an ending's name); the platform's reasons and
        endings the game does not declare are kept as they are."""
        for ending in self.endings:
            if ending == outcome.reason:
                return Outcome(outcome.winner, ending, outcome.detail)
        return outcome

    def probe_checks(self) -> list[Check]:
        """What ``arbiter check-agent`` exercises in this game beyond whole games (its
        ``probes``; none for a game without them)."""
        return [] if self.probes is None else self.probes()(self)

    def board_view(self) -> BoardView[S]:
        """The game's board in the browser (its ``board`` module, loaded when asked).

        :raises ConfigError: if the game has no board for the browser.
        """
        if self.board is None:
            raise ConfigError(f"{self.name} has no board for the browser")
        return self.board()

    def own_encoding(self, rules: Game[S, M]) -> Encoding[S, M] | None:
        """The game's own encoding for learning with ``rules`` (its ``encoding``
        module, loaded when asked), or None: the environments then use its board's."""
        return None if self.encoding is None else self.encoding()(rules)

    def serve(
        self, agent: Agent[S, M], game: Game[S, M], args: Sequence[str], run: AgentRun
    ) -> int:
        """Plays one game of ``agent`` as a contest program (:meth:`PlayerSide.serve`).

        :raises ConfigError: if ``args`` are not what the contest starts a program with.
        """
        return self.player_side().serve(agent, game, args, run)

    def program_seat(self, program: Program, *, supervision: Supervision) -> Seat[S, M]:
        """Returns the referee's seat that runs ``program`` through the contest's
        protocol (:meth:`RefereeSide.program_seat`)."""
        return self.referee_side().program_seat(program, supervision=supervision)

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
