"""The calendar and the final: uploads refused outside ``opens``/``closes``, test
rounds without end under a schedule, and the final as CodeCup plays it (Swiss rounds
among the versions frozen when it began, then the top group's double round robin,
the standings counting only the final's games)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from arbiter.errors import ConfigError
from arbiter.host.archive import UploadError
from arbiter.host.calendar import Calendar, Final, parse_duration, stamp
from arbiter.host.config import ContestConfig, from_dict
from arbiter.host.intake import submit
from arbiter.host.models import Account, Game, Round, Version
from arbiter.host.rounds import (
    RoundError,
    begin_final,
    entrants,
    finish_round_if_done,
    make_round,
    next_round_words,
    next_scheduled,
    round_blocked,
    schedule_due,
)
from arbiter.host.standings import standings_data
from tests.host.contests import play_round, seeded, version

NAMES = ("alice", "bob", "carol", "dave", "erin")


def contest_file(**settings: object) -> ContestConfig:
    return from_dict({"game": "alquerque", **settings}, base=Path("."), stem="c", where="c.toml")


def test_the_calendar_is_read_with_zones_and_a_wrong_one_named() -> None:
    config = contest_file(
        opens="2026-12-01T12:00:00+01:00",
        closes=datetime(2027, 1, 10, 18, tzinfo=UTC),
        schedule={"every": "6h"},
        final={"rounds": 3, "top": 4},
    )
    cal = config.calendar
    assert cal.opens == datetime(2026, 12, 1, 11, tzinfo=UTC)
    assert cal.every == timedelta(hours=6)
    assert cal.final == Final(3, 4, 2)
    for settings, named in (
        ({"closes": "2027-01-10T18:00:00"}, "no time zone"),
        ({"closes": "next friday"}, "not an ISO 8601 time"),
        ({"closes": 20270110}, "must be a time like 2026-12-01T18:00:00"),
        ({"opens": "2027-01-02T00:00:00Z", "closes": "2027-01-01T00:00:00Z"}, "after opens"),
        ({"schedule": {"every": "6 hours"}}, "not a time span"),
        ({"schedule": {"every": "10s"}}, "shorter than a minute"),
        ({"final": {"top": 1}}, "top must be"),
        ({"final": {"rounds": 0}}, "needs Swiss rounds or a top group"),
        ({"final": {"games_per_pair": 3}}, "even"),
    ):
        with pytest.raises(ConfigError, match=named):
            contest_file(**settings)
    assert parse_duration("90m") == timedelta(minutes=90)
    # a minute is the shortest span, itself allowed; a second less is not
    assert parse_duration("1m") == parse_duration("60s") == timedelta(minutes=1)
    with pytest.raises(ConfigError, match="'59s' is shorter than a minute"):
        parse_duration("59s")


def test_uploads_are_refused_outside_the_calendar_with_the_reason(
    tmp_path: Path, database_url: str
) -> None:
    db, config = seeded(tmp_path, database_url, ("alice",))
    past = datetime.now(UTC) - timedelta(days=1)
    future = datetime.now(UTC) + timedelta(days=1)
    with db.session() as s:
        alice = s.scalar(select(Account).where(Account.name == "alice"))
        assert alice is not None
        for calendar, why in (
            (Calendar(closes=past), "uploads closed at"),
            (Calendar(opens=future), "uploads open at"),
        ):
            with pytest.raises(UploadError, match=why):
                submit(s, replace(config, calendar=calendar), alice, "c", "main.c", b"int main;")
        with pytest.raises(UploadError, match="unknown language 'cobol'"):
            submit(s, config, alice, "cobol", "main.cob", b"x")
        taken = submit(s, replace(config, calendar=Calendar(past, future)), alice, "c", "m.c", b"x")
        assert taken.number == 2 and not taken.trial  # an upload plays unless it is a trial


def test_a_schedule_makes_test_rounds_unending_until_the_final(
    tmp_path: Path, database_url: str
) -> None:
    db, config = seeded(tmp_path, database_url, ("alice", "bob"))
    scheduled = replace(config, calendar=Calendar(every=timedelta(hours=1)))
    with db.session() as s:
        for number in (1, 2, 3):  # the file's format says 2 Swiss rounds
            assert make_round(s, scheduled).phase == "test"
            s.commit()
            play_round(db, config)
            s.expire_all()
            assert finish_round_if_done(
                s, s.scalars(select(Round.id).where(Round.number == number)).one()
            )
        assert round_blocked(s, config) is not None
        assert round_blocked(s, scheduled) is None
        # a final the contest has but has not begun does not lift the test rounds' end:
        # the organiser begins it (or uploads close)
        waiting = replace(config, calendar=Calendar(final=Final(rounds=2, top=4)))
        said = "the contest's 2 Swiss rounds have been played"
        assert round_blocked(s, waiting) == said
        begin_final(s, waiting)
        assert round_blocked(s, waiting) is None


def test_the_final_is_swiss_then_the_top_groups_double_round_robin_on_frozen_versions(
    tmp_path: Path, database_url: str
) -> None:
    db, config = seeded(tmp_path, database_url, NAMES)
    config = replace(config, calendar=Calendar(final=Final(rounds=2, top=4)))
    with db.session() as s:
        make_round(s, config)  # a test round first
    play_round(db, config)
    with db.session() as s:
        finish_round_if_done(s, 1)
        began = begin_final(s, config)
        s.commit()
        with pytest.raises(RoundError, match="begun already"):
            begin_final(s, config)
        # erin's new version comes after the final began: the final plays her old one
        erin = s.scalar(select(Account).where(Account.name == "erin"))
        assert erin is not None
        late = version(erin.id, 2)
        late.uploaded = began + timedelta(minutes=1)
        s.add(late)
        s.commit()
        assert {e.name: e.version for e in entrants(s)}["erin"] == late.id
        frozen = {e.name: e.version for e in entrants(s, before=began)}
        assert frozen["erin"] != late.id
        for number in (2, 3):
            rnd = make_round(s, config)
            assert (rnd.phase, rnd.kind, rnd.number) == ("final", "swiss", number)
            assert len(rnd.games) == 4  # five entrants: two pairings and a bye
            assert late.id not in {g.first_id for g in rnd.games} | {g.second_id for g in rnd.games}
            play_round(db, config)
            s.expire_all()  # the games were stored in the worker's sessions
            finish_round_if_done(s, rnd.id)
        data = standings_data(s, config)
        assert data["phase"] == "final"
        # the standings count the final alone: the test round's games are not in them
        assert sum(r["games"] for r in data["rows"]) == 2 * 2 * 4
        top = [r["name"] for r in data["rows"][:4]]
        robin = make_round(s, config)
        assert (robin.phase, robin.kind) == ("final", "round-robin")
        seated = {g.first.account.name for g in robin.games} | {
            g.second.account.name for g in robin.games
        }
        assert seated == set(top)  # the top four, by the contest's ranking
        assert len(robin.games) == 6 * 2  # every pair of four, both colours
        pairs = {(g.first_id, g.second_id) for g in robin.games}
        assert all((b, a) in pairs for a, b in pairs)
        play_round(db, config)
        s.expire_all()
        finish_round_if_done(s, robin.id)
        assert round_blocked(s, config) == "the final has been played"
        with pytest.raises(RoundError, match="the final has been played"):
            make_round(s, config)
        assert s.scalar(select(Game).where(Game.state != "done")) is None


def test_after_closes_the_next_round_is_the_final_and_its_versions_are_those_before(
    tmp_path: Path, database_url: str
) -> None:
    db, config = seeded(tmp_path, database_url, ("alice", "bob", "carol"))
    closes = datetime.now(UTC) - timedelta(hours=1)
    config = replace(config, calendar=Calendar(closes=closes, final=Final(rounds=1)))
    with db.session() as s:
        for v in s.scalars(select(Version)):
            v.uploaded = closes - timedelta(days=1)
        carol = s.scalar(select(Account).where(Account.name == "carol"))
        assert carol is not None
        late = version(carol.id, 2)
        late.uploaded = closes + timedelta(minutes=5)  # accepted from an upload after
        s.add(late)
        s.commit()
        rnd = make_round(s, config)
        assert rnd.phase == "final"
        played = {g.first_id for g in rnd.games} | {g.second_id for g in rnd.games}
        assert late.id not in played
        s.commit()


def test_a_final_with_one_entrant_from_before_it_is_refused_by_name(
    tmp_path: Path, database_url: str
) -> None:
    db, config = seeded(tmp_path, database_url, ("alice", "bob"))
    closes = datetime.now(UTC) - timedelta(hours=1)
    config = replace(config, calendar=Calendar(closes=closes, final=Final(rounds=1)))
    with db.session() as s:
        for v in s.scalars(select(Version)):  # only alice's from before the final
            v.uploaded = closes - timedelta(days=1) if v.number == 1 else closes
        bob = s.scalar(select(Account).where(Account.name == "bob"))
        assert bob is not None
        for v in s.scalars(select(Version).where(Version.account_id == bob.id)):
            v.uploaded = closes + timedelta(minutes=1)
        s.commit()
        with pytest.raises(RoundError, match="the final needs at least two entrants"):
            make_round(s, config)
        assert s.scalar(select(Round)) is None  # no round was written


def test_the_organiser_cannot_begin_a_final_the_contest_has_not(
    tmp_path: Path, database_url: str
) -> None:
    db, config = seeded(tmp_path, database_url, ("alice", "bob"))
    with db.session() as s, pytest.raises(RoundError, match=r"no final \(\[final\]"):
        begin_final(s, config)


def test_the_schedule_starts_a_test_round_every_span_and_runs_the_final_through(
    tmp_path: Path, database_url: str
) -> None:
    db, config = seeded(tmp_path, database_url, ("alice", "bob"))
    config = replace(config, calendar=Calendar(every=timedelta(hours=6), final=Final(rounds=2)))
    with db.session() as s:
        at = datetime.now(UTC)
        assert schedule_due(s, config, at)  # no round yet
        make_round(s, config)
        assert not schedule_due(s, config, at + timedelta(hours=7))  # one is being played
    play_round(db, config)
    with db.session() as s:
        finish_round_if_done(s, 1)
        made = s.scalars(select(Round.created)).one()
        made = made if made.tzinfo else made.replace(tzinfo=UTC)
        assert not schedule_due(s, config, made + timedelta(hours=5, minutes=59))
        assert schedule_due(s, config, made + timedelta(hours=6))
        assert not schedule_due(s, replace(config, calendar=Calendar()), made + timedelta(days=9))
        # the schedule asked about a moment after uploads close finds the final begun
        # by then (its rounds follow each other), though the clock has not reached it
        closing = Calendar(every=timedelta(hours=6), final=Final(rounds=2))
        closing = replace(closing, closes=made + timedelta(hours=1))
        closes = replace(config, calendar=closing)
        assert not schedule_due(s, closes, made + timedelta(minutes=30))
        assert schedule_due(s, closes, made + timedelta(hours=2))
        assert next_round_words(s, closes, made + timedelta(hours=2)) is None
        begin_final(s, config)
        s.commit()
        assert schedule_due(s, config, made + timedelta(minutes=1))  # the final runs on


def test_the_first_scheduled_round_waits_for_first_and_every_page_says_when(
    tmp_path: Path, database_url: str
) -> None:
    db, config = seeded(tmp_path, database_url, ("alice", "bob"))
    at = datetime.now(UTC).replace(microsecond=0)
    first = at + timedelta(hours=2)
    config = replace(config, calendar=Calendar(every=timedelta(hours=6), first=first))
    with db.session() as s:
        assert not schedule_due(s, config, at)  # two entrants, but not before first
        assert not schedule_due(s, config, first - timedelta(seconds=1))
        assert schedule_due(s, config, first)
        said = next_round_words(s, config, at)
        assert said is not None and said.startswith("The next test round starts at ")
        made = make_round(s, config).created  # by hand, before first: 6 hours on
        after = max(first, made.replace(tzinfo=UTC) + timedelta(hours=6))
        assert next_round_words(s, config, at) == (
            f"The next test round starts once round 1 has been played, at "
            f"{stamp(after)} at the earliest."
        )
    play_round(db, config)
    with db.session() as s:
        finish_round_if_done(s, 1)
        made = s.scalars(select(Round.created)).one()
        due = next_scheduled(s, config)
        assert due is not None and due == max(first, made.replace(tzinfo=UTC) + timedelta(hours=6))
        # a first set later than a round already made plus every: none before first
        later = made.replace(tzinfo=UTC) + timedelta(days=2)
        waiting = replace(config, calendar=Calendar(every=timedelta(hours=6), first=later))
        assert next_scheduled(s, waiting) == later
        assert not schedule_due(s, waiting, later - timedelta(seconds=1))
        assert next_round_words(s, config, at) == f"The next test round starts at {stamp(due)}."
        loose = replace(config, calendar=Calendar(every=timedelta(hours=6)))
        assert next_round_words(s, loose, due) == "The next test round starts now."
        assert next_round_words(s, replace(config, calendar=Calendar()), at) is None


def test_without_first_the_first_round_waits_for_two_entrants(
    tmp_path: Path, database_url: str
) -> None:
    db, config = seeded(tmp_path, database_url, ("alice",))
    config = replace(config, calendar=Calendar(every=timedelta(minutes=5)))
    with db.session() as s:
        assert next_round_words(s, config, datetime.now(UTC)) == (
            "The next test round starts as soon as two entrants have a version accepted."
        )


def test_uploads_close_at_closes_to_the_second() -> None:
    closes = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
    calendar = Calendar(closes=closes)
    assert calendar.upload_refusal(closes - timedelta(microseconds=1)) is None
    refusal = calendar.upload_refusal(closes)
    assert refusal is not None and refusal.startswith("uploads closed at")
    opens = Calendar(opens=closes)
    assert opens.upload_refusal(closes) is None  # open from the very moment
    assert opens.upload_refusal(closes - timedelta(microseconds=1)) is not None


def test_the_final_s_versions_are_frozen_at_closes_or_when_it_was_begun_and_never_move(
    tmp_path: Path, database_url: str
) -> None:
    """Before either, there is no moment to freeze at; the organiser beginning a final
    after ``closes`` freezes at ``closes`` (uploads had stopped then); beginning it
    before, at that moment, which a later ``closes`` does not move."""
    from arbiter.host.models import Setting
    from arbiter.host.rounds import frozen_at

    db, config = seeded(tmp_path, database_url, ("alice", "bob"))
    closes = datetime.now(UTC) - timedelta(hours=3)
    late = replace(config, calendar=Calendar(closes=closes, final=Final(rounds=1)))
    early = replace(config, calendar=Calendar(final=Final(rounds=1)))
    with db.session() as s:
        with pytest.raises(RoundError, match=r"^the final has not begun$"):
            frozen_at(s, early)
        assert frozen_at(s, late) == closes  # closed: frozen there, begun or not
        assert begin_final(s, late) == closes
        s.commit()
        assert frozen_at(s, late) == closes
        s.delete(s.get(Setting, "final_from"))  # another contest, its final not begun
        s.commit()
        before = datetime.now(UTC)
        began = begin_final(s, early)
        s.commit()
        assert before.replace(microsecond=0) <= began <= datetime.now(UTC)  # whole seconds
        later = Calendar(closes=began + timedelta(hours=1), final=Final(rounds=1))
        assert frozen_at(s, early) == frozen_at(s, replace(early, calendar=later)) == began
    db.close()
