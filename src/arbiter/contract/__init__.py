"""The contract: what a game, an agent and the platform's layers promise each other.

:mod:`arbiter.contract.spec` is the typed contract every game meets (its modules,
its two protocol sides, its :class:`GameSpec`); :mod:`arbiter.contract.programs` the
programs a referee runs (their supervision, commands, replies and seats);
:mod:`arbiter.contract.agent` what an agent is; :mod:`arbiter.contract.layout` how
a game's board is drawn in the browser; :mod:`arbiter.contract.probes` the helpers a
game's check-agent probes are made of. The package sits just above the base
(:mod:`arbiter.errors`, :mod:`arbiter.game`, :mod:`arbiter.clock`,
:mod:`arbiter.record`): every layer above may use it, and it uses none of them. Its
commonest names are here.
"""

from arbiter.contract.agent import Agent
from arbiter.contract.programs import (
    Program,
    Reply,
    Seat,
    Supervision,
    program_problem,
    split_command,
)
from arbiter.contract.spec import (
    MAX_PLIES,
    AgentRun,
    Check,
    Contest,
    ContestScore,
    Evaluation,
    GameSpec,
    Loader,
    Notation,
    OptionValue,
    PlayerSide,
    Probes,
    RefereeSide,
    RuleOption,
    Steer,
    Watch,
    keep_move,
    keep_outcome,
    win_draw_loss,
)

__all__ = [
    "MAX_PLIES",
    "Agent",
    "AgentRun",
    "Check",
    "Contest",
    "ContestScore",
    "Evaluation",
    "GameSpec",
    "Loader",
    "Notation",
    "OptionValue",
    "PlayerSide",
    "Probes",
    "Program",
    "RefereeSide",
    "Reply",
    "RuleOption",
    "Seat",
    "Steer",
    "Supervision",
    "Watch",
    "keep_move",
    "keep_outcome",
    "program_problem",
    "split_command",
    "win_draw_loss",
]
