"""The referee side of each protocol, line by line, against scripted programs."""

from __future__ import annotations

import asyncio

import pytest

from arbiter.clock import TimeControl
from arbiter.contract import Program
from arbiter.errors import Reason
from arbiter.games import find_game
from arbiter.games.checkers.notation import board_rows, resolve_move
from arbiter.games.checkers.referee import CheckersSeat
from arbiter.games.votey.notation import parse_position
from arbiter.games.votey.referee import VoteySeat
from arbiter.referee.match import play_game
from arbiter.referee.scripted import ScriptedChannel

from ..games.votey.test_rules import FIGURE3


def seat(cls, name: str, channel: ScriptedChannel):
    return cls(Program(("unused",), name=name), transport_factory=lambda argv, cwd: channel)


def play(spec_name: str, seats, start=None, move_time: float = 1.0):
    spec = find_game(spec_name)
    tc = TimeControl.per_move_seconds(move_time)
    return asyncio.run(play_game(spec, spec.make(), seats, tc, start=start))


def test_votey_moves_are_relayed_and_the_offender_gets_minus_one() -> None:
    black = ScriptedChannel(greeting=["1434"])
    white = ScriptedChannel()
    white.expect("1434", ["2123"])
    black.expect("2123", ["1418"])  # illegal: row 1 holds 6 pieces
    black.expect("-1")
    record = play("votey", [seat(VoteySeat, "b", black), seat(VoteySeat, "w", white)])
    assert (record.winner, record.reason, record.offending) == (1, Reason.ILLEGAL_MOVE, "1418")
    assert record.moves == ("1434", "2123")
    black.assert_done()
    white.assert_done()
    assert black.closed and white.closed


def test_votey_claimed_win_reaches_the_loser_and_nobody_gets_minus_one() -> None:
    black = ScriptedChannel(greeting=["-2454"])
    white = ScriptedChannel()
    white.expect("-2454")
    start = parse_position(FIGURE3 + " b")
    record = play("votey", [seat(VoteySeat, "b", black), seat(VoteySeat, "w", white)], start)
    assert (record.winner, record.reason) == (0, Reason.CONNECTED)
    black.assert_done()
    white.assert_done()


def test_votey_slow_reply_loses_on_time() -> None:
    black = ScriptedChannel(greeting=["1434"], seconds=1.5)
    black.expect("-1")
    white = ScriptedChannel()
    record = play("votey", [seat(VoteySeat, "b", black), seat(VoteySeat, "w", white)])
    assert (record.winner, record.reason) == (1, Reason.TIME)
    assert record.detail == "1.50s > 1.00s"
    black.assert_done()


def test_checkers_sends_the_board_before_each_move() -> None:
    game = find_game("checkers").make()
    s0 = game.initial()
    s1 = game.apply(s0, resolve_move("9-13", s0, seat=0))
    red, white = ScriptedChannel(), ScriptedChannel()
    for row in board_rows(s0)[:-1]:
        red.expect(row)
    red.expect(board_rows(s0)[-1], ["9-13"])
    for row in board_rows(s1)[:-1]:
        white.expect(row)
    white.expect(board_rows(s1)[-1], ["22x18"])  # a step written as a capture
    record = play("checkers", [seat(CheckersSeat, "r", red), seat(CheckersSeat, "w", white)])
    assert (record.winner, record.reason, record.offending) == (0, Reason.ILLEGAL_MOVE, "22x18")
    assert "'x'" in record.detail
    red.assert_done()
    white.assert_done()


def test_the_waiting_program_is_suspended_from_its_reply_until_it_is_asked() -> None:
    black = ScriptedChannel(greeting=["1434"])
    white = ScriptedChannel()
    white.expect("1434", ["2123"])
    black.expect("2123", ["1418"])
    black.expect("-1")
    play("votey", [seat(VoteySeat, "b", black), seat(VoteySeat, "w", white)])
    assert black.log == [
        "suspend",  # started, waiting for its turn
        "resume",
        "read 1434",
        "suspend",  # white thinks
        "send 2123",
        "resume",
        "read 1418",
        "suspend",
        "resume",  # the game is over: woken to be told and closed
        "send -1",
        "close",
    ]
    assert white.log[:5] == ["suspend", "send 1434", "resume", "read 2123", "suspend"]


def test_a_fault_while_telling_a_seat_after_the_game_is_over_changes_nothing() -> None:
    black = ScriptedChannel(greeting=["-2454"])
    white = ScriptedChannel()
    white.closed = True  # it left: telling it the winning move fails
    start = parse_position(FIGURE3 + " b")
    record = play("votey", [seat(VoteySeat, "b", black), seat(VoteySeat, "w", white)], start)
    assert (record.winner, record.reason) == (0, Reason.CONNECTED)


def test_a_fault_while_telling_a_seat_during_the_game_is_that_seats_loss() -> None:
    black = ScriptedChannel(greeting=["1434"])
    white = ScriptedChannel()
    white.closed = True
    record = play("votey", [seat(VoteySeat, "b", black), seat(VoteySeat, "w", white)])
    assert (record.winner, record.reason, record.moves) == (0, Reason.CRASH, ("1434",))


def test_wall_charging_counts_from_the_message_to_the_reply() -> None:
    from arbiter.clock import Charging
    from arbiter.contract import Supervision

    wall = Supervision(charging=Charging.WALL)

    def timed(name: str, channel: ScriptedChannel) -> VoteySeat:
        return VoteySeat(
            Program(("unused",), name=name),
            supervision=wall,
            transport_factory=lambda argv, cwd: channel,
        )

    black = ScriptedChannel(greeting=["1434"], seconds=5.0, delay=0.3)
    white = ScriptedChannel()
    white.expect("1434", ["2123"])
    black.expect("2123", ["1418"])
    black.expect("-1")
    spec = find_game("votey")
    record = asyncio.run(
        play_game(
            spec, spec.make(), [timed("b", black), timed("w", white)], TimeControl.parse("30")
        )
    )
    # charged the 0.3 s it took, not the 5 s of CPU it claims to have used
    assert 0.3 <= record.times[0] < 5.0
    assert record.reason is Reason.ILLEGAL_MOVE


def test_a_huge_offending_reply_is_kept_in_part_and_shown_escaped_in_part() -> None:
    """A program's bad reply is evidence, kept up to MAX_OFFENDING characters; the
    loss's words show at most a thousand, control characters escaped."""
    from arbiter.errors import visible
    from arbiter.referee.match import MAX_OFFENDING, forfeit

    junk = "\x1b[2J" + "9" * 9000
    black = ScriptedChannel(greeting=[junk])
    white = ScriptedChannel()
    record = play("votey", [seat(VoteySeat, "b", black), seat(VoteySeat, "w", white)])
    assert (record.winner, record.reason) == (1, Reason.MALFORMED)
    assert record.offending is not None and len(record.offending) == MAX_OFFENDING
    assert junk.startswith(record.offending.replace("\\x1b", "\x1b")[:100])
    assert "\x1b" not in record.detail and len(record.detail) < 1100
    assert visible("ab\x07", limit=2) == "ab... (1 more characters)"
    assert visible("a\x07") == "a\\x07"
    with pytest.raises(TypeError, match="not a fault"):
        forfeit(0, ValueError("a bug, not a fault"))
