"""Terminal play with scripted input."""

from __future__ import annotations

from arbiter.agents.base import Limit
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


def test_checkers_board_numbers_squares_and_explains_forced_captures() -> None:
    spec = find_game("checkers")
    entries = iter(["11-15", "moves", "quit"])
    shown: list[str] = []
    play_terminal(
        spec,
        spec.make(),
        0,
        RandomAgent(),
        0.1,
        read=lambda prompt: next(entries),
        write=shown.append,
    )
    text = "\n".join(shown)
    assert " 1 r" in text and "32 w" in text and "[w]" in text
    # the legal moves after the engine's reply were listed, in order
    game = spec.make()
    s = game.apply(game.initial(), spec.notation.resolve_move("11-15", game.initial()))
    replay = RandomAgent()
    replay.reset(game, 1, 0)
    s = game.apply(s, replay.choose(s, Limit()))
    assert " ".join(spec.notation.format_move(m) for m in game.legal_moves(s)) in shown


def test_undo_takes_back_the_persons_move_and_the_reply() -> None:
    spec = find_game("votey")
    entries = iter(["undo", "1434", "undo", "moves", "quit"])
    shown: list[str] = []
    play_terminal(
        spec,
        spec.make(),
        0,
        RandomAgent(),
        0.1,
        read=lambda prompt: next(entries),
        write=shown.append,
    )
    assert shown.count("nothing to undo") == 1
    assert "took back your last move" in shown
    # back at the start: the listed moves are the start position's
    start = " ".join(
        spec.notation.format_move(m) for m in spec.make().legal_moves(spec.make().initial())
    )
    assert shown[shown.index("took back your last move") + 3] == start


def test_engine_moves_show_depth_and_score() -> None:
    from arbiter.agents.registry import make_agent

    spec = find_game("checkers")
    entries = iter(["quit"])
    shown: list[str] = []
    play_terminal(
        spec,
        spec.make(),
        1,
        make_agent("alphabeta", spec, depth=3),
        1.0,
        read=lambda prompt: next(entries),
        write=shown.append,
    )
    assert any(line.startswith("alphabeta plays ") and "(depth 3, score" in line for line in shown)
