"""A person's clock in a browser game: on the game's clock by default (``arbiter
serve``, where the person chose it), without one against a contest's program (the
contest server's games against entrants), while the program plays on it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from arbiter.agents.spec import AgentSpec
from arbiter.clock import TimeControl
from arbiter.errors import Reason
from arbiter.games import find_game
from arbiter.web.sessions import human_game

PER_MOVE = 0.2
"""Seconds a move on the game's clock; the person takes twice as long. The engine,
charged as Votey charges (CPU time), needs a small part of it for a random move."""


async def a_slow_first_move(person_timed: bool) -> dict[str, Any]:
    """The snapshot after a person who moves first takes longer than the clock
    allows, against Votey's random engine on ``st=PER_MOVE``."""
    spec = find_game("votey")
    tc = TimeControl.parse(f"st={PER_MOVE}")
    session = human_game(
        spec, 0, AgentSpec.parse("random"), tc, PER_MOVE, person_timed=person_timed
    )
    try:
        await session.ready()
        await asyncio.sleep(2 * PER_MOVE)
        s = session.state
        move = session.game.legal_moves(s)[0]
        await session.play(list(spec.board_view().clicks.move_path(s, move)))
        await session.ready()
        return session.snapshot()
    finally:
        await session.stop()


def test_a_person_on_the_clock_loses_a_move_made_too_late() -> None:
    snap = asyncio.run(a_slow_first_move(person_timed=True))
    assert snap["ply"] == 0 and snap["result"] is not None
    assert snap["result"]["reason"] == Reason.TIME.value and snap["result"]["winner"] == 1


def test_a_person_off_the_clock_moves_when_ready_and_the_program_answers_on_it() -> None:
    snap = asyncio.run(a_slow_first_move(person_timed=False))
    assert snap["result"] is None, snap["result"]
    assert snap["ply"] == 2 and snap["your_turn"]  # its move stood; the engine answered
    assert snap["clocks"][0] is None  # shown as no limit
    assert snap["clocks"][1] == pytest.approx(PER_MOVE)
