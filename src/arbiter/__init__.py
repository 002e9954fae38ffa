"""arbiter: rules engines, referees, agents and tournaments for game-AI programming contests.

The names most callers need are re-exported here; games are found with
:func:`arbiter.games.find_game`.
"""

from arbiter import errors
from arbiter.clock import Clock, TimeControl
from arbiter.errors import Reason
from arbiter.game import Game, Outcome, Player, play

__all__ = ["Clock", "Game", "Outcome", "Player", "Reason", "TimeControl", "errors", "play"]
__version__ = "0.1.0"
