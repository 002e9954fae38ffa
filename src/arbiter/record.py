"""Game records as JSON lines (one game per line), and their re-verification.

A record keeps what is needed to replay and audit a game: the game and its rule
options, the players, every move in the contest's own notation and in the first
player's numbering (whatever numbering the mover wrote in), the seconds charged
per move, the result, its reason and detail, the contest's score, and for a fault
the offending text exactly as the offender wrote it.

Records the referee writes are sealed: an HMAC-SHA256 of their fields under a key
kept in the referee's user's configuration (:func:`record_key`), so ``arbiter
replay`` can tell them from records written or changed by anyone without the key.
Programs run with a minimal environment in a directory of their own and are not
told where the key is; a program running as the same user could still find and
read it, so the seal proves provenance only against programs run as another user
or confined so they cannot read it.
:func:`arbiter.play.replay.replay` plays a record again and checks it.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import math
import os
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arbiter.errors import RecordError
from arbiter.game import Ending, Outcome, Player, ending_of


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game. ``winner`` is the seat (0 = first mover) or None for a draw."""

    game: str
    players: tuple[str, ...]
    moves: tuple[str, ...]
    times: tuple[float, ...]
    winner: Player | None
    reason: Ending
    detail: str = ""
    offending: str | None = None
    time_control: str = ""
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict, hash=False)
    start: str | None = None
    date: str = ""
    round: int | None = None
    score: tuple[float, float] | None = None
    seal: str | None = field(default=None, compare=False)
    signature: str | None = field(default=None, compare=False)

    @property
    def outcome(self) -> Outcome:
        """The result as an Outcome."""
        return Outcome(self.winner, self.reason, self.detail)

    def _fields(self) -> dict[str, Any]:
        """The fields as JSON values, in their declared order, built directly (a deep
        copy of the whole record, as ``dataclasses.asdict`` makes, cost an export of
        100,000 games over a minute)."""
        return {
            "game": self.game,
            "players": list(self.players),
            "moves": list(self.moves),
            "times": [round(t, 6) for t in self.times],
            "winner": self.winner,
            "reason": str(self.reason),
            "detail": self.detail,
            "offending": self.offending,
            "time_control": self.time_control,
            "seed": self.seed,
            "options": copy.deepcopy(self.options),
            "start": self.start,
            "date": self.date,
            "round": self.round,
            "score": None if self.score is None else list(self.score),
        }

    def to_json(self, key: bytes | None = None) -> str:
        """Returns the record as one line of JSON, sealed with ``key`` if given."""
        d = self._fields()
        if key is not None:
            d["seal"] = self.seal_with(key)
        elif self.seal is not None:
            d["seal"] = self.seal
        if self.signature is not None:
            d["signature"] = self.signature
        return json.dumps(d, separators=(",", ":"))

    def canonical(self) -> bytes:
        """The record's fields as the bytes a seal or a signature covers: JSON with
        sorted keys, times as written, neither the seal nor the signature."""
        return json.dumps(self._fields(), separators=(",", ":"), sort_keys=True).encode()

    def seal_with(self, key: bytes) -> str:
        """The record's seal: an HMAC-SHA256 of its fields (times as written)."""
        return hmac.new(key, self.canonical(), hashlib.sha256).hexdigest()

    def sealed_by(self, key: bytes) -> bool:
        """True when the record carries the seal ``key`` gives it."""
        return self.seal is not None and hmac.compare_digest(self.seal, self.seal_with(key))

    @classmethod
    def from_json(cls, line: str) -> GameRecord:
        """Parses one JSON line.

        :raises RecordError: naming what is missing or wrong.
        """
        try:
            d = json.loads(line)
        except json.JSONDecodeError as e:
            # json's own words may end in "at" ("Unterminated string starting at")
            raise RecordError(
                f"not JSON at column {e.colno}: {e.msg.removesuffix(' at')}"
            ) from None
        except RecursionError:
            raise RecordError("not a game record: nested too deeply") from None
        if not isinstance(d, dict):
            raise RecordError("not a JSON object")
        for key in ("game", "players", "moves", "winner", "reason"):
            if key not in d:
                raise RecordError(f"missing field {key!r}")
        try:
            reason = ending_of(d["reason"])
        except (ValueError, TypeError):
            raise RecordError(f"unknown reason {d['reason']!r}") from None
        moves = d["moves"]
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError("field 'moves' must be a list of strings")
        winner = d["winner"]
        if isinstance(winner, bool) or winner not in (None, 0, 1):
            raise RecordError(f"field 'winner' must be 0, 1 or null, not {winner!r}")
        players = d["players"]
        if (
            not isinstance(players, list)
            or len(players) != 2
            or not all(isinstance(p, str) and p for p in players)
        ):
            raise RecordError(f"field 'players' must be two names, not {players!r}"[:200])
        if not isinstance(d["game"], str):
            raise RecordError(f"field 'game' must be a game's name, not {d['game']!r}"[:200])
        times = d.get("times") or [0.0] * len(moves)
        if not isinstance(times, list) or len(times) != len(moves):
            raise RecordError("field 'times' must give one time for each move")
        for t in times:
            if isinstance(t, bool) or not isinstance(t, (int, float)) or not 0 <= t < math.inf:
                raise RecordError(f"field 'times' must be seconds from 0 up, not {t!r}")
        if winner is None and reason.is_fault:
            raise RecordError(f"a fault ({reason}) cannot end in a draw")
        try:
            return cls._build(d, moves, times, winner, reason)
        except (TypeError, ValueError, OverflowError) as e:
            raise RecordError(f"a field has the wrong type: {e}") from None

    @classmethod
    def _build(
        cls, d: dict[str, Any], moves: list[str], times: Any, winner: Any, reason: Ending
    ) -> GameRecord:
        if not isinstance(d["players"], list) or not isinstance(times, list):
            raise TypeError("'players' and 'times' must be lists")
        start = d.get("start")
        if start is not None and not isinstance(start, str):
            raise TypeError("'start' must be a position text")
        offending = d.get("offending")
        if offending is not None and not isinstance(offending, str):
            raise TypeError("'offending' must be text")
        score = d.get("score")
        if score is not None and (
            not isinstance(score, list)
            or len(score) != 2
            or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in score)
        ):
            raise TypeError("'score' must be two numbers")
        seal = d.get("seal")
        if seal is not None and not isinstance(seal, str):
            raise TypeError("'seal' must be text")
        signature = d.get("signature")
        if signature is not None and not isinstance(signature, str):
            raise TypeError("'signature' must be text")
        number = d.get("round")
        if number is not None and (not isinstance(number, int) or isinstance(number, bool)):
            raise TypeError("'round' must be a whole number")
        return cls(
            game=str(d["game"]),
            players=tuple(str(p) for p in d["players"]),
            moves=tuple(moves),
            times=tuple(float(t) for t in times),
            winner=winner,
            reason=reason,
            detail=str(d.get("detail", "")),
            offending=offending,
            time_control=str(d.get("time_control", "")),
            seed=int(d.get("seed", 0)),
            options=dict(d.get("options") or {}),
            start=start,
            date=str(d.get("date", "")),
            round=number,
            score=None if score is None else (float(score[0]), float(score[1])),
            seal=seal,
            signature=signature,
        )


KEY_VARIABLE = "ARBITER_RECORD_KEY"
"""Names the file of the key that seals records (default
``$XDG_CONFIG_HOME/arbiter/record.key``, that is ``~/.config/arbiter/record.key``)."""


def key_path() -> Path:
    """Where the key that seals records is kept."""
    if given := os.environ.get(KEY_VARIABLE):
        return Path(given)
    config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(config) / "arbiter" / "record.key"


def record_key(create: bool = False) -> bytes | None:
    """The key that seals records; with ``create``, a new random key is made (readable
    by its owner only) when there is none.

    :raises RecordError: if the key file cannot be read or made.
    """
    path = key_path()
    try:
        return bytes.fromhex(path.read_text().strip())
    except FileNotFoundError:
        if not create:
            return None
    except (OSError, ValueError) as e:
        raise RecordError(f"cannot read the record key {str(path)!r}: {e}") from None
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32) + "\n")
    except FileExistsError:
        pass
    except OSError as e:
        raise RecordError(f"cannot make the record key {str(path)!r}: {e.strerror}") from None
    return record_key(create=False)


def open_records(path: str | Path) -> int:
    """Opens a record file for appending, made readable by its owner only when new
    (a program of another uid can neither read nor change it); returns its descriptor.

    :raises OSError: if it cannot be opened.
    """
    return os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)


def append_record(path: str | Path, record: GameRecord, key: bytes | None = None) -> None:
    """Appends one record as a line, sealed with ``key`` if given, and flushes it to
    disk, so a crash loses nothing."""
    with os.fdopen(open_records(path), "a", encoding="utf-8") as f:
        f.write(record.to_json(key) + "\n")
        f.flush()
        os.fsync(f.fileno())


def read_lines(path: str | Path) -> Iterator[tuple[int, GameRecord | RecordError]]:
    """Yields (line number, record, or the RecordError of an unreadable line) for each
    non-blank line, so one broken line does not hide the others.

    :raises RecordError: if the file cannot be read at all.
    """
    try:
        f = open(path, "rb")  # noqa: SIM115 (closed by the with below)
    except OSError as e:
        raise RecordError(f"cannot read {str(path)!r}: {e.strerror}") from None
    with f:
        for number, raw in enumerate(f, 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                yield number, RecordError(f"{path}:{number}: not UTF-8 text")
                continue
            if not line.strip():
                continue
            try:
                yield number, GameRecord.from_json(line)
            except RecordError as e:
                yield number, RecordError(f"{path}:{number}: {e}")


def read_records(path: str | Path) -> Iterator[tuple[int, GameRecord]]:
    """Yields (line number, record) for each non-blank line of a JSON-lines file.

    :raises RecordError: naming the file and line of the first unreadable record.
    """
    for number, item in read_lines(path):
        if isinstance(item, RecordError):
            raise item
        yield number, item
