"""Who plays whom, in which seat, from which start and with which seed.

Every encounter is a pair of games with the seats swapped, the same seed and the
same start, so colour bias cancels (fishtest's game pairs). Games are numbered from
1 in the order they are scheduled; a pair's two games are consecutive.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from arbiter.errors import ConfigError

FORMATS = ("round-robin", "gauntlet")


@dataclass(frozen=True, slots=True)
class Pairing:
    """One game of a schedule: ``number`` numbers it in the schedule (from 1),
    ``seats[0]`` is the index of the agent in the first seat; ``pair`` numbers the
    encounter (from 0), which its two games share with their seed and their start."""

    number: int
    seats: tuple[int, int]
    seed: int
    pair: int = 0


def _pairs(encounters: list[tuple[int, int]], seed: int) -> list[Pairing]:
    games: list[Pairing] = []
    for pair, (a, b) in enumerate(encounters):
        for seats in ((a, b), (b, a)):
            games.append(Pairing(len(games) + 1, seats, seed + pair, pair))
    return games


def match(games: int, *, seed: int = 0) -> list[Pairing]:
    """The games of a two-agent match: seats alternate, each pair of games shares a seed.

    >>> [(p.number, p.seats, p.seed) for p in match(3, seed=5)]
    [(1, (0, 1), 5), (2, (1, 0), 5), (3, (0, 1), 6)]
    """
    return _pairs([(0, 1)] * ((games + 1) // 2), seed)[:games]


def round_robin(agents: int, rounds: int = 1, *, seed: int = 0) -> list[Pairing]:
    """Every agent meets every other ``rounds`` times, each meeting a pair of games.

    >>> [p.seats for p in round_robin(3)]
    [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]
    """
    if agents < 2:
        raise ConfigError(f"a tournament needs two agents or more, not {agents}")
    meetings = list(itertools.combinations(range(agents), 2))
    return _pairs(meetings * rounds, seed)


def gauntlet(agents: int, rounds: int = 1, *, seed: int = 0) -> list[Pairing]:
    """Agent 0 meets every other agent ``rounds`` times, each meeting a pair of games
    (the others do not meet each other).

    >>> [p.seats for p in gauntlet(3)]
    [(0, 1), (1, 0), (0, 2), (2, 0)]
    """
    if agents < 2:
        raise ConfigError(f"a gauntlet needs two agents or more, not {agents}")
    return _pairs([(0, other) for other in range(1, agents)] * rounds, seed)


def schedule(form: str, agents: int, rounds: int = 1, *, seed: int = 0) -> list[Pairing]:
    """The games of a tournament of format ``form`` (one of :data:`FORMATS`).

    :raises ConfigError: for an unknown format or fewer than two agents.
    """
    if form == "round-robin":
        return round_robin(agents, rounds, seed=seed)
    if form == "gauntlet":
        return gauntlet(agents, rounds, seed=seed)
    raise ConfigError(f"unknown tournament format {form!r}: expected {' or '.join(FORMATS)}")
