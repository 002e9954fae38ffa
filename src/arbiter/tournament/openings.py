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


def search_score(spec: GameSpec[Any, Any], game: Any, text: str, depth: int) -> int:
    """The built-in alpha-beta's score of a position at a fixed depth, for the side to
    move (deterministic: the same position, rules and evaluation give the same score)."""
    from arbiter.agents.alphabeta import AlphaBetaAgent
    from arbiter.clock import Limit

    s = spec.notation.parse_position(text)
    engine: AlphaBetaAgent[Any, Any] = AlphaBetaAgent(spec.evaluation, depth=depth)
    engine.reset(game, game.to_move(s), 0)
    engine.choose(s, Limit(depth=depth))
    assert engine.last_info is not None
    return engine.last_info.score


def balanced_openings(
    spec: GameSpec[Any, Any], count: int, plies: int, depth: int, seed: int
) -> list[tuple[str, int]]:
    """The ``count`` most balanced of ``4 * count`` random openings of ``plies`` plies:
    those whose fixed-depth search score is nearest 0, each with its score, distinct."""
    game = spec.make()
    found: dict[str, int] = {}
    for text in random_openings(spec, plies, 4 * count, seed):
        if text not in found:
            found[text] = search_score(spec, game, text, depth)
    ranked = sorted(found.items(), key=lambda item: (abs(item[1]), item[0]))
    return ranked[:count]


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


def default_openings(spec: GameSpec[Any, Any]) -> list[str]:
    """The game's shipped opening set (none for a game without one).

    :raises ConfigError: if the shipped file is damaged.
    """
    path = spec.openings
    return read_openings(spec, path) if path is not None and path.exists() else []


def check_programs_can_start(spec: GameSpec[Any, Any], agents: Sequence[Any]) -> None:
    """Checks that every agent can begin a game from an opening: a built-in engine, or a
    program of a contest that gives programs the whole board.

    :raises ConfigError: naming the game, when a program of it cannot.
    """
    if spec.contest.STARTS_ANYWHERE:
        return
    programs = [a.name for a in agents if a.program is not None]
    if programs:
        raise ConfigError(
            f"{spec.name} programs always play from the game's start (the contest's protocol "
            f"cannot set a position), so {programs[0]!r} cannot play openings"
        )


def select_openings(
    spec: GameSpec[Any, Any],
    agents: Sequence[Any],
    pairs: int,
    *,
    plies: int | None = None,
    path: str | None = None,
    seed: int = 0,
    default: bool = False,
) -> tuple[list[str], str]:
    """The openings a match or tournament of ``pairs`` pairs asked for, and where they
    come from in words: a file's, ``plies`` random plies (seeded), or with ``default``
    the game's shipped set where every agent can start from a position (otherwise, and
    without any, none: every game from the start).

    :raises ConfigError: if openings were asked for and a program of the game cannot
        start from a position, or the file is not a file of openings.
    """
    if path or plies:
        check_programs_can_start(spec, agents)
    if path:
        return read_openings(spec, path), f"file {path}"
    if plies:
        return random_openings(spec, plies, pairs, seed), f"{plies} random plies"
    if not default:
        return [], "none"
    if not spec.contest.STARTS_ANYWHERE and any(a.program is not None for a in agents):
        return [], "none (the game's programs always start from its start)"
    found = default_openings(spec)
    return found, f"the default set ({len(found)})" if found else "none"


def for_pairs(openings: Sequence[str], pairs: int) -> list[str | None]:
    """The start of each of ``pairs`` pairs: the openings in turn, over again when there
    are fewer; ``None`` (the game's start) when there are none."""
    if not openings:
        return [None] * pairs
    return [openings[k % len(openings)] for k in range(pairs)]
