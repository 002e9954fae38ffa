"""The steering agent: plays the move a scoring function likes most, random among ties.

``arbiter check-agent`` plays it against a contestant's program to lead whole games
into the situations a program gets wrong (captures offered, long hops through the
neutral triangles, wins left open), where a random opponent would meet them only
by chance. It is not meant to play well.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from arbiter.clock import Limit
from arbiter.game import Game, Player

S = TypeVar("S")
M = TypeVar("M", bound=Hashable)

Preference = Callable[[Game[S, M], S, M], int]
"""How much the steering side likes playing a move in a position (higher: more)."""

Watch = Callable[[Game[S, M], S, M], str | None]
"""What the opponent's move in a position met, as a word to count, or ``None``."""


class SteeringAgent(Generic[S, M]):
    """Plays a move ``prefer`` scores highest, chosen at random among the best; the
    same seed gives the same choices. ``watch`` looks at each move the opponent
    plays, and ``met`` counts the words it returns."""

    name = "steering"

    def __init__(self, prefer: Preference[S, M], watch: Watch[S, M] | None = None) -> None:
        self._prefer = prefer
        self._watch = watch
        self.met: Counter[str] = Counter()
        self._game: Game[S, M] | None = None
        self._rng = random.Random(0)

    def reset(self, game: Game[S, M], seat: Player, seed: int) -> None:
        self._game = game
        self._rng = random.Random(seed)
        self.met.clear()

    def choose(self, s: S, limit: Limit) -> M:
        game = self._game
        assert game is not None, "reset() must be called before choose()"
        scored = [(self._prefer(game, s, m), m) for m in game.legal_moves(s)]
        best = max(score for score, _ in scored)
        return self._rng.choice([m for score, m in scored if score == best])

    def observe(self, s: S, m: M) -> None:
        if self._watch is not None and self._game is not None:
            word = self._watch(self._game, s, m)
            if word is not None:
                self.met[word] += 1

    def note(self) -> str:
        return ""

    def halt(self) -> None:
        pass
