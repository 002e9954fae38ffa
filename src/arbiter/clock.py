"""Time controls: a one-line spec (:class:`TimeControl`) and the running state (:class:`Clock`).

What counts as time used (CPU of an agent's process tree, or wall time) is the
contest's choice, made in its ``contest.py``; the clock only does the arithmetic.

Text forms (space-separated parts; ``str`` round-trips with ``parse``):

- ``inf``: no limit;
- ``st=60``: 60 seconds for every move (the Votey and checkers contests);
- ``40/120+1``, ``2:30+5``, ``300``: moves per period / base time + increment;
- optional ``ot=1``: once the base time is spent, every further move within 1 s
  (the Chinese checkers mediator);
- optional ``margin=0.2``: grace before a flag falls;
- optional ``kill=10``: a program past its allowance has lost on time, but is
  killed only this many seconds later (the Halma sheet: killed at remaining + 10 s).

>>> str(TimeControl.parse("st=60"))
'st=60'
>>> str(TimeControl.parse("2:30+5 margin=0.5"))
'150+5 margin=0.5'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal
from enum import StrEnum
from typing import Self

from arbiter.errors import ConfigError, Timeout
from arbiter.game import Player


class Charging(StrEnum):
    """What a move costs on the clock: ``CPU`` time of the program's whole process tree
    since its previous reply, or ``WALL`` time from the referee's message to the reply
    (CodeCup's jury). The contest chooses; the clock only does the arithmetic."""

    CPU = "cpu"
    WALL = "wall"


STARVED_MARGIN = 1.0
"""Seconds an engine keeps between the end of its search and the referee's wall stop
(:meth:`Limit.answer_by`): on a 2-core machine with twenty busy processes its thread
gets a twentieth of a core, and turning a move into its reply takes a few
milliseconds of CPU."""


@dataclass(frozen=True, slots=True)
class Limit:
    """What an agent may spend on one move (python-chess ``Limit``).

    ``time`` is a fixed budget for this move; the clock fields describe a whole-game
    clock when the contest has one (``moves_left`` 0: no moves until a new period,
    the agent estimates how many remain). ``wall`` says the contest charges wall
    time, so a search measures its budget on the wall clock rather than in CPU time
    (on a busy machine the two differ). ``wall_stop`` is the wall time, from now, at
    which the referee stops the move whatever it is charged (its backstop under CPU
    charging, the allowance under wall charging), so an engine whose thread is
    starved of CPU still answers in time (:meth:`answer_by`). All times are seconds.
    """

    time: float | None = None
    depth: int | None = None
    nodes: int | None = None
    my_clock: float | None = None
    increment: float = 0.0
    moves_left: int = 0
    wall: bool = False
    wall_stop: float | None = None

    def answer_by(self) -> float | None:
        """The wall seconds, from now, by which an engine must stop searching to be
        sure its reply reaches the referee before :attr:`wall_stop`: a second earlier
        (what a thread starved on a busy machine needs to unwind and reply), or half
        of it when it is under two seconds; ``None`` without a stop.

        >>> Limit(wall_stop=7.0).answer_by(), Limit(wall_stop=1.2).answer_by()
        (6.0, 0.6)
        """
        if self.wall_stop is None:
            return None
        return max(self.wall_stop - STARVED_MARGIN, self.wall_stop / 2)

    def budget(self, moves_to_go: int = 30) -> float | None:
        """Returns the seconds to aim for on this move, or ``None`` for no time limit.

        On a clock, the time left is shared over ``moves_left`` moves, or over
        ``moves_to_go`` (the agent's estimate of the moves still to play) in sudden
        death, with 80% of the increment; never more than half of the time left goes
        on one move before the increment, nor more than 80% of it with the increment.

        >>> Limit(time=2.0).budget()
        2.0
        >>> Limit(my_clock=60.0, moves_left=10).budget()
        6.0
        >>> Limit(my_clock=30.0).budget(moves_to_go=1)
        15.0
        """
        if self.time is not None:
            return self.time
        if self.my_clock is None:
            return None
        clock = max(0.0, self.my_clock)
        moves = max(1, self.moves_left or moves_to_go)
        return min(min(clock / moves, clock / 2) + self.increment * 0.8, clock * 0.8)


def _seconds(text: str, whole: str) -> float:
    """Parses ``90``, ``1.5`` or ``2:30`` as seconds; ConfigError naming ``whole`` otherwise."""
    try:
        if ":" in text:
            minutes, secs = text.split(":", 1)
            if not minutes.isdigit() or not 0 <= float(secs) < 60 or secs.startswith(("-", "+")):
                raise ValueError(text)
            value = 60 * int(minutes) + float(secs)
        else:
            value = float(text)
    except ValueError:
        raise ConfigError(f"invalid time control {whole!r}: {text!r} is not a time") from None
    if value < 0 or value != value or value == float("inf"):
        raise ConfigError(f"invalid time control {whole!r}: {text!r} is not a finite time >= 0")
    return value


def _num(x: float) -> str:
    """Seconds in plain decimals, never an exponent (``1e+06`` would not parse back).

    >>> _num(1000000.0), _num(1.5), _num(1e-07)
    ('1000000', '1.5', '0.0000001')
    """
    text = format(Decimal(repr(float(x))), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


_EXTRAS = {"ot": "overtime_per_move", "margin": "margin", "kill": "kill_after"}


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A time control as specified before the game (cutechess format, seconds as floats)."""

    base: float | None = None
    increment: float = 0.0
    moves_per_period: int = 0
    per_move: float | None = None
    overtime_per_move: float | None = None
    margin: float = 0.0
    kill_after: float = 0.0

    @classmethod
    def parse(cls, text: str) -> Self:
        """Parses the text form.

        :raises ConfigError: naming the text, if it is not a time control.
        """
        parts = text.split()
        if not parts:
            raise ConfigError(f"invalid time control {text!r}: empty")
        head, extras = parts[0], parts[1:]
        fields: dict[str, float | int | None] = {}
        if head == "inf":
            pass
        elif head.startswith("st="):
            fields["per_move"] = _seconds(head[3:], text)
        else:
            rest = head
            if rest.endswith(("/", "+")):
                raise ConfigError(
                    f"invalid time control {text!r}: nothing after {rest[-1]!r} "
                    "(as in 40/300, 300+2 or 40/300+2)"
                )
            if "/" in rest:
                moves, rest = rest.split("/", 1)
                if not moves.isdigit() or int(moves) == 0:
                    raise ConfigError(f"invalid time control {text!r}: bad move count {moves!r}")
                fields["moves_per_period"] = int(moves)
            if "+" in rest:
                rest, inc = rest.split("+", 1)
                fields["increment"] = _seconds(inc, text)
            fields["base"] = _seconds(rest, text)
        for extra in extras:
            key, eq, value = extra.partition("=")
            if not eq or key not in _EXTRAS:
                raise ConfigError(
                    f"invalid time control {text!r}: unknown part {extra!r} "
                    "(expected ot=SECONDS, margin=SECONDS or kill=SECONDS)"
                )
            fields[_EXTRAS[key]] = _seconds(value, text)
        tc = cls(**fields)  # type: ignore[arg-type]
        if tc.per_move == 0 or (tc.base == 0 and not tc.increment and not tc.overtime_per_move):
            raise ConfigError(f"invalid time control {text!r}: it leaves no time to move")
        if tc.overtime_per_move == 0:
            raise ConfigError(f"invalid time control {text!r}: overtime of 0 s per move")
        return tc

    @classmethod
    def per_move_seconds(cls, seconds: float, margin: float = 0.0) -> Self:
        """Returns a fixed per-move control, e.g. the Votey contest's 60 s CPU per move."""
        return cls(per_move=seconds, margin=margin)

    def __str__(self) -> str:
        if self.per_move is not None:
            head = f"st={_num(self.per_move)}"
        elif self.base is None:
            head = "inf"
        else:
            head = _num(self.base)
            if self.moves_per_period:
                head = f"{self.moves_per_period}/{head}"
            if self.increment:
                head += f"+{_num(self.increment)}"
        parts = [head]
        if self.overtime_per_move is not None:
            parts.append(f"ot={_num(self.overtime_per_move)}")
        if self.margin:
            parts.append(f"margin={_num(self.margin)}")
        if self.kill_after:
            parts.append(f"kill={_num(self.kill_after)}")
        return " ".join(parts)

    def describe(self) -> str:
        """Returns the control in words, e.g. ``60 s per move``.

        >>> TimeControl.parse("300 ot=1").describe()
        '300 s per game, then 1 s per move'
        """
        if self.per_move is not None:
            return f"{_num(self.per_move)} s per move"
        if self.base is None:
            return "no time limit"
        words = f"{_num(self.base)} s per game"
        if self.moves_per_period:
            words = f"{_num(self.base)} s per {self.moves_per_period} moves"
        if self.increment:
            words += f" + {_num(self.increment)} s per move"
        if self.overtime_per_move is not None:
            words += f", then {_num(self.overtime_per_move)} s per move"
        return words


@dataclass(frozen=True, slots=True)
class Clock:
    """The running clocks of every seat; ``charge`` returns a new Clock. A seat in
    ``untimed`` plays without a clock (a person against a contest's program: the
    contest's clock is made for programs, and Alquerque's 30 s a game is none for a
    person clicking moves)."""

    tc: TimeControl
    remaining: tuple[float, ...]
    moves_left: tuple[int, ...]
    untimed: frozenset[int] = frozenset()

    @classmethod
    def start(cls, tc: TimeControl, n: int = 2, untimed: frozenset[int] = frozenset()) -> Self:
        """Returns the clocks at the start of a game for ``n`` seats, those in
        ``untimed`` without a limit.

        :raises ValueError: for an untimed seat that is not one of the ``n``.
        """
        if not untimed <= set(range(n)):
            raise ValueError(f"untimed seats {sorted(untimed)} are not among {n} seats")
        first = tc.per_move if tc.per_move is not None else tc.base
        remaining = float("inf") if first is None else first
        clocks = tuple(float("inf") if p in untimed else remaining for p in range(n))
        return cls(tc, clocks, (tc.moves_per_period,) * n, untimed)

    def in_overtime(self, p: Player) -> bool:
        """True when seat ``p`` has spent its base time and plays on per-move overtime."""
        return (
            self.tc.overtime_per_move is not None
            and self.tc.per_move is None
            and self.remaining[p] <= 0
        )

    def base_spent(self, p: Player, using: float = 0.0) -> bool:
        """True when seat ``p``'s base time is used up, counting ``using`` seconds of
        the move in progress (a move that crosses into overtime is judged as one made
        in it); never for a per-move clock or no clock."""
        return self.tc.per_move is None and self.tc.base is not None and self.remaining[p] <= using

    def allowance(self, p: Player) -> float | None:
        """Returns the most seconds seat ``p`` may use on its next move (margin included)."""
        tc = self.tc
        if (tc.per_move is None and tc.base is None) or p in self.untimed:
            return None
        if self.in_overtime(p):
            assert tc.overtime_per_move is not None
            return tc.overtime_per_move + tc.margin
        extra = tc.overtime_per_move or 0.0
        return max(0.0, self.remaining[p]) + extra + tc.margin

    def kill_at(self, p: Player) -> float | None:
        """Returns the charged seconds at which seat ``p``'s program is stopped: its
        allowance plus the time control's ``kill_after``."""
        allowed = self.allowance(p)
        return None if allowed is None else allowed + self.tc.kill_after

    def charge(self, p: Player, used: float) -> Self:
        """Returns the clocks after seat ``p`` used ``used`` seconds on a move.

        :raises Timeout: if ``used`` exceeds what the clock allowed (the flag falls).
        """
        allowed = self.allowance(p)
        if allowed is not None and used > allowed:
            raise Timeout(f"{used:.2f}s > {allowed:.2f}s", who=f"seat {p}")
        return self.spend(p, used)

    def spend(self, p: Player, used: float) -> Self:
        """Returns the clocks after seat ``p`` used ``used`` seconds, without judging it
        (an agent keeping its own clock)."""
        tc = self.tc
        if tc.per_move is not None or tc.base is None or p in self.untimed:
            return self
        remaining = list(self.remaining)
        moves_left = list(self.moves_left)
        # a seat already out of base time (in overtime, or within the margin) stays at 0
        left = remaining[p] - used + tc.increment if remaining[p] > 0 else 0.0
        remaining[p] = max(left, 0.0) if tc.overtime_per_move is not None else left
        if tc.moves_per_period:
            moves_left[p] -= 1
            if moves_left[p] == 0:
                moves_left[p] = tc.moves_per_period
                remaining[p] += tc.base
        return replace(self, remaining=tuple(remaining), moves_left=tuple(moves_left))

    def limit_for(self, p: Player) -> Limit:
        """Returns what seat ``p`` is told it may spend on its next move."""
        tc = self.tc
        if p in self.untimed:
            return Limit()
        if tc.per_move is not None:
            return Limit(time=tc.per_move)
        if tc.base is None:
            return Limit()
        if self.in_overtime(p):
            return Limit(time=tc.overtime_per_move)
        return Limit(
            my_clock=self.remaining[p],
            increment=tc.increment,
            moves_left=self.moves_left[p],
        )
