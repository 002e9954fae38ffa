"""A match from Python, as the README shows it: the library ``arbiter match`` calls."""

from __future__ import annotations

import sys

import pytest

from arbiter.errors import ConfigError
from arbiter.record import read_records
from arbiter.tournament.match import Match
from arbiter.tournament.sprt import Sprt

PROGRAM = f"{sys.executable} -m arbiter.cli agent votey --engine random"


def test_a_match_between_a_program_and_an_engine_from_python(tmp_path) -> None:
    record = tmp_path / "games.jsonl"
    match = Match.between(
        "votey",
        PROGRAM,
        "greedy",
        names=["prog", "greedy"],
        games=2,
        move_time=2,
        record=str(record),
    )
    games = list(match.play())
    assert [g.job.number for g in sorted(games, key=lambda g: g.job.number)] == [1, 2]
    # seats swapped within the pair: the program sat first once, second once
    assert sorted(g.first for g in games) == [0, 1]
    assert sum(match.score.points) == 2 and match.played == 2
    stored = [r for _, r in read_records(record)]
    assert len(stored) == 2 and {r.players for r in stored} == {
        ("prog", "greedy"),
        ("greedy", "prog"),
    }
    assert any(line.startswith("prog:") for line in match.summary())


def test_an_sprt_stops_the_match_once_it_decides() -> None:
    # greedy against random: an easy H1 for a wide, cheap test
    match = Match.between(
        "votey", "greedy", "random", games=200, move_time=1, sprt=Sprt.parse("0,400,0.2,0.2")
    )
    games = list(match.play())
    assert games[-1].sprt is not None and games[-1].sprt.decision == "H1"
    assert len(games) < 200 and len(games) % 2 == 0


def test_a_bad_agent_or_directory_is_named_before_any_game() -> None:
    with pytest.raises(ConfigError, match="no-such-program-xyz"):
        Match.between("votey", "no-such-program-xyz", "random")
    with pytest.raises(ConfigError, match="no directory"):
        Match.between("halma", "random", "random", dirs=["/nonexistent", None])


def test_a_resumed_match_counts_what_its_record_holds_and_plays_only_the_rest(tmp_path) -> None:
    """Stopped mid-pair after three games and resumed to six, a match ends as one
    played straight through: each game once in the record, the pair split by the stop
    counted whole, the score and pairs the same."""
    record = tmp_path / "games.jsonl"

    def match(games: int, path: str, resume: bool = False) -> Match:
        return Match.between(
            "votey", "greedy", "random", games=games, move_time=1, record=path, resume=resume
        )

    first = match(3, str(record))
    assert len(list(first.play())) == 3
    resumed = match(6, str(record), resume=True)
    played = list(resumed.play())
    assert sorted(g.job.number for g in played) == [4, 5, 6]
    assert resumed.resumed == 3 and resumed.played == 6
    assert sorted(r.round for _, r in read_records(record)) == [1, 2, 3, 4, 5, 6]
    straight = match(6, str(tmp_path / "straight.jsonl"))
    list(straight.play())
    assert resumed.score.points == straight.score.points
    assert resumed.pentanomial == straight.pentanomial and sum(resumed.pentanomial) == 3


def test_a_decided_sprt_resumed_plays_nothing_more(tmp_path) -> None:
    record = str(tmp_path / "games.jsonl")
    sprt = Sprt.parse("0,400,0.2,0.2")
    decided = Match.between(
        "votey", "greedy", "random", games=200, move_time=1, sprt=sprt, record=record
    )
    n = len(list(decided.play()))
    again = Match.between(
        "votey", "greedy", "random", games=200, move_time=1, sprt=sprt, record=record, resume=True
    )
    assert list(again.play()) == [] and again.resumed == n
    assert again.pentanomial == decided.pentanomial
    # its summary says where the test stands, as the finished match's did
    standing = [line for line in again.summary() if line.startswith("SPRT")]
    assert standing == [line for line in decided.summary() if line.startswith("SPRT")]
    assert standing[0].startswith("SPRT [0, 400]: LLR ") and standing[0].endswith("accepts H1")


def test_resuming_another_matchs_record_or_none_is_refused(tmp_path) -> None:
    record = str(tmp_path / "games.jsonl")
    list(Match.between("votey", "greedy", "random", games=2, move_time=1, record=record).play())
    other = Match.between(
        "votey", "greedy", "random", names=["g", "r"], games=2, record=record, resume=True
    )
    with pytest.raises(ConfigError, match=r"games.jsonl:\d: game \d .* is not one this match"):
        other.play()
    shorter = Match.between("votey", "greedy", "random", games=1, record=record, resume=True)
    with pytest.raises(ConfigError, match="is not one this match plays"):
        shorter.play()
    with pytest.raises(ConfigError, match="needs the record file"):
        Match.between("votey", "greedy", "random", resume=True).play()
