"""The contest's ranking: the standings rows from a table of games and the Swiss byes,
in the order ``rank_by`` asks (CodeCup's by default: contest points, then fewer
irregular losses, then rating), byes credited as games won without play in both
units, disqualified entrants marked.

Pure: the server's standings, the final's top group and an export's verification
(:mod:`arbiter.host.export`) rank with the same code."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence, Set
from typing import Any, Protocol

from arbiter.errors import Reason
from arbiter.game import Outcome
from arbiter.games import find_game
from arbiter.tournament.bradley_terry import Rating

RANKING_RULES = {
    "contest": "contest points, then fewer irregular losses, then rating",
    "points": "game points (a win 1, a draw ½), then fewer irregular losses, then rating",
    "rating": "rating, then game points",
}
"""Each ranking in words, as the standings page names it (``rank_by``)."""


def win_without_play(game: str) -> float:
    """The contest points a game won without being played is worth to its winner (as
    a forfeit is scored): what a Swiss bye is credited for each game of its round."""
    spec = find_game(game)
    rules = spec.make()
    return spec.score(rules, rules.initial(), Outcome(0, Reason.FORFEIT))[0]


class Line(Protocol):
    """What a ranking reads of an entrant's line of a table: the server's
    (:class:`arbiter.host.ratings.Line`, from the tallies) and an export check's
    (:class:`arbiter.tournament.report.Standing`, from the records) alike."""

    @property
    def name(self) -> str: ...
    @property
    def games(self) -> int: ...
    @property
    def wins(self) -> int: ...
    @property
    def draws(self) -> int: ...
    @property
    def losses(self) -> int: ...
    @property
    def points(self) -> float: ...
    @property
    def contest_points(self) -> float: ...
    @property
    def faults(self) -> int: ...
    @property
    def rating(self) -> Rating: ...


def ranked_rows(
    game: str,
    lines: Sequence[Line],
    byes: Mapping[str, float],
    disqualified: Set[str],
    rank_by: str,
) -> list[dict[str, Any]]:
    """The standings rows of a table's ``lines`` (of ``game``) with each entrant's
    ``byes`` (game points credited, by name) in the order of ``rank_by``; an entrant
    with only byes has a row too."""
    per_game = win_without_play(game)
    rows = []
    for line in lines:
        extra = byes.get(line.name, 0.0)
        rows.append(
            _row(
                line.name,
                (line.games, line.wins, line.draws, line.losses),
                (line.points + extra, line.contest_points + extra * per_game, extra),
                line.faults,
                line.rating.elo,
                line.rating.error,
                line.name in disqualified,
            )
        )
    played = {line.name for line in lines}
    for name, extra in sorted(byes.items()):  # a bye before a first game
        if name not in played:
            rows.append(
                _row(
                    name,
                    (0, 0, 0, 0),
                    (extra, extra * per_game, extra),
                    0,
                    0.0,
                    math.inf,
                    name in disqualified,
                )
            )
    rows.sort(key=_ranking(rank_by))
    return rows


def _ranking(rank_by: str) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    """The sort key of a standings row for the ranking ``rank_by``. Ratings are
    compared to a thousandth of a point: two fits of one table (the server's,
    started from the previous table, and an export check's, from even) agree far
    closer than that, and entrants the games tie exactly then rank by name in both."""
    if rank_by == "rating":
        return lambda r: (-round(r["elo_exact"], 3), -r["points"], r["name"])
    first = "contest_points" if rank_by == "contest" else "points"
    return lambda r: (-r[first], r["faults"], -round(r["elo_exact"], 3), r["name"])


def _row(
    name: str,
    counts: tuple[int, int, int, int],
    points: tuple[float, float, float],
    faults: int,
    elo: float,
    error: float,
    disqualified: bool,
) -> dict[str, Any]:
    """A standings row: ``points`` are (game points, contest points, byes' game points),
    byes included."""
    games, wins, draws, losses = counts
    game_points, contest_points, byes = points
    return {
        "name": name,
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "points": game_points,
        "byes": byes,
        "contest_points": contest_points,
        "faults": faults,
        "disqualified": disqualified,
        "elo": round(elo),
        # to a millionth: two fits of the same games (one started from the last
        # table) agree far closer, and a table that did not change stays the same
        "elo_exact": round(elo, 6),
        "error": round(error) if math.isfinite(error) else None,
    }
