"""Rounds: Swiss with a bye, no new round while one is being played, the last one
played again, entrants by their newest accepted version, and the standings."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from arbiter.host.config import from_dict
from arbiter.host.models import Account, Bye, Game, Version
from arbiter.host.plot import rating_svg
from arbiter.host.ratings import rate_finished_rounds
from arbiter.host.rounds import (
    RoundError,
    bye_points,
    entrants,
    finish_round_if_done,
    irregular_games,
    make_round,
    rerun_round,
    round_blocked,
    standings_of,
)
from arbiter.host.service import Service
from arbiter.host.standings import history as rating_history
from arbiter.host.tallies import result_columns
from tests.host.contests import play_round, seeded, version


def test_an_odd_swiss_field_gives_one_bye_credited_as_wins(
    tmp_path: Path, database_url: str
) -> None:
    db, config = seeded(tmp_path, database_url, ("alice", "bob", "carol"))
    with db.session() as s:
        make_round(s, config)
        with pytest.raises(RoundError, match="still being played"):
            make_round(s, config)
        byes = list(s.query(Bye))
        assert len(byes) == 1 and byes[0].points == 2.0
        games = list(s.query(Game))
        assert len(games) == 2  # one pairing, both colours
        assert {games[0].first_id, games[0].second_id} == {games[1].first_id, games[1].second_id}
        assert games[0].first_id == games[1].second_id
    play_round(db, config)
    with db.session() as s:
        assert finish_round_if_done(s, 1)
        make_round(s, config)  # round 2: the bye goes to someone else
        assert len(set(bye_points(s))) == 2
    play_round(db, config)
    with db.session() as s:
        finish_round_if_done(s, 2)
        with pytest.raises(RoundError, match="2 Swiss rounds have been played"):
            make_round(s, config)


def test_the_latest_round_is_played_again_with_the_same_pairings(
    tmp_path: Path, database_url: str
) -> None:
    db, config = seeded(tmp_path, database_url, ("alice", "bob"), kind="round-robin")
    with db.session() as s:
        make_round(s, config)
        before = [
            (g.first_id, g.second_id, g.seed, g.start) for g in s.query(Game).order_by(Game.id)
        ]
        # a round's games are numbered from 1 in the order they are played
        assert [g.number for g in s.query(Game).order_by(Game.id)] == [1, 2]
    play_round(db, config)
    with db.session() as s:
        assert standings_of(s).games == 2
        rerun_round(s, 1)
        after = [
            (g.first_id, g.second_id, g.seed, g.start) for g in s.query(Game).order_by(Game.id)
        ]
        assert after == before and all(g.state == "queued" for g in s.query(Game))
        assert standings_of(s).games == 0
        with pytest.raises(RoundError, match="no round 7"):
            rerun_round(s, 7)
    play_round(db, config)
    with db.session() as s:
        assert finish_round_if_done(s, 1)
        make_round(s, config)
        # round 2 was paired on round 1's results: round 1 stays as it was played
        with pytest.raises(RoundError, match=r"only the latest round \(2\) can be played again"):
            rerun_round(s, 1)


def test_entrants_play_their_newest_accepted_version_and_not_when_disqualified(
    tmp_path: Path, database_url: str
) -> None:
    db, _ = seeded(tmp_path, database_url, ("alice", "bob"))
    with db.session() as s:
        alice = s.query(Account).filter_by(name="alice").one()
        s.add(version(alice.id, 2))
        s.add(version(alice.id, 3, "refused"))
        s.commit()
        field = {e.name: e.version for e in entrants(s)}
        newest = s.query(Version).filter_by(account_id=alice.id, number=2).one()
        assert field["alice"] == newest.id
        alice.disqualified = True
        s.commit()
        assert [e.name for e in entrants(s)] == ["bob"]
        with pytest.raises(RoundError, match="at least two entrants"):
            make_round(
                s,
                from_dict(
                    {"game": "alquerque", "database": database_url},
                    base=tmp_path,
                    stem="cup",
                    where="x",
                ),
            )


def test_three_swiss_rounds_of_four_never_pair_the_same_two_twice(
    tmp_path: Path, database_url: str
) -> None:
    db, config = seeded(tmp_path, database_url, ("alice", "bob", "carol", "dave"))
    config = replace(config, format=replace(config.format, rounds=3))
    pairs = []
    for _ in range(3):
        with db.session() as s:
            rnd = make_round(s, config)
            pairs += [frozenset((g.first.account_id, g.second.account_id)) for g in rnd.games]
        play_round(db, config)
        with db.session() as s:
            assert finish_round_if_done(s, rnd.id)
    # two games (both colours) per pairing; six pairings of four players: all met once
    assert len(pairs) == 12 and len(set(pairs)) == 6


def test_the_rating_history_has_a_point_for_each_round_played(
    tmp_path: Path, database_url: str
) -> None:
    db, config = seeded(tmp_path, database_url, ("alice", "bob", "carol", "dave"))
    for _ in range(2):
        with db.session() as s:
            rnd = make_round(s, config)
        play_round(db, config)
        with db.session() as s:
            finish_round_if_done(s, rnd.id)
    with db.session() as s:
        assert rating_history(s, "alice") == []  # not rated until the server rates them
        assert rate_finished_rounds(s) == 2 and rate_finished_rounds(s) == 0
        history = rating_history(s, "alice")
        assert [p.round for p in history] == [1, 2]
        final = {line.name: line.rating.elo for line in standings_of(s).lines}
        assert history[-1].elo == pytest.approx(final["alice"])
        svg = rating_svg(history)
        assert svg.startswith("<svg") and svg.count("<circle") == 2
        assert rating_svg(history[:1]).count("<circle") == 1  # one round: one point
        assert rating_history(s, "nobody") == [] and rating_svg([]) == ""


def test_once_the_final_begins_the_rating_history_is_the_final_s(
    tmp_path: Path, database_url: str
) -> None:
    """The final starts everyone from nothing: an entrant's chart then shows its
    ratings after the final's rounds, not the test rounds'."""
    from arbiter.host.calendar import Calendar, Final
    from arbiter.host.rounds import begin_final

    db, config = seeded(tmp_path, database_url, ("alice", "bob"))
    config = replace(config, calendar=Calendar(final=Final(rounds=2)))
    with db.session() as s:
        test_round = make_round(s, config).id
    play_round(db, config)
    with db.session() as s:
        assert finish_round_if_done(s, test_round)
        assert rate_finished_rounds(s) == 1
        assert [p.round for p in rating_history(s, "alice")] == [1]
        begin_final(s, config)
        s.commit()
        final = make_round(s, config)
        assert final.phase == "final"
        final_round, number = final.id, final.number
    play_round(db, config)
    with db.session() as s:
        assert finish_round_if_done(s, final_round)
        assert rate_finished_rounds(s) == 1
        assert [p.round for p in rating_history(s, "alice")] == [number]


def test_a_ladder_places_each_new_version_by_itself(tmp_path: Path, database_url: str) -> None:
    db, config = seeded(tmp_path, database_url, ("alice", "bob", "carol"), kind="ladder")
    # a placement is two games a pair, one each way, whatever the test rounds' pairs play
    config = replace(config, format=replace(config.format, games_per_pair=4))
    service = Service(config, tmp_path / "cup.toml", db)
    assert service.ladder_step()  # the first versions: placement games
    with db.session() as s:  # none placed yet: each is placed against the others
        first = s.query(Game).filter(Game.round_id == 1).all()
        assert first and all(g.first_id != g.second_id for g in first)
        assert len({g.first_id for g in first} | {g.second_id for g in first}) == 3
        assert set(Counter(g.pair for g in first).values()) == {2}
    assert not service.ladder_step()  # not while they are played
    play_round(db, config)
    with db.session() as s:
        assert finish_round_if_done(s, 1)
    assert not service.ladder_step()  # nobody new
    with db.session() as s:
        alice = s.query(Account).filter_by(name="alice").one()
        newest = version(alice.id, 2)
        s.add(newest)
        s.commit()
    assert service.ladder_step()
    with db.session() as s:
        games = s.query(Game).filter(Game.round_id == 2).all()
        assert games and all(newest.id in (g.first_id, g.second_id) for g in games)


def test_the_organiser_is_told_why_no_round_can_start(tmp_path: Path) -> None:
    """What the organiser's page shows in place of its button, and what starting a
    round is refused with: a round being played, or every Swiss round played."""
    db, config = seeded(tmp_path, f"sqlite:///{tmp_path / 'cup.db'}", ("alice", "bob"))
    with db.session() as s:
        assert round_blocked(s, config) is None
        make_round(s, config)
        assert round_blocked(s, config) == "round 1 is still being played"
        with pytest.raises(RoundError, match="round 1 is still being played"):
            make_round(s, config)
    for number in (1, 2):  # the contest's two Swiss rounds
        play_round(db, config)
        with db.session() as s:
            assert finish_round_if_done(s, number)
            if number == 1:
                assert round_blocked(s, config) is None
                make_round(s, config)
    with db.session() as s:
        assert round_blocked(s, config) == "the contest's 2 Swiss rounds have been played"


def test_an_entrants_irregular_games_are_those_its_programs_lost_by_a_fault(
    tmp_path: Path,
) -> None:
    db, config = seeded(tmp_path, f"sqlite:///{tmp_path / 'cup.db'}", ("alice", "bob"))
    with db.session() as s:
        make_round(s, config)
        alice = s.query(Account).filter_by(name="alice").one()
        games = list(s.query(Game).order_by(Game.id))
        assert len(games) == 2
        endings = [("illegal move", "'a1-a9' is not a move"), ("no pieces", "")]
        for g, (reason, detail) in zip(games, endings, strict=True):
            mine = 0 if g.first.account_id == alice.id else 1
            (g.second if mine == 0 else g.first).number = 3  # bob's third version: not hers
            g.state, g.detail = "done", detail
            for column, value in result_columns(1 - mine, reason, None).items():
                setattr(g, column, value)  # as the server stores a result
        s.commit()
        found = irregular_games(s, alice.id)
        bob = s.query(Account).filter_by(name="bob").one()
        assert irregular_games(s, bob.id) == []  # bob won both: none of his
        first_id = games[0].id
        seat = 1 if games[0].first.account_id == alice.id else 2
    assert [(g.id, g.reason, g.detail) for g in found] == [
        (first_id, "illegal move", "'a1-a9' is not a move")
    ]  # the loss by the rules is not irregular
    assert (found[0].version, found[0].round, found[0].seat) == (1, 1, seat)  # her version


def test_a_swiss_round_pairs_on_the_points_byes_credited(tmp_path: Path) -> None:
    """A bye is credited as games won, and the next Swiss pairing counts them: an entrant
    with two byes (4 points) meets one of the leaders (2 points each from their games),
    not one of those without a point, as it would were its byes forgotten."""
    from arbiter.host import tallies
    from arbiter.host.models import Round
    from arbiter.host.rounds import _swiss_pairs, entrants

    names = ("alice", "bob", "carol", "dave", "erin", "fay")
    db, _ = seeded(tmp_path, f"sqlite:///{tmp_path / 'cup.db'}", names)
    with db.session() as s:
        ids = {e.name: e.account for e in entrants(s)}
        for winner, loser in (("alice", "bob"), ("carol", "dave")):  # two games each, won
            counts = [0.0] * len(tallies.COUNTS)
            counts[tallies.COUNTS.index("games")] = counts[tallies.COUNTS.index("first_wins")] = 2
            tallies.add(s, "test", ids[winner], ids[loser], counts)
        for number in (1, 2):
            done = Round(number=number, kind="swiss", phase="test", state="done")
            s.add(done)
            s.flush()
            s.add(Bye(round_id=done.id, account_id=ids["fay"], points=2.0))
        s.flush()
        pairs, bye = _swiss_pairs(s, entrants(s), "test")
    met = {frozenset(p) for p in pairs}
    assert bye is None and len(pairs) == 3
    assert any(frozenset((ids["fay"], ids[leader])) in met for leader in ("alice", "carol"))
    db.close()
