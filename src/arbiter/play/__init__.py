"""Playing games by their names: series of games in parallel (:mod:`~arbiter.play.series`,
:mod:`~arbiter.play.pool`), re-verifying records (:mod:`~arbiter.play.replay`) and
checking a contestant's program (:mod:`~arbiter.play.checkagent`).

These modules look games up in the registry (:mod:`arbiter.games`), so they sit above
it and above the referee, which knows only the one game it is handed.
"""
