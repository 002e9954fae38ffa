"""Tournaments: schedules, running games, storing results, ratings."""
