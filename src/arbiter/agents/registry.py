"""Built-in agents by name (``random``, ``greedy``, ``alphabeta``), with their options."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TypeVar

from arbiter.agents.alphabeta import HASH_MB, AlphaBetaAgent, Reductions, Repeats
from arbiter.agents.greedy import GreedyAgent
from arbiter.agents.random import RandomAgent
from arbiter.agents.spec import ENGINES, AgentSpec
from arbiter.contract import Agent, GameSpec
from arbiter.errors import ConfigError

S = TypeVar("S")
M = TypeVar("M", bound=Hashable)

__all__ = ["ENGINES", "make_agent"]


def make_agent(spec: GameSpec[S, M], agent: AgentSpec | str) -> Agent[S, M]:
    """Returns a new built-in engine for the game ``spec``.

    :raises ConfigError: naming the agent and the known engines, if it is not one.
    """
    if isinstance(agent, str):
        agent = AgentSpec.parse(agent)
    ev = spec.evaluation
    if agent.engine == "random":
        return RandomAgent()
    if agent.engine == "greedy":
        return GreedyAgent(ev)
    if agent.engine == "alphabeta":
        # a game whose evaluation says when a side is ahead, and what repeats, has
        # the side ahead avoid repeating positions
        ahead, placement = getattr(ev, "AHEAD", None), getattr(ev, "placement", None)
        # late-move reductions and late-move pruning where the game's evaluation asks
        # for them (REDUCE, PRUNE)
        reduce, prune = agent.option("reduce"), agent.option("prune")
        return AlphaBetaAgent(
            ev,
            depth=agent.option("depth"),
            nodes=agent.option("nodes"),
            hash_mb=agent.option("hash") or HASH_MB,
            compiled=not agent.option("pure"),
            repeats=None if ahead is None or placement is None else Repeats(ahead, placement),
            reduce=Reductions(getattr(ev, "REDUCE", 0) if reduce is None else reduce),
            prune=getattr(ev, "PRUNE", 0) if prune is None else prune,
        )
    raise ConfigError(f"unknown engine {agent.name!r}: expected one of {', '.join(ENGINES)}")
