"""Terminal play with scripted input."""

from __future__ import annotations

import asyncio
import io

import pytest

from arbiter.agents.random import RandomAgent
from arbiter.cli import main
from arbiter.clock import Limit, TimeControl
from arbiter.errors import Reason
from arbiter.games import find_game
from arbiter.referee.events import MovePlayed
from arbiter.referee.human import HumanSeat, terminal_events
from arbiter.referee.match import play_game
from arbiter.referee.seat import LocalSeat
from tests.recorded import instances


def session(
    name: str, entries: list[str], human: int = 0, agent=None, events=None, **rules
) -> tuple:
    """Plays a terminal game through the referee loop with scripted entries (each event
    also appended to ``events``, if given); returns (outcome, lines shown)."""
    spec = find_game(name)
    game = spec.make(rules)
    script = iter(entries)
    shown: list[str] = []

    def read(prompt: str) -> str:
        try:
            return next(script)
        except StopIteration:
            raise EOFError from None

    person = HumanSeat(spec, game, read=read, write=shown.append)
    engine = LocalSeat(agent or RandomAgent(), game, spec.contest, limit=Limit(time=0.1))
    seats = [person, engine] if human == 0 else [engine, person]
    show = terminal_events(spec, human, shown.append)

    def sink(event) -> None:
        if events is not None:
            events.append(event)
        show(event)

    record = asyncio.run(
        play_game(
            spec,
            game,
            seats,
            TimeControl(),
            events=sink,
            takebacks=True,
        )
    )
    return record.outcome, shown


def test_person_is_asked_again_after_bad_input_and_can_list_moves() -> None:
    out, shown = session("votey", ["hello", "1418", "moves", "1434", "quit"])
    text = "\n".join(shown)
    assert "not played: invalid votey move 'hello'" in text
    assert "not played: illegal votey move '1418'" in text
    assert "1432 1434 1436" in text
    assert "white plays" in text
    assert "[w]" in text  # the engine's last move is marked
    assert out.winner == 1 and out.reason == Reason.RESIGNED


def test_game_ends_with_result_and_reason() -> None:
    out, shown = session("votey", ["2123"], human=1, max_plies=2)
    assert out.reason == Reason.MOVE_LIMIT
    assert shown[-1] == "Draw (move limit)."


def test_checkers_board_numbers_squares_and_explains_forced_captures() -> None:
    _, shown = session("checkers", ["11-15", "moves", "quit"])
    spec = find_game("checkers")
    text = "\n".join(shown)
    assert " 1 r" in text and "32 w" in text and "[w]" in text
    # the legal moves after the engine's reply were listed, in order
    game = spec.make()
    s = game.apply(game.initial(), spec.notation.resolve_move("11-15", game.initial(), seat=0))
    replay = RandomAgent()
    replay.reset(game, 1, 0)
    s = game.apply(s, replay.choose(s, Limit()))
    assert " ".join(spec.notation.format_move(m, seat=0) for m in game.legal_moves(s)) in shown


def test_undo_takes_back_the_persons_move_and_the_reply() -> None:
    _, shown = session("votey", ["undo", "1434", "undo", "moves", "quit"])
    assert shown.count("nothing to undo") == 1
    assert "took back your last move" in shown
    # back at the start: the listed moves are the start position's
    spec = find_game("votey")
    game = spec.make()
    start = " ".join(spec.notation.format_move(m, seat=0) for m in game.legal_moves(game.initial()))
    assert shown[shown.index("took back your last move") + 3] == start


def test_each_move_is_taken_back_once_and_no_further_than_the_start() -> None:
    _, shown = session("votey", ["1434", "undo", "undo", "1434", "1232", "undo", "undo", "quit"])
    assert shown.count("took back your last move") == 3
    assert shown.count("nothing to undo") == 1  # the second undo, back at the start


def test_after_a_take_back_the_engine_starts_over_as_it_was() -> None:
    """A take-back gives the engine back its start (its seed's choices), so the same
    move by the person meets the same reply: nothing it saw of the taken-back moves
    stays with it."""
    _, shown = session("votey", ["1434", "undo", "1434", "quit"])
    replies = [line for line in shown if line.startswith("white plays ")]
    assert len(replies) == 2 and replies[0] == replies[1], replies


def test_engine_moves_show_depth_and_score() -> None:
    from arbiter.agents.registry import make_agent

    agent = make_agent(find_game("checkers"), "alphabeta:depth=3")
    _, shown = session("checkers", ["quit"], human=1, agent=agent)
    assert any(line.startswith("red plays ") and "(depth 3, score" in line for line in shown)


@pytest.mark.parametrize(("side", "seat"), [("1", 0), ("2", 1), ("WHITE", 1), ("black", 0)])
def test_the_side_is_chosen_by_its_name_or_by_its_number_from_1(
    side: str, seat: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = find_game("votey")
    assert spec.seat_names == ("black", "white")
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    argv = ["play", "votey", "--as", side, "--engine", "random", "--move-time", "0.1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"you play {spec.seat_names[seat]}, random plays {spec.seat_names[1 - seat]}" in out
    engine_moved = "black plays " in out  # before the person's first turn
    assert engine_moved == (seat == 1), out
    assert f"random wins: {spec.seat_names[1 - seat]} wins by resignation." in out


@pytest.mark.parametrize(
    ("flags", "told"), [([], 1.0), (["--move-time", "0.25"], 0.25), (["--tc", "60"], None)]
)
def test_the_engine_against_a_person_is_told_its_move_time_or_plays_the_clock(
    flags: list[str],
    told: float | None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import arbiter.referee.seat as seat_module

    seats = instances(monkeypatch, seat_module, "LocalSeat")
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "votey", "--engine", "random", *flags]) == 0
    assert [None if s.limit is None else s.limit.time for s in seats] == [told]


def test_the_engine_s_moves_are_shown_in_the_person_s_own_numbering() -> None:
    # Chinese checkers numbers the holes from each player's side: a person playing
    # second reads the engine's moves as it would write them, not as the first does
    events: list = []
    _, shown = session("chinese-checkers", ["quit"], human=1, events=events)
    first = next(e for e in events if isinstance(e, MovePlayed))
    assert first.texts[1] != first.texts[0]  # the two numberings differ for this move
    assert f"plays {first.texts[1]}" in "\n".join(shown)
