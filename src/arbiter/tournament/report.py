"""A tournament's standings from its stored games: scores, a crosstable, ratings with
intervals, pentanomial pair counts, reasons, and the contest's own points.

:func:`standings` computes; :func:`render` draws it with rich tables (plain text when
the output is not a terminal); :func:`as_json` gives it to machines.
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from rich.console import Console
from rich.table import Table

from arbiter.tournament.bradley_terry import Rating, fit, pentanomial
from arbiter.tournament.pentanomial import PairStats
from arbiter.tournament.store import StoredGame


@dataclass(frozen=True, slots=True)
class Standing:
    """One agent's line: results, score share, rating, pair counts, contest points,
    and its irregular losses (games lost by a fault: an illegal move, time, a crash)."""

    name: str
    games: int
    wins: int
    draws: int
    losses: int
    points: float
    rating: Rating
    pairs: tuple[int, int, int, int, int]
    contest_points: float
    faults: int = 0

    @property
    def share(self) -> float:
        """The share of the points available it scored (0..1)."""
        return self.points / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class Duel:
    """Two agents' complete pairs of games against each other: the pentanomial counts
    from ``first``'s side (its pairs scoring 0, ¼, ½, ¾, 1), for fastchess's
    statistics (:class:`~arbiter.tournament.pentanomial.PairStats`)."""

    first: str
    second: str
    pairs: tuple[int, int, int, int, int]

    @property
    def stats(self) -> PairStats:
        return PairStats(self.pairs)


@dataclass(frozen=True, slots=True)
class Standings:
    """The whole table, best rating first; ``crosstable[i][j]`` is what agent ``i``
    scored against ``j`` (over ``meetings[i][j]`` games), by agent number; ``duels``
    each two agents' pairs against each other (a gauntlet's: each opponent's)."""

    tournament: str
    game: str
    agents: tuple[str, ...]
    lines: tuple[Standing, ...]
    crosstable: tuple[tuple[float, ...], ...]
    meetings: tuple[tuple[int, ...], ...]
    games: int
    draws: int
    reasons: dict[str, int]
    contest_scored: bool
    duels: tuple[Duel, ...] = ()


def standings(
    tournament: str,
    game: str,
    agents: Sequence[str],
    games: Sequence[StoredGame],
) -> Standings:
    """The standings of ``games`` between ``agents`` (numbered as in the games); the
    contest's own points are shown where some game scored otherwise than 1-½-0."""
    n = len(agents)
    cross = [[0.0] * n for _ in range(n)]
    meetings = [[0] * n for _ in range(n)]
    results: list[tuple[int, int, float]] = []
    wdl = [[0, 0, 0] for _ in range(n)]
    contest = [0.0] * n
    faults = [0] * n
    by_pair: dict[int, list[StoredGame]] = defaultdict(list)
    contest_scored = False
    reasons: Counter[str] = Counter()
    for g in games:
        a, b = g.seats
        outcome = g.record.outcome
        first = outcome.points(0)
        results.append((a, b, first))
        cross[a][b] += first
        cross[b][a] += 1 - first
        meetings[a][b] += 1
        meetings[b][a] += 1
        for agent, points in ((a, first), (b, 1 - first)):
            wdl[agent][0 if points == 1 else 1 if points == 0.5 else 2] += 1
        if outcome.winner is not None and outcome.reason.is_fault:
            faults[g.seats[1 - outcome.winner]] += 1
        if g.record.score is not None:
            contest[a] += g.record.score[0]
            contest[b] += g.record.score[1]
        by_pair[g.pair].append(g)
        reasons[str(g.record.reason)] += 1
        contest_scored = contest_scored or g.record.score not in (None, (first, 1 - first))
    ratings = fit(n, results)
    pair_scores, duels = _pairs(n, by_pair)
    lines = [
        Standing(
            agents[i],
            sum(wdl[i]),
            wdl[i][0],
            wdl[i][1],
            wdl[i][2],
            wdl[i][0] + 0.5 * wdl[i][1],
            ratings[i],
            pentanomial(pair_scores[i]),
            contest[i],
            faults[i],
        )
        for i in range(n)
    ]
    lines.sort(key=lambda s: (-s.rating.elo, -s.points, s.name))
    return Standings(
        tournament,
        game,
        tuple(agents),
        tuple(lines),
        tuple(tuple(row) for row in cross),
        tuple(tuple(row) for row in meetings),
        len(games),
        sum(1 for g in games if g.record.winner is None),
        dict(reasons.most_common()),
        contest_scored,
        tuple(
            Duel(agents[a], agents[b], pentanomial(scores))
            for (a, b), scores in sorted(duels.items())
        ),
    )


def _pairs(
    n: int, by_pair: dict[int, list[StoredGame]]
) -> tuple[list[list[tuple[float, float]]], dict[tuple[int, int], list[tuple[float, float]]]]:
    """Each of ``n`` agents' complete pairs (one start, both colours) as its two
    scores, and each two agents' pairs from the side of the lower-numbered one."""
    pair_scores: list[list[tuple[float, float]]] = [[] for _ in range(n)]
    duels: dict[tuple[int, int], list[tuple[float, float]]] = {}
    for pair in by_pair.values():
        if len(pair) != 2:
            continue  # a pair not yet complete
        one, two = pair
        a, b = one.seats
        pa = (one.record.outcome.points(0), two.record.outcome.points(1))
        pair_scores[a].append(pa)
        pair_scores[b].append((1 - pa[0], 1 - pa[1]))
        duels.setdefault((min(a, b), max(a, b)), []).append(pa if a < b else (1 - pa[0], 1 - pa[1]))
    return pair_scores, duels


def as_json(table: Standings) -> str:
    """The standings as one JSON document."""
    data = asdict(table)
    for line, standing in zip(data["lines"], table.lines, strict=True):
        line["share"] = round(standing.share, 4)
    return json.dumps(data, indent=2)


def render(table: Standings, console: Console | None = None) -> None:
    """Prints the standings, the crosstable and the reasons games ended."""
    console = console or Console()
    title = (
        f"{table.tournament} ({table.game}): {table.games} games, "
        f"draws {table.draws / table.games:.0%}"
        if table.games
        else f"{table.tournament} ({table.game}): no games yet"
    )
    main = Table(title=title)
    for column in ("#", "agent", "games", "W", "D", "L", "score", "Elo", "pairs 0-½-1-1½-2"):
        main.add_column(column, justify="left" if column == "agent" else "right")
    if table.contest_scored:
        main.add_column("contest points", justify="right")
    for rank, s in enumerate(table.lines, 1):
        row = [
            str(rank),
            s.name,
            str(s.games),
            str(s.wins),
            str(s.draws),
            str(s.losses),
            f"{s.points:g} ({s.share:.0%})",
            str(s.rating),
            "-".join(map(str, s.pairs)),
        ]
        if table.contest_scored:
            row.append(f"{s.contest_points:g}")
        main.add_row(*row)
    console.print(main)
    if len(table.agents) > 2:
        cross = Table(title="crosstable (row's points against column)")
        cross.add_column("")
        for name in table.agents:
            cross.add_column(name, justify="right")
        for i, name in enumerate(table.agents):
            cells = [
                "" if i == j else f"{table.crosstable[i][j]:g}/{table.meetings[i][j]}"
                for j in range(len(table.agents))
            ]
            cross.add_row(name, *cells)
        console.print(cross)
    if table.duels:
        duels = Table(title="each two agents' pairs of games (pentanomial, 95%)")
        for column in ("agents", "pairs 0-¼-½-¾-1", "Elo", "nElo", "LOS", "draws"):
            duels.add_column(column, justify="left" if column == "agents" else "right")
        for duel in table.duels:
            stats = duel.stats
            elo, err = stats.elo()
            nelo, nerr = stats.nelo()
            duels.add_row(
                f"{duel.first} - {duel.second}",
                "-".join(map(str, duel.pairs)),
                _plus_minus(elo, err),
                _plus_minus(nelo, nerr),
                f"{100 * stats.los():.1f}%",
                f"{100 * stats.draw_ratio():.0f}%",
            )
        console.print(duels)
    if table.reasons:
        console.print(
            "reasons: " + ", ".join(f"{reason} {count}" for reason, count in table.reasons.items())
        )


def _plus_minus(value: float, half: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.1f} ± " + ("inf" if math.isinf(half) else f"{half:.1f}")
