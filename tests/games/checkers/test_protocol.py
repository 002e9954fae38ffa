"""The checkers engine protocol, agent side, with scripted input."""

from __future__ import annotations

import io

from arbiter.agents.random import RandomAgent
from arbiter.clock import TimeControl
from arbiter.contract import AgentRun
from arbiter.games.checkers.notation import board_rows, resolve_move
from arbiter.games.checkers.player import serve
from arbiter.games.checkers.rules import Checkers


def run(stdin: str, stdout: io.StringIO, stderr: io.StringIO | None = None) -> AgentRun:
    """The streams and clock of an engine run."""
    return AgentRun(
        TimeControl.per_move_seconds(1), io.StringIO(stdin), stdout, stderr or io.StringIO()
    )


def test_engine_answers_each_board_and_stops_at_end_of_input() -> None:
    game = Checkers()
    s = game.initial()
    out = io.StringIO()
    status = serve(RandomAgent(), game, ["1"], run("\n".join(board_rows(s)) + "\n", out))
    assert status == 0
    assert resolve_move(out.getvalue().strip(), s, seat=0) in game.legal_moves(s)


def test_white_engine_answers_the_board_after_reds_move() -> None:
    game = Checkers()
    s0 = game.initial()
    s1 = game.apply(s0, resolve_move("11-15", s0, seat=0))
    out = io.StringIO()
    boards = "\n".join(board_rows(s1)) + "\n"
    assert serve(RandomAgent(), game, ["2"], run(boards, out)) == 0
    reply = out.getvalue().strip()
    assert resolve_move(reply, s1, seat=0) in game.legal_moves(s1)


def test_bad_board_exits_with_status_1() -> None:
    err = io.StringIO()
    status = serve(RandomAgent(), Checkers(), ["1"], run("9" * 8 + "\n" * 8, io.StringIO(), err))
    assert status == 1 and "is not a board row of 8 digits 0-4" in err.getvalue()


def test_next_board_continues_the_game_history() -> None:
    from arbiter.games.checkers.notation import parse_board
    from arbiter.games.checkers.player import _continue

    from .test_rules import pos

    game = Checkers()
    s = pos(red_kings=[1], white_kings=[32])
    mine = game.apply(s, resolve_move("1-5", s, seat=0))
    theirs = game.apply(mine, resolve_move("32-28", mine, seat=0))
    board = parse_board(board_rows(theirs), 0)
    assert board.quiet == 0
    kept, move = _continue(game, mine, board)
    assert kept == theirs and kept.quiet == 2 and len(kept.history) == 2
    assert move == resolve_move("32-28", mine, seat=0)  # the move the engine observes
    # a board no opponent move explains is taken as it is
    assert _continue(game, mine, game.initial()) == (game.initial(), None)


class Script(RandomAgent):
    """An engine that plays the given moves in turn."""

    name = "script"

    def __init__(self, texts: list[str]) -> None:
        super().__init__()
        self.texts = list(texts)

    def choose(self, s, limit):
        return resolve_move(self.texts.pop(0), s, seat=0)


def test_a_board_after_a_threefold_repetition_is_played_from_and_the_end_said() -> None:
    from .test_rules import pos

    game = Checkers()
    s = pos(red_kings=[1], white_kings=[32])
    boards = [s]
    for mine, theirs in [("1-5", "32-28"), ("5-1", "28-32")] * 2:
        s = game.apply(s, resolve_move(mine, s, seat=0))
        s = game.apply(s, resolve_move(theirs, s, seat=0))
        boards.append(s)
    assert game.outcome(s) is not None and game.outcome(s).reason == "repetition"
    out, err = io.StringIO(), io.StringIO()
    text = "".join("\n".join(board_rows(b)) + "\n" for b in boards)
    engine = Script(["1-5", "5-1", "1-5", "5-1", "1-5"])
    assert serve(engine, game, ["1"], run(text, out, err)) == 0, err.getvalue()
    assert out.getvalue().split() == ["1-5", "5-1", "1-5", "5-1", "1-5"]
    assert "ended by repetition" in err.getvalue()
