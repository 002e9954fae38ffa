"""Terminal play with scripted input."""

from __future__ import annotations

from arbiter.agents.random import RandomAgent
from arbiter.errors import Reason
from arbiter.games import find_game
from arbiter.human import play_terminal


def test_person_is_asked_again_after_bad_input_and_can_list_moves() -> None:
    spec = find_game("votey")
    entries = iter(["hello", "1418", "moves", "1434", "quit"])
    shown: list[str] = []
    out = play_terminal(
        spec,
        spec.make(),
        0,
        RandomAgent(),
        0.1,
        read=lambda prompt: next(entries),
        write=shown.append,
    )
    text = "\n".join(shown)
    assert "not played: invalid votey move 'hello'" in text
    assert "not played: illegal votey move '1418'" in text
    assert "1432 1434 1436" in text
    assert "random plays" in text
    assert "[w]" in text  # the engine's last move is marked
    assert out.winner == 1 and out.reason == Reason.ABORTED


def test_game_ends_with_result_and_reason() -> None:
    spec = find_game("votey")
    game = spec.make(max_plies=2)
    shown: list[str] = []
    out = play_terminal(
        spec, game, 1, RandomAgent(), 0.1, read=lambda prompt: "2123", write=shown.append
    )
    assert out.reason == Reason.MOVE_LIMIT
    assert shown[-1] == "Draw (move limit)."
