"""Agents: programs that choose moves, generic over every :class:`~arbiter.game.Game`."""
