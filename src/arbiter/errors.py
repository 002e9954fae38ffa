"""The whole exception hierarchy of arbiter, in one place.

Inside the library, failures are exceptions; at the referee boundary they become
an :class:`~arbiter.game.Outcome` (see :func:`arbiter.referee.match.forfeit`).
Every message names the bad input with ``!r`` and its context, so the command
line can print it as one line.

Rules errors subclass :class:`ValueError`, as python-chess does, so a caller may
catch broadly (``except ValueError``) or narrowly.
"""

from __future__ import annotations

from enum import StrEnum


class Reason(StrEnum):
    """Every way a game can end: by the rules, or by the referee's judgement."""

    # decided by the rules
    CONNECTED = "connected"
    NO_MOVES = "no moves"
    ALL_HOME = "all pieces home"
    BOTH_HOME = "both home"
    NO_PIECES = "no pieces"
    MOVE_LIMIT = "move limit"
    REPETITION = "repetition"
    NO_PROGRESS = "no progress"
    TIME_LEFT = "more time left"
    # decided by the referee: the offender loses
    ILLEGAL_MOVE = "illegal move"
    MALFORMED = "malformed output"
    TIME = "time"
    MEMORY = "memory"
    CRASH = "crash"
    EARLY_OUTPUT = "output before its turn"
    FORKED = "another process"
    FALSE_CLAIM = "false claim"
    UNCLAIMED_WIN = "unclaimed win"
    ADJUDICATED = "adjudicated"
    RESIGNED = "resignation"
    ABORTED = "aborted"
    # a contest game settled unplayed: its loser's program could not be fetched or
    # run by any worker, or its owner was disqualified
    FORFEIT = "forfeit"

    @property
    def is_fault(self) -> bool:
        """True when the referee, not the rules, ended the game."""
        return self in _FAULTS

    @property
    def judged_from_text(self) -> bool:
        """True for a fault found in the text of a reply itself (so a replay can judge
        the offending text again), rather than in how or when it came."""
        return self in _TEXT_FAULTS


_FAULTS = frozenset(
    {
        Reason.ILLEGAL_MOVE,
        Reason.MALFORMED,
        Reason.EARLY_OUTPUT,
        Reason.FORKED,
        Reason.TIME,
        Reason.MEMORY,
        Reason.CRASH,
        Reason.FALSE_CLAIM,
        Reason.UNCLAIMED_WIN,
        Reason.ADJUDICATED,
        Reason.RESIGNED,
        Reason.ABORTED,
        Reason.FORFEIT,
    }
)
_TEXT_FAULTS = frozenset(
    {Reason.ILLEGAL_MOVE, Reason.MALFORMED, Reason.FALSE_CLAIM, Reason.UNCLAIMED_WIN}
)


class ArbiterError(Exception):
    """Base of every error arbiter raises on purpose; the CLI prints it as one line."""


class RulesError(ArbiterError):
    """A request the rules of the game refuse."""


class IllegalMove(RulesError, ValueError):
    """A move with valid syntax that is not legal in the given position."""


class NotationError(ArbiterError, ValueError):
    """Text that does not parse as a move or position; ``text`` holds the text."""

    def __init__(self, message: str, text: str = "") -> None:
        super().__init__(message)
        self.text = text


class AmbiguousMove(NotationError):
    """Text that matches more than one legal move."""


class ConfigError(ArbiterError, ValueError):
    """A bad setting: time control text, unknown game or agent, bad flag value."""


class RecordError(ArbiterError, ValueError):
    """A game record that cannot be read, or whose moves or result do not verify."""


class AgentFault(ArbiterError):
    """An agent broke the protocol; the referee makes the offender lose with ``reason``.

    ``detail`` says what it did, as the record keeps it ("2.10s CPU > 2.00s"); ``who``
    names the program or seat, put before the detail when the fault is shown alone
    (``str(fault)``). ``offending`` is the text it wrote, when the fault is in that
    text and the text never reached the referee as a reply (a line not in UTF-8, a
    line too long).
    """

    reason: Reason = Reason.CRASH

    def __init__(self, detail: str, *, who: str = "", offending: str | None = None) -> None:
        super().__init__(f"{who}: {detail}" if who else detail)
        self.detail = detail
        self.who = who
        self.offending = offending


class Timeout(AgentFault):
    """The agent used more time than its clock allowed; ``late`` is a reply that came
    after the limit, while the referee was looking (kept for its transcript: the loss
    stands, and the record judges no text of it)."""

    reason = Reason.TIME

    def __init__(self, detail: str, *, who: str = "", late: str | None = None) -> None:
        super().__init__(detail, who=who)
        self.late = late


class MemoryExceeded(AgentFault):
    """The agent's process tree used more resident memory than allowed."""

    reason = Reason.MEMORY


class Crash(AgentFault):
    """The agent exited, closed its output, or could not be started."""

    reason = Reason.CRASH


class Forked(AgentFault):
    """The agent started another process where its contest allows only one."""

    reason = Reason.FORKED


class Malformed(AgentFault):
    """The agent wrote a line the protocol does not allow."""

    reason = Reason.MALFORMED


class EarlyOutput(AgentFault):
    """The agent wrote before its turn: two moves at once, or during the opponent's turn."""

    reason = Reason.EARLY_OUTPUT


class FalseClaim(AgentFault):
    """The agent claimed a win that its move does not achieve."""

    reason = Reason.FALSE_CLAIM


class Resigned(AgentFault):
    """A person gave up the game."""

    reason = Reason.RESIGNED


class UnclaimedWin(AgentFault):
    """The agent made a winning move without declaring it as the contest requires."""

    reason = Reason.UNCLAIMED_WIN


def visible(text: str, limit: int = 1000) -> str:
    """Returns ``text`` safe to show on a terminal: control characters (escape sequences
    among them) written as ``\\xNN``, and at most ``limit`` characters.

    >>> print(visible("ok\\x1b[2J"))
    ok\\x1b[2J
    """
    shown = "".join(
        c if c.isprintable() or c == " " else c.encode("unicode_escape").decode("ascii")
        for c in text[:limit]
    )
    return shown + (f"... ({len(text) - limit} more characters)" if len(text) > limit else "")
