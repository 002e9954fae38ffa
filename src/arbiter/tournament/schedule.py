"""Who plays whom, in which seat, from which start and with which seed.

Every encounter is a pair of games with the seats swapped and the same seed, so
colour bias cancels (fishtest's game pairs).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pairing:
    """One game of a schedule: ``seats[0]`` is the index of the agent in the first seat."""

    round: int
    seats: tuple[int, int]
    seed: int


def match(games: int, *, seed: int = 0) -> list[Pairing]:
    """The games of a two-agent match: seats alternate, each pair of games shares a seed.

    >>> [(p.round, p.seats, p.seed) for p in match(3, seed=5)]
    [(1, (0, 1), 5), (2, (1, 0), 5), (3, (0, 1), 6)]
    """
    return [Pairing(i + 1, (0, 1) if i % 2 == 0 else (1, 0), seed + i // 2) for i in range(games)]
