"""A contest's calendar: when uploads open and close, how often test rounds start by
themselves, and what the final plays.

Times are ISO 8601 with a zone (``2026-12-01T18:00:00+01:00``, or a TOML date-time
with an offset): a time without one means different instants to the organiser, the
server and each contestant, so it is refused. The final follows CodeCup: once
uploads close, every entrant's newest version accepted from an upload made before
``closes`` plays ``rounds`` Swiss rounds, then the ``top`` best of them a round robin
(``games_per_pair`` games a pair, both colours: a double round robin); the final's
standings count only the final's games.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from arbiter.errors import ConfigError

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhd])\s*$")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_duration(text: str) -> timedelta:
    """``"90s"``, ``"30m"``, ``"6h"`` or ``"1d"`` as a time span.

    :raises ConfigError: for anything else, or a span under a minute.
    """
    found = _DURATION.match(text)
    if found is None:
        raise ConfigError(f"{text!r} is not a time span like 30m, 6h or 1d")
    span = timedelta(seconds=float(found[1]) * _UNITS[found[2]])
    if span < timedelta(minutes=1):
        raise ConfigError(f"{text!r} is shorter than a minute")
    return span


def parse_time(value: object) -> datetime:
    """An ISO 8601 time with a zone, as text or a TOML date-time.

    :raises ConfigError: for text that is not one, or a time without a zone.
    """
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            raise ConfigError(f"{value!r} is not an ISO 8601 time") from None
    if not isinstance(value, datetime):
        raise ConfigError("must be a time like 2026-12-01T18:00:00+01:00")
    if value.utcoffset() is None:  # naive: no zone, or a zone that gives no offset
        raise ConfigError(f"{value.isoformat()} has no time zone (add one, like +00:00)")
    return value


def words(span: timedelta) -> str:
    """A span as a person says it: ``6 hours``, ``90 minutes``, ``1 day``."""
    seconds = int(span.total_seconds())
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds % size == 0 and seconds >= size:
            n = seconds // size
            return f"{n} {unit}{'s' if n != 1 else ''}"
    return f"{seconds} seconds"


@dataclass(frozen=True, slots=True)
class Final:
    """The final: ``rounds`` Swiss rounds, then the ``top`` best a round robin of
    ``games_per_pair`` games a pair (``top`` 0: no round robin)."""

    rounds: int = 5
    top: int = 0
    games_per_pair: int = 2


@dataclass(frozen=True, slots=True)
class Calendar:
    """When uploads are taken (``opens``, ``closes``; ``None``: no bound), how often a
    test round starts by itself (``every``; ``None``: only by hand) and when the first
    of them does (``first``; ``None``: as soon as two entrants have a version
    accepted), and the final (``None``: the contest has none)."""

    opens: datetime | None = None
    closes: datetime | None = None
    every: timedelta | None = None
    final: Final | None = None
    first: datetime | None = None

    def upload_refusal(self, at: datetime) -> str | None:
        """Why an upload made at ``at`` is refused, or ``None`` if it is taken."""
        if self.opens is not None and at < self.opens:
            return f"uploads open at {stamp(self.opens)}"
        if self.closes is not None and at >= self.closes:
            return f"uploads closed at {stamp(self.closes)}"
        return None

    def closed(self, at: datetime) -> bool:
        """True once uploads have closed (never, without ``closes``)."""
        return self.closes is not None and at >= self.closes


def stamp(at: datetime) -> str:
    """A time as pages show it: to the minute, with its zone."""
    return at.strftime("%Y-%m-%d %H:%M %Z").strip() if at.tzname() else at.isoformat()
