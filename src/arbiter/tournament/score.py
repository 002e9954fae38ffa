"""The running score of a match between two agents: per agent, per seat, and why games ended.

>>> from arbiter.errors import Reason
>>> from arbiter.game import Outcome
>>> score = MatchScore(("a", "b"))
>>> score.add(Outcome(0, Reason.CONNECTED), first=0)
>>> score.add(Outcome(0, Reason.CONNECTED), first=1)
>>> score.points, score.record(0)
((1.0, 1.0), (1, 0, 1))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from arbiter.game import Outcome, Player
from arbiter.tournament.ratings import EloEstimate, elo_difference


@dataclass
class MatchScore:
    """Results of games between agents 0 and 1, which change seats from game to game."""

    names: tuple[str, str]
    _results: Counter[tuple[int, Player, float]] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)

    def add(self, outcome: Outcome, first: int) -> None:
        """Counts one game in which agent ``first`` sat in seat 0."""
        for seat, agent in enumerate((first, 1 - first)):
            self._results[(agent, seat, outcome.points(seat))] += 1
        self.reasons[str(outcome.reason)] += 1

    @property
    def points(self) -> tuple[float, float]:
        """Points of agent 0 and agent 1 so far."""
        totals = [0.0, 0.0]
        for (agent, _, pts), n in self._results.items():
            totals[agent] += pts * n
        return totals[0], totals[1]

    def record(self, agent: int, seat: Player | None = None) -> tuple[int, int, int]:
        """Returns (wins, draws, losses) of ``agent``, in ``seat`` only if given."""
        counts = {1.0: 0, 0.5: 0, 0.0: 0}
        for (a, s, pts), n in self._results.items():
            if a == agent and (seat is None or s == seat):
                counts[pts] += n
        return counts[1.0], counts[0.5], counts[0.0]

    def elo(self) -> EloEstimate:
        """Agent 0's Elo difference over agent 1, with its 95% interval."""
        return elo_difference(*self.record(0))

    def summary(self, seat_names: Sequence[str]) -> list[str]:
        """Returns the closing lines: each agent's record overall and per seat, the
        Elo difference, and the reasons games ended."""
        lines = []
        for agent, name in enumerate(self.names):
            w, d, lo = self.record(agent)
            seats = ", ".join(
                "as {} {}-{}-{}".format(colour, *self.record(agent, seat))
                for seat, colour in enumerate(seat_names)
            )
            lines.append(f"{name}: {w} wins, {d} draws, {lo} losses ({seats})")
        lines.append(f"Elo difference {self.names[0]} - {self.names[1]}: {self.elo()} (95%)")
        lines.append("Reasons: " + ", ".join(f"{r} {n}" for r, n in self.reasons.most_common()))
        return lines
