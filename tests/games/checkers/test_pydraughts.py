"""Checkers against pydraughts (variant ``english``), an independent library.

Random games are played in both at once; in every position reached the two legal
move sets must be the same, each move taken as its full path of squares. pydraughts
numbers the squares as we do and its first mover starts on 1-12 like our red.
Its own draw rules differ from the contest's ruling, so a game is compared only
while both say it goes on.
"""

from __future__ import annotations

import random

from draughts import Board

from arbiter.errors import Reason
from arbiter.games.checkers.rules import Checkers


def paths(game: Checkers, s) -> dict[tuple[int, ...], object]:
    return {tuple(c + 1 for c in m.path): m for m in game.legal_moves(s)}


def test_move_sets_agree_along_random_games(core_path: str) -> None:
    game = Checkers()
    # each core meets its own games; pydraughts is the slow part (9 ms a position),
    # so the pure rules, the reference the compiled core is held to along random and
    # long games (tests/test_core.py), meet 80 games and the compiled core 30
    rng = random.Random(2011 if core_path != "pure" else 2012)
    games = 80 if core_path == "pure" else 30
    positions = captures = multi = wins = 0
    for _ in range(games):
        s, board = game.initial(), Board(variant="english")
        while game.outcome(s) is None and not board.is_over():
            theirs = {tuple(m.steps_move): m for m in board.legal_moves()}
            ours = paths(game, s)
            assert sorted(ours) == sorted(theirs), f"position {positions}"
            key = rng.choice(sorted(ours))
            m = ours[key]
            captures += bool(m.captures)
            multi += len(m.captures) > 1
            s = game.apply(s, m)
            board.push(theirs[key])
            positions += 1
        out = game.outcome(s)
        if out is not None and out.reason in (Reason.NO_PIECES, Reason.NO_MOVES):
            # a win by the rules: pydraughts agrees who won (its 1 is our seat 0)
            assert board.is_over() and board.winner() == out.winner + 1
            wins += 1
        elif out is None:
            assert board.winner() == 0  # only its own draw rules end a game early
    assert wins > games * 5 // 6
    assert positions > games * 33 and captures > games * 10 // 3 and multi > games // 6
