"""Generic checks every game must pass (OpenSpiel ``random_sim_test``, pgx ``api_test``)."""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterator
from typing import Any

import pytest

from arbiter.contract import GameSpec
from arbiter.errors import IllegalMove
from arbiter.game import RuleEnd, play
from arbiter.play.replay import replay
from arbiter.record import GameRecord


def check_game(
    spec: GameSpec[Any, Any], n_games: int = 20, seed: int = 0, max_plies: int = 300
) -> None:
    """Plays random games and checks the API invariants of ``spec``'s game.

    Legal moves are non-empty until the game ends and empty after, sorted and
    deterministic; ``apply`` leaves its input unchanged; every move's contest text,
    from either seat's side, judges back to the move (every move of the first 40
    positions of a game and of every tenth after); positions round-trip through
    their text; games end within the ply cap; ``play`` refuses a move after the end;
    the game's record, in the first seat's numbering, replays to the same outcome.
    """
    game = spec.make({"max_plies": max_plies})
    notation, referee = spec.notation, spec.contest
    rng = random.Random(seed)
    futures: dict[Hashable, list[object]] = {}  # a position key: its moves, in every game
    for _ in range(n_games):
        s = game.initial()
        texts: list[str] = []
        while (out := game.outcome(s)) is None:
            moves = game.legal_moves(s)
            assert moves, "no legal moves, yet no outcome"
            assert list(moves) == sorted(moves), "legal moves are not sorted"
            assert list(moves) == list(game.legal_moves(s)), "move order is not deterministic"
            back = notation.parse_position(notation.format_position(s))
            assert game.position_key(back) == game.position_key(s)
            key = game.position_key(s)
            seen = futures.setdefault(key, list(moves))
            assert seen == list(moves), "one position key for positions of other moves"
            if len(texts) < 40 or len(texts) % 10 == 0:  # long random games: a sample
                check_notation(spec, game, s)
            m = rng.choice(moves)
            p = game.to_move(s)
            assert referee.judge(game, s, referee.move_text(game, s, m, seat=p), seat=p) == m
            text = referee.move_text(game, s, m, seat=0)
            after = game.apply(s, m)
            assert game.position_key(after) != key, "a move left the position as it was"
            s = after
            texts.append(text)
            assert len(texts) <= max_plies
        assert not out.reason.is_fault, f"the rules ended a game by a fault ({out.reason})"
        assert not isinstance(out.reason, RuleEnd) or out.reason in spec.endings, (
            f"the rules ended a game by {out.reason!r}, an ending the game does not declare"
        )
        assert list(game.legal_moves(s)) == [], "legal moves after the end"
        with pytest.raises(IllegalMove):
            play(game, s, m)
        record = GameRecord(
            spec.name,
            ("a", "b"),
            tuple(texts),
            (0.0,) * len(texts),
            out.winner,
            out.reason,
            options={"max_plies": max_plies},
            score=spec.score(game, s, out),
        )
        assert replay(record) == out
        assert replay(GameRecord.from_json(record.to_json())) == out, "read back, it differs"


SAMPLE_MOVES = 48
"""Of a position with more legal moves, :func:`check_notation` checks this many spread
evenly over them (Halma positions have a few hundred)."""


def check_notation(spec: GameSpec[Any, Any], game: Any, s: Any) -> None:
    """Every legal move of ``s`` (a sample of :data:`SAMPLE_MOVES` where there are
    more), written from either seat's side: its contest text judges back to it, and
    its plain notation resolves back to it."""
    moves = list(game.legal_moves(s))
    sample = moves[:: -(-len(moves) // SAMPLE_MOVES)] if moves else moves
    for seat in range(2):
        for m in sample:
            text = spec.contest.move_text(game, s, m, seat=seat)
            assert spec.contest.judge(game, s, text, seat=seat) == m
            plain = spec.notation.format_move(m, seat=seat)
            assert spec.notation.resolve_move(plain, s, seat=seat) == m
    back = spec.notation.parse_position(spec.notation.format_position(s))
    assert spec.notation.format_position(back) == spec.notation.format_position(s)


def random_game(game: Any, seed: int, plies: int) -> Iterator[Any]:
    """Each position of a seeded random game from the start while it goes on, at most
    ``plies`` of them."""
    rng = random.Random(seed)
    s = game.initial()
    for _ in range(plies):
        if game.outcome(s) is not None:
            return
        yield s
        s = game.apply(s, rng.choice(game.legal_moves(s)))


def random_position(spec: GameSpec[Any, Any], game: Any, seed: int, plies: int) -> Any:
    """The position after up to ``plies`` random moves from the start."""
    rng = random.Random(seed)
    s = game.initial()
    for _ in range(plies):
        if game.outcome(s) is not None:
            break
        s = game.apply(s, rng.choice(game.legal_moves(s)))
    return s
