"""The drain stop: the first Ctrl-C lets the games under way end (and be kept) and
starts no more; the second stops now."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import pytest

from arbiter.play.series import DRAIN
from arbiter.tournament.match import Match


@pytest.fixture
def interruptible() -> Iterator[None]:
    """Ctrl-C raises ``KeyboardInterrupt`` here, as in a terminal, whatever the suite
    was started with (under ``nohup``, cron or a CI step SIGINT may be ignored)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def test_the_first_interrupt_drains_and_the_second_stops_now(interruptible: None) -> None:
    said: list[str] = []
    with DRAIN.on_interrupt(said.append):
        os.kill(os.getpid(), signal.SIGINT)
        assert DRAIN.requested and "Ctrl-C again to stop now" in said[0]
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back
    DRAIN.requested = False


@pytest.mark.parametrize("concurrency", [1, 2])
def test_a_drained_match_finishes_the_games_under_way_and_starts_none(concurrency: int) -> None:
    match = Match.between(
        "votey", "random", "random", games=12, move_time=0.01, concurrency=concurrency
    )
    played = []
    try:
        for game in match.play():
            played.append(game)
            DRAIN.requested = True  # as the first Ctrl-C does
    finally:
        DRAIN.requested = False
    # the game that ended, and at most the ones under way beside it: whole games
    assert 1 <= len(played) <= concurrency
    assert all(not g.record.outcome.reason.is_fault for g in played)
    assert match.played == len(played)
