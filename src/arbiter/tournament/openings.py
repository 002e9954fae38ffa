"""Start positions for the pairs of a tournament or match, so that pairs differ and
each pair's two games (seats swapped) start alike.

A position is kept as the game's one-line position text, which is what records
and the database store and what ``--openings-file`` holds, one per line.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from arbiter.contract import GameSpec
from arbiter.errors import ConfigError, NotationError

TRIES = 100
"""Random walks tried for one opening before giving up (every walk ended the game)."""


def random_opening(spec: GameSpec[Any, Any], game: Any, plies: int, seed: int) -> str:
    """The position after ``plies`` uniformly random moves from the start, seeded; never
    one where the game is already over or the side to move has a single move (so the
    opening decides nothing by itself).

    :raises ConfigError: if no such position was found (``plies`` too many for the game).
    """
    rng = random.Random(seed)
    for _ in range(TRIES):
        s = game.initial()
        for _ in range(plies):
            moves = game.legal_moves(s)
            if not moves:
                break
            s = game.apply(s, rng.choice(moves))
        if game.outcome(s) is None and len(game.legal_moves(s)) > 1:
            return str(spec.notation.format_position(s))
    raise ConfigError(f"no {spec.name} opening of {plies} random plies leaves the game open")


def random_openings(spec: GameSpec[Any, Any], plies: int, count: int, seed: int) -> list[str]:
    """``count`` openings of ``plies`` random plies, the k-th from seed (``seed``, k):
    the same seed gives the same openings, and a longer list begins with a shorter."""
    game = spec.make()
    return [random_opening(spec, game, plies, seed * 1_000_003 + k) for k in range(count)]


def read_openings(spec: GameSpec[Any, Any], path: str | Path) -> list[str]:
    """The openings in a file: one position text a line (blank lines and lines starting
    with ``#`` skipped), each a position of the game where it is still open.

    :raises ConfigError: naming the file and line, for a line that is not such a
        position, an unreadable file, or a file with none.
    """
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise ConfigError(f"cannot read openings from {str(path)!r}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{str(path)!r} is not a text file of openings") from None
    game = spec.make()
    found = []
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            s = spec.notation.parse_position(text)
        except NotationError as e:
            raise ConfigError(f"{path}:{number}: {e}") from None
        if game.outcome(s) is not None:
            raise ConfigError(f"{path}:{number}: the game is already over in {text!r}")
        found.append(str(spec.notation.format_position(s)))
    if not found:
        raise ConfigError(f"{str(path)!r} holds no openings")
    return found


def for_pairs(openings: Sequence[str], pairs: int) -> list[str | None]:
    """The start of each of ``pairs`` pairs: the openings in turn, over again when there
    are fewer; ``None`` (the game's start) when there are none."""
    if not openings:
        return [None] * pairs
    return [openings[k % len(openings)] for k in range(pairs)]
