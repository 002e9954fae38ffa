"""Built-in agents by name: ``random``, ``greedy``, ``alphabeta``."""

from __future__ import annotations

from typing import Any

from arbiter.agents.alphabeta import AlphaBetaAgent
from arbiter.agents.greedy import GreedyAgent
from arbiter.agents.random import RandomAgent
from arbiter.errors import ConfigError
from arbiter.games import GameSpec

ENGINES = ("random", "greedy", "alphabeta")


def make_agent(name: str, spec: GameSpec, *, depth: int | None = None) -> Any:
    """Returns a new built-in agent called ``name`` for the game ``spec``.

    :raises ConfigError: naming the agent and the known ones, if there is none.
    """
    ev = spec.evaluate
    if name == "random":
        return RandomAgent()
    if name == "greedy":
        return GreedyAgent(ev.evaluate)
    if name == "alphabeta":
        return AlphaBetaAgent(
            ev.evaluate,
            getattr(ev, "order_hint", None),
            getattr(ev, "noisy_moves", None),
            depth=depth,
        )
    raise ConfigError(f"unknown engine {name!r}: expected one of {', '.join(ENGINES)}")
