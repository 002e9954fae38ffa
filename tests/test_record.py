"""Game records: JSON lines round trip, and replay finds the first discrepancy."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from arbiter.errors import Reason, RecordError
from arbiter.play.replay import replay
from arbiter.record import GameRecord, append_record, read_records

from .games.votey.test_rules import FIGURE3


def figure3_win() -> GameRecord:
    return GameRecord(
        "votey",
        ("a", "b"),
        ("-2454",),
        (0.5,),
        0,
        Reason.CONNECTED,
        start=FIGURE3 + " b",
    )


def opening() -> GameRecord:
    return GameRecord(
        "votey",
        ("a", "b"),
        ("1434", "2123"),
        (0.1, 0.2),
        1,
        Reason.ILLEGAL_MOVE,
        detail="illegal",
        offending="1418",
    )


def test_json_round_trip(tmp_path) -> None:
    path = tmp_path / "games.jsonl"
    append_record(path, figure3_win())
    append_record(path, opening())
    got = [r for _, r in read_records(path)]
    assert got == [figure3_win(), opening()]
    line = json.loads(path.read_text().splitlines()[0])
    assert line["moves"] == ["-2454"] and line["winner"] == 0 and line["reason"] == "connected"


def test_replay_verifies_good_records() -> None:
    assert replay(figure3_win()).winner == 0
    assert replay(opening()).reason == Reason.ILLEGAL_MOVE
    assert replay(dataclasses.replace(opening(), score=(0.0, 1.0))).winner == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"moves": ("1434", "1418")}, "move 2 '1418'"),
        ({"moves": ("1434", "2x23")}, "move 2 '2x23'"),
        ({"winner": 0}, "blames"),
        ({"offending": "8262"}, "good move"),
        ({"offending": "8262", "reason": Reason.FALSE_CLAIM}, "good move"),
        ({"offending": "zz", "reason": Reason.ILLEGAL_MOVE}, "zz"),
        ({"reason": Reason.CONNECTED, "offending": None}, "the game going on"),
        ({"score": (0.5, 0.5)}, r"scores \(0.5, 0.5\), but the contest scores \(0.0, 1.0\)"),
    ],
)
def test_replay_reports_the_first_discrepancy(change, message) -> None:
    bad = dataclasses.replace(opening(), **change)
    with pytest.raises(RecordError, match=message):
        replay(bad)


def test_wrong_claim_in_record_is_caught() -> None:
    bad = dataclasses.replace(figure3_win(), moves=("2454",))
    with pytest.raises(RecordError, match="not negated"):
        replay(bad)


def test_move_after_the_end_is_caught() -> None:
    bad = dataclasses.replace(figure3_win(), moves=("-2454", "3634"))
    with pytest.raises(RecordError, match="after the game ended"):
        replay(bad)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "not a JSON object"),
        ('{"game": "votey"}', "missing field 'players'"),
        ('{"game":"votey","players":[],"moves":[],"winner":3,"reason":"connected"}', "winner"),
        ('{"game":"votey","players":[],"moves":[],"winner":0,"reason":"Won!"}', "'Won!'"),
        (
            '{"game":"votey","players":["a","b"],"moves":["1434"],"winner":0,'
            '"reason":"connected","times":["x"]}',
            "seconds from 0 up, not 'x'",
        ),
        ('{"game":"votey","players":5,"moves":[],"winner":0,"reason":"connected"}', "two names"),
        (
            '{"game":"votey","players":["a","b"],"moves":[],"winner":0,"reason":"connected",'
            '"options":[1]}',
            "wrong type",
        ),
    ],
)
def test_broken_lines_name_file_and_line(tmp_path, line, message) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(opening().to_json() + "\n" + line + "\n")
    with pytest.raises(RecordError, match=f"bad.jsonl:2: .*{message}"):
        list(read_records(path))


def test_bad_start_position_is_a_record_error() -> None:
    bad = dataclasses.replace(figure3_win(), start="nonsense b")
    with pytest.raises(RecordError, match="bad start position"):
        replay(bad)


def test_unknown_rule_option_is_a_record_error() -> None:
    bad = dataclasses.replace(figure3_win(), options={"speed": 3})
    with pytest.raises(RecordError, match="cannot set up"):
        replay(bad)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            '{"game":"votey","players":["a","b"],"moves":[],"winner":0,"reason":"time",'
            '"options":{"max_plies":"x"}}',
            "must be a whole number",
        ),
        (
            '{"game":"votey","players":["a","b"],"moves":[],"winner":0,"reason":"time",'
            '"seed":Infinity}',
            "wrong type",
        ),
        (
            '{"game":"votey","players":["a","b"],"moves":[],"winner":null,"reason":"crash"}',
            "cannot end in a draw",
        ),
        (
            '{"game":"votey","players":["a","b"],"moves":[],"winner":0,"reason":"won"}',
            "unknown reason 'won': votey has no such ending",
        ),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ],
)
def test_records_that_contradict_themselves_or_break_the_parser_are_record_errors(
    line: str, message: str
) -> None:
    with pytest.raises(RecordError, match=message):
        replay(GameRecord.from_json(line))


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('"moves":["1434"],"times":[0.1,0.2],"winner":0', "one time for each move"),
        ('"moves":["1434"],"times":[NaN],"winner":0', "seconds from 0 up, not nan"),
        ('"moves":["1434"],"times":[-1],"winner":0', "seconds from 0 up, not -1"),
        ('"moves":[],"winner":true', "'winner' must be 0, 1 or null, not True"),
        ('"moves":[1434],"winner":0', "'moves' must be a list of strings"),
        ('"moves":"1434","winner":0', "'moves' must be a list of strings"),
        ('"moves":[],"winner":0,"game":7', "'game' must be a game's name, not 7"),
        ('"moves":[],"winner":0,"start":7', "'start' must be a position text"),
        ('"moves":[],"winner":0,"offending":[]', "'offending' must be text"),
        ('"moves":[],"winner":0,"score":[1]', "'score' must be two numbers"),
        ('"moves":[],"winner":0,"score":[true,0]', "'score' must be two numbers"),
        ('"moves":[],"winner":0,"seal":1', "'seal' must be text"),
        ('"moves":[],"winner":0,"signature":{}', "'signature' must be text"),
        ('"moves":[],"winner":0,"round":"2"', "'round' must be a whole number"),
        ('"moves":[],"winner":0,"round":true', "'round' must be a whole number"),
    ],
)
def test_nonsense_in_a_record_is_named(line: str, message: str) -> None:
    text = '{"game":"votey","players":["a","b"],"reason":"time",' + line + "}"
    with pytest.raises(RecordError, match=re.escape(message)):
        GameRecord.from_json(text)


@pytest.mark.parametrize("players", ['["a"]', '["a","b","c"]', '["a",""]', '"ab"'])
def test_a_record_has_two_players(players: str) -> None:
    text = '{"game":"votey","moves":[],"winner":0,"reason":"time","players":' + players + "}"
    with pytest.raises(RecordError, match="must be two names"):
        GameRecord.from_json(text)


def test_replay_unsealed_names_each_bad_record_without_a_traceback(tmp_path) -> None:
    import subprocess
    import sys

    lines = [
        '{"game":"votey","players":["a","b"],"moves":["1434"],"times":[1,2,3],"winner":0,'
        '"reason":"time"}',
        '{"game":"votey","players":["a"],"moves":[],"winner":0,"reason":"time"}',
    ]
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "replay", "--unsealed", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1 and "Traceback" not in done.stdout + done.stderr
    assert (
        "bad.jsonl:1: field 'times'" in done.stdout
        and "bad.jsonl:2: field 'players'" in done.stdout
    )


CHANGED = {
    "game": "checkers",
    "players": ("b", "a"),
    "moves": ("1434", "2124"),
    "times": (0.1, 0.25),
    "winner": 0,
    "reason": Reason.TIME,
    "detail": "legal",
    "offending": "1419",
    "time_control": "st=1",
    "seed": 7,
    "options": {"max_plies": 10},
    "start": FIGURE3 + " w",
    "date": "2030-01-01T00:00:00+00:00",
    "round": 3,
    "score": (1.0, 0.0),
}


@pytest.mark.parametrize(
    "name", [f.name for f in dataclasses.fields(GameRecord) if f.name not in ("seal", "signature")]
)
def test_the_seal_covers_every_field_of_a_record(name: str) -> None:
    key = b"k" * 32
    record = dataclasses.replace(opening(), round=1, date="2026-01-01T00:00:00+00:00")
    sealed = GameRecord.from_json(record.to_json(key))
    assert sealed.sealed_by(key)
    changed = dataclasses.replace(sealed, **{name: CHANGED[name]})
    assert getattr(changed, name) != getattr(sealed, name)
    # the same seal on a record changed in this one field no longer holds
    assert not GameRecord.from_json(changed.to_json()).sealed_by(key)
    assert not sealed.sealed_by(b"x" * 32)


def test_the_fields_a_signature_covers_are_every_field_but_the_seal_and_signature() -> None:
    """A field added to the record and left out of what is signed would go unsigned
    (and unwritten)."""
    from dataclasses import fields

    from arbiter.errors import Reason
    from arbiter.record import GameRecord

    record = GameRecord("votey", ("a", "b"), ("1234",), (0.5,), 0, Reason.CONNECTED)
    covered = set(json.loads(record.canonical()))
    assert covered == {f.name for f in fields(GameRecord)} - {"seal", "signature"}
    assert GameRecord.from_json(record.to_json()) == record


FAULTS_BY_TEXT = {Reason.ILLEGAL_MOVE, Reason.MALFORMED, Reason.FALSE_CLAIM, Reason.UNCLAIMED_WIN}
FAULTS_BY_HOW = {
    Reason.EARLY_OUTPUT,
    Reason.FORKED,
    Reason.TIME,
    Reason.MEMORY,
    Reason.CRASH,
    Reason.ADJUDICATED,
    Reason.RESIGNED,
    Reason.ABORTED,
    Reason.FORFEIT,
}


@pytest.mark.parametrize("reason", list(Reason))
def test_each_reason_is_a_fault_or_a_rule_as_the_platform_rules(reason: Reason) -> None:
    """Faults are the referee's (the offender loses, a contest counts them as irregular);
    the rest are the rules'. A fault in the reply's text is judged again on replay."""
    assert reason.is_fault == (reason in FAULTS_BY_TEXT | FAULTS_BY_HOW)
    assert reason.judged_from_text == (reason in FAULTS_BY_TEXT)


def test_a_signature_is_kept_through_json_and_an_unsigned_record_has_none() -> None:
    """A server's signature travels in the record's line (exports, replays), and a
    record nobody signed carries no empty one to be mistaken for a forgery."""
    unsigned = GameRecord("votey", ("a", "b"), (), (), 0, Reason.CRASH)
    assert "signature" not in json.loads(unsigned.to_json())
    signed = dataclasses.replace(unsigned, signature="c2lnbmVk")
    assert GameRecord.from_json(signed.to_json()).signature == "c2lnbmVk"
