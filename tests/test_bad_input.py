"""Any text at all gets a clean error from the parsers, never another exception."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.clock import TimeControl
from arbiter.errors import AgentFault, ConfigError, IllegalMove, NotationError, RecordError
from arbiter.games import find_game, game_names
from arbiter.record import GameRecord

# text that looks a little like moves, positions and numbers, and some that does not
LINES = st.one_of(
    st.text(max_size=40),
    st.text(alphabet="0123456789-x/ bw.", max_size=80),
    st.from_regex(r"-?[0-9]{1,5}(x[0-9]{1,3}){0,3}", fullmatch=True),
)


@pytest.mark.parametrize("name", game_names())
@settings(max_examples=300, deadline=None)
@given(text=LINES)
def test_move_text_gives_a_clean_error_or_a_legal_move(name: str, text: str) -> None:
    spec = find_game(name)
    game = spec.make()
    s = game.initial()
    try:
        m = spec.contest.judge(game, s, text, seat=0)
    except (NotationError, IllegalMove, AgentFault) as e:
        assert str(e)
    else:
        assert m in game.legal_moves(s)


@pytest.mark.parametrize("name", game_names())
@settings(max_examples=300, deadline=None)
@given(text=LINES)
def test_position_text_gives_a_clean_error_or_a_position(name: str, text: str) -> None:
    spec = find_game(name)
    try:
        s = spec.notation.parse_position(text)
    except NotationError as e:
        assert str(e)
    else:
        spec.make().legal_moves(s)  # a parsed position is usable


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(st.text(max_size=60), st.from_regex(r"\{.*\}", fullmatch=True)))
def test_record_lines_give_a_clean_error(text: str) -> None:
    try:
        GameRecord.from_json(text)
    except RecordError as e:
        assert str(e)


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet="0123456789+/:.=st otmargininf", max_size=20))
def test_time_control_text_gives_a_clean_error(text: str) -> None:
    try:
        tc = TimeControl.parse(text)
    except ConfigError as e:
        assert str(e)
    else:
        assert TimeControl.parse(str(tc)) == tc
