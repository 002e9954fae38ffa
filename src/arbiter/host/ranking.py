"""The contest's ranking: the standings rows from a table of games and the Swiss byes,
in the order ``rank_by`` asks (CodeCup's by default: contest points, then fewer
irregular losses, then rating), byes credited as games won without play in both
units, disqualified entrants marked.

Pure: the server's standings, the final's top group and an export's verification
(:mod:`arbiter.host.export`) rank with the same code."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Set
from typing import Any

from arbiter.errors import Reason
from arbiter.game import Outcome
from arbiter.games import find_game
from arbiter.tournament.report import Standings

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


def ranked_rows(
    table: Standings,
    byes: Mapping[str, float],
    disqualified: Set[str],
    rank_by: str,
) -> list[dict[str, Any]]:
    """The standings rows of ``table`` with each entrant's ``byes`` (game points
    credited, by name) in the order of ``rank_by``; an entrant with only byes has a
    row too."""
    per_game = win_without_play(table.game)
    rows = []
    for line in table.lines:
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
    played = {line.name for line in table.lines}
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
    """The sort key of a standings row for the ranking ``rank_by``."""
    if rank_by == "rating":
        return lambda r: (-r["elo_exact"], -r["points"], r["name"])
    first = "contest_points" if rank_by == "contest" else "points"
    return lambda r: (-r[first], r["faults"], -r["elo_exact"], r["name"])


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
        "elo_exact": elo,
        "error": round(error) if math.isfinite(error) else None,
    }
