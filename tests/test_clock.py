"""Time controls: text round trips, bad text, and the clock's arithmetic."""

from __future__ import annotations

import pytest

from arbiter.clock import Clock, TimeControl
from arbiter.errors import ConfigError, Timeout


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("inf", "inf"),
        ("st=60", "st=60"),
        ("40/120+1", "40/120+1"),
        ("2:30+5", "150+5"),
        ("1:59.5", "119.5"),  # the most seconds m:ss may have
        ("300 ot=1", "300 ot=1"),
        ("st=1 margin=0.25", "st=1 margin=0.25"),
    ],
)
def test_text_round_trips(text: str, canonical: str) -> None:
    tc = TimeControl.parse(text)
    assert str(tc) == canonical
    assert TimeControl.parse(str(tc)) == tc


@pytest.mark.parametrize(
    "text", ["", "abc", "0/10", "10+x", "st=-1", "300 foo=1", "nan", "1:60", "2:-5", "x:30"]
)
def test_bad_text_names_itself(text: str) -> None:
    with pytest.raises(ConfigError) as e:
        TimeControl.parse(text)
    assert repr(text) in str(e.value)


def test_per_move_clock_flags_only_the_slow_move() -> None:
    clock = Clock.start(TimeControl.per_move_seconds(1.0))
    clock = clock.charge(0, 0.99)
    assert clock.limit_for(0).time == 1.0
    with pytest.raises(Timeout, match=r"1\.20s"):
        clock.charge(1, 1.2)


def test_game_clock_counts_down_and_adds_increment() -> None:
    clock = Clock.start(TimeControl.parse("10+1"))
    clock = clock.charge(0, 3.0)
    assert clock.remaining == (8.0, 10.0)
    assert clock.limit_for(0).my_clock == 8.0
    with pytest.raises(Timeout):
        clock.charge(1, 10.5)


def test_moves_per_period_refills() -> None:
    clock = Clock.start(TimeControl.parse("2/10"))
    clock = clock.charge(0, 4.0).charge(0, 4.0)
    assert clock.remaining[0] == 12.0 and clock.moves_left[0] == 2


def test_overtime_after_base_time() -> None:
    clock = Clock.start(TimeControl.parse("5 ot=1"))
    clock = clock.charge(0, 5.5)  # crosses into overtime within the 1 s allowance
    assert clock.in_overtime(0)
    assert clock.limit_for(0).time == 1.0
    clock = clock.charge(0, 0.9)
    with pytest.raises(Timeout):
        clock.charge(0, 1.1)


def test_margin_is_grace() -> None:
    clock = Clock.start(TimeControl.parse("st=1 margin=0.5"))
    clock.charge(0, 1.4)
    with pytest.raises(Timeout):
        clock.charge(0, 1.6)


def test_overtime_clamps_the_base_at_zero_and_then_allows_each_move_its_own() -> None:
    clock = Clock.start(TimeControl.parse("5 ot=1"))
    clock = clock.charge(0, 3.0)
    assert clock.remaining == (2.0, 5.0) and not clock.in_overtime(0)
    assert clock.allowance(0) == 3.0  # what is left of the base, plus one overtime move
    with pytest.raises(Timeout):
        clock.charge(0, 3.1)
    clock = clock.charge(0, 2.9)
    assert clock.remaining[0] == 0.0  # clamped at zero, not -0.9
    assert clock.in_overtime(0) and clock.allowance(0) == 1.0
    clock = clock.charge(0, 0.9)
    assert clock.remaining == (0.0, 5.0)


def test_a_game_clock_without_overtime_goes_below_zero_only_within_the_margin() -> None:
    clock = Clock.start(TimeControl.parse("2 margin=0.5"))
    clock = clock.charge(0, 2.3)
    assert clock.remaining[0] == pytest.approx(-0.3)
    assert clock.allowance(0) == 0.5  # nothing left but the margin


def test_kill_deadline_is_apart_from_the_flag() -> None:
    clock = Clock.start(TimeControl.parse("10 kill=2"))
    assert (clock.allowance(0), clock.kill_at(0)) == (10.0, 12.0)
    with pytest.raises(Timeout):
        clock.charge(0, 10.5)  # the flag falls at 10 s, though the program ran on to 12 s
    assert str(TimeControl.parse("10 kill=2")) == "10 kill=2"


def test_the_margin_is_grace_in_overtime_too_by_value() -> None:
    """Chinese checkers' clock with a margin: 5 s, then 1 s a move, 0.25 s of grace.
    Crossing into overtime a move may use what is left, one overtime move and the
    margin; in overtime each move 1.25 s; the kill comes kill_after later still."""
    clock = Clock.start(TimeControl.parse("5 ot=1 margin=0.25 kill=0.5"))
    assert clock.allowance(0) == 6.25 and clock.kill_at(0) == 6.75
    clock = clock.charge(0, 6.2)  # within 5 + 1 + 0.25
    assert clock.in_overtime(0) and clock.remaining[0] == 0.0
    assert clock.allowance(0) == 1.25 and clock.kill_at(0) == 1.75
    assert clock.limit_for(0).time == 1.0  # an agent is told the overtime, not the grace
    clock = clock.charge(0, 1.24)
    with pytest.raises(Timeout, match=r"^seat 0: 1\.26s > 1\.25s$"):
        clock.charge(0, 1.26)
    assert clock.allowance(1) == 6.25  # the other seat's clock is untouched


def test_a_move_that_uses_exactly_its_allowance_is_in_time() -> None:
    for text in ("st=1", "60", "40/60", "60+1", "10 ot=1"):
        clock = Clock.start(TimeControl.parse(text))
        allowed = clock.allowance(0)
        assert allowed is not None
        clock.charge(0, allowed)  # on the flag, not past it
        with pytest.raises(Timeout):
            Clock.start(TimeControl.parse(text)).charge(0, allowed + 1e-6)


def test_an_untimed_seat_has_no_limit_while_the_other_plays_on_the_clock() -> None:
    """A person against a contest's program: the program's clock counts down and
    falls as it would; the person's never does, for any game clock."""
    for text in ("3", "st=1", "300 ot=1", "2/10", "10+1"):
        clock = Clock.start(TimeControl.parse(text), untimed=frozenset({1}))
        assert clock.allowance(1) is None and clock.limit_for(1).time is None
        assert clock.limit_for(1).my_clock is None
        slow = clock.charge(1, 1e6)  # a person who thought for days
        assert slow == clock and not slow.base_spent(1, 1e9) and not slow.in_overtime(1)
        assert clock.allowance(0) is not None
        with pytest.raises(Timeout):
            clock.charge(0, 1e6)
    timed = Clock.start(TimeControl.parse("10+1"), untimed=frozenset({0}))
    assert timed.charge(1, 3.0).remaining == (float("inf"), 8.0)


def test_only_a_seat_of_the_game_can_be_untimed() -> None:
    with pytest.raises(ValueError, match=r"untimed seats \[2\] are not among 2 seats"):
        Clock.start(TimeControl.parse("3"), untimed=frozenset({2}))
