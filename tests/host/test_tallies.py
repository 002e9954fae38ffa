"""Results in the shape the tables need: every stored game's columns agree with its
record, every pair's tally with the games' columns (through forfeits, a round played
again and a disqualification), a migration fills both for a contest stored before
they existed, the ratings stored after each round equal ratings fitted from scratch
from the records, and a paged game list shows every game once."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import select
from sqlalchemy.orm import Session

from arbiter.host import listing, settle, tallies
from arbiter.host.config import ContestConfig
from arbiter.host.db import MIGRATIONS, Database, migrate
from arbiter.host.export_check import ContestGame, table_of
from arbiter.host.models import Account, Game, Rated, Round, Tally, Version
from arbiter.host.ratings import rate_finished_rounds
from arbiter.host.rounds import finish_round_if_done, make_round, rerun_round
from arbiter.record import GameRecord
from tests.host.contests import play_round, seeded

NAMES = ("alice", "bob", "carol", "dave", "erin")


@pytest.fixture
def played(tmp_path: Path, database_url: str) -> Iterator[tuple[Database, ContestConfig]]:
    """Four Swiss rounds of five entrants (so byes): a game of the first forfeited by
    the program to blame, the third played again, and dave disqualified before his
    games of the fourth were played (forfeited)."""
    db, config = seeded(tmp_path, database_url, NAMES)
    config = replace(config, format=replace(config.format, rounds=4))
    for number in (1, 2, 3):
        with db.session() as s:
            make_round(s, config)
            if number == 1:
                game = s.scalars(select(Game).where(Game.state == "queued")).first()
                assert game is not None
                settle.forfeit(s, config, game, 1, "its program could not be fetched")
                s.commit()
        play_round(db, config)
        with db.session() as s:
            assert finish_round_if_done(s, _round_id(s, number))
    with db.session() as s:
        rerun_round(s, 3)  # its results taken out of the tallies
    play_round(db, config)
    with db.session() as s:
        assert finish_round_if_done(s, _round_id(s, 3))
        make_round(s, config)
        dave = s.scalar(select(Account).where(Account.name == "dave"))
        assert dave is not None
        dave.disqualified = True
        settle.disqualify(s, config, dave.id)
        s.commit()
    play_round(db, config)
    with db.session() as s:
        assert finish_round_if_done(s, _round_id(s, 4))
    yield db, config
    db.close()


def _round_id(s: Session, number: int) -> int:
    found = s.scalar(select(Round.id).where(Round.number == number))
    assert found is not None
    return found


def test_every_stored_games_columns_agree_with_its_record(
    played: tuple[Database, ContestConfig],
) -> None:
    db, _ = played
    with db.session() as s:
        owner = {
            f"{name} v{number}": account
            for name, number, account in s.execute(
                select(Account.name, Version.number, Account.id).join(
                    Version, Version.account_id == Account.id
                )
            )
        }
        games = list(s.scalars(select(Game).where(Game.state == "done")))
        assert len(games) >= 16 and any(g.reason == "forfeit" for g in games)
        for g in games:
            record = GameRecord.from_json(g.record)
            rnd = s.get(Round, g.round_id)
            assert rnd is not None
            expected = tallies.result_columns(record.winner, str(record.reason), record.score)
            assert {column: getattr(g, column) for column in expected} == expected
            assert g.irregular == (record.winner is not None and record.reason.is_fault)
            assert (g.round_number, g.phase) == (record.round, rnd.phase) == (rnd.number, rnd.phase)
            accounts = (g.first_account_id, g.second_account_id)
            assert accounts == tuple(owner[p] for p in record.players)


def test_every_pairs_tally_is_the_sum_of_its_games(played: tuple[Database, ContestConfig]) -> None:
    db, _ = played
    with db.session() as s:
        kept = tallies.read(s, "test")
        assert kept == tallies.recount(s, "test")
        stored = s.query(Game).filter(Game.state == "done").count()
        assert kept.column("games").sum() == stored and len(kept) > 10
        faults = kept.column("first_faults") + kept.column("second_faults")
        assert faults.sum() > 0  # the forfeits


def test_the_ratings_stored_after_each_round_equal_a_fit_from_the_records(
    played: tuple[Database, ContestConfig],
) -> None:
    db, config = played
    with db.session() as s:
        assert rate_finished_rounds(s) == 4
        names = dict(s.execute(select(Account.id, Account.name)).all())
        stored = list(s.execute(select(Round.number, Round.id).where(Round.state == "done")))
        games = [
            ContestGame(
                g.round_number,
                g.round_number * 100_000 + g.pair,
                g.id,
                (names[g.first_account_id], names[g.second_account_id]),
                GameRecord.from_json(g.record),
            )
            for g in s.scalars(select(Game).where(Game.state == "done").order_by(Game.id))
        ]
        for number, round_id in stored:
            scratch = table_of(config, [g for g in games if g.round <= number])
            rated = {
                names[r.account_id]: r
                for r in s.scalars(select(Rated).where(Rated.round_id == round_id))
            }
            assert set(rated) == {line.name for line in scratch.lines}
            for line in scratch.lines:
                assert rated[line.name].elo == pytest.approx(line.rating.elo, abs=1e-6)
                assert rated[line.name].games == line.games


def test_a_round_played_again_loses_its_stored_ratings(
    played: tuple[Database, ContestConfig],
) -> None:
    db, _ = played
    with db.session() as s:
        rate_finished_rounds(s)
        rnd = rerun_round(s, 4)
        assert rnd.rated is None and s.query(Rated).filter(Rated.round_id == rnd.id).count() == 0


def test_a_paged_game_list_shows_every_game_once_both_ways(
    played: tuple[Database, ContestConfig],
) -> None:
    db, _ = played
    with db.session() as s:
        alice = s.scalar(select(Account.id).where(Account.name == "alice"))
        assert alice is not None
        hers = set(
            s.scalars(
                select(Game.id).where(
                    Game.state == "done",
                    (Game.first_account_id == alice) | (Game.second_account_id == alice),
                )
            )
        )
        assert len(hers) > 6
        # pages that divide the games evenly (the last page full) and that do not; no
        # link leads to an empty page either way
        for size in sorted({1, 2, 3, len(hers)}):
            seen: list[int] = []
            page = listing.entrant_games(s, alice, size=size)
            pages = [page]
            while page.older is not None:
                page = listing.entrant_games(s, alice, before=page.older, size=size)
                pages.append(page)
            for p in pages:
                ids = [g.id for g in p.games]
                assert ids == sorted(ids, reverse=True) and p.total == len(hers)
                assert 0 < len(ids) <= size, (size, len(pages))
                seen += ids
            assert sorted(seen) == sorted(hers) and len(seen) == len(set(seen))
            assert len(pages) == -(-len(hers) // size)
            back: list[int] = []  # and from the oldest page up again
            while page.newer is not None:
                page = listing.entrant_games(s, alice, after=page.newer, size=size)
                assert 0 < len(page.games) <= size, size
                back += [g.id for g in page.games]
            assert sorted(back + [g.id for g in pages[-1].games]) == sorted(hers)
            assert listing.entrant_games(s, alice, size=size).newer is None


def test_a_migration_fills_the_columns_and_tallies_of_a_contest_stored_before(
    played: tuple[Database, ContestConfig],
) -> None:
    db, _ = played
    with db.session() as s:
        columns = {
            g.id: (g.phase, g.round_number, g.first_account_id, g.irregular, g.score_first)
            for g in s.scalars(select(Game))
        }
        kept = tallies.read(s, "test")
        sizes = dict(s.execute(select(Round.id, Round.size)).all())
    alembic = Config()
    alembic.set_main_option("script_location", str(MIGRATIONS))
    with db.engine.begin() as connection:  # the contest as an older server left it
        alembic.attributes["connection"] = connection
        command.downgrade(alembic, "0003")
    migrate(db.engine)
    with db.session() as s:
        again = {
            g.id: (g.phase, g.round_number, g.first_account_id, g.irregular, g.score_first)
            for g in s.scalars(select(Game))
        }
        unplayed = {i for i, (*_, score) in columns.items() if score is None}
        assert {i: c for i, c in again.items() if i not in unplayed} == {
            i: c for i, c in columns.items() if i not in unplayed
        }
        assert tallies.read(s, "test") == kept and s.query(Tally).count() >= len(kept)
        assert dict(s.execute(select(Round.id, Round.size)).all()) == sizes


def test_tallies_kept_in_memory_follow_every_change(tmp_path: Path, database_url: str) -> None:
    """A table computed again reads only the pairs changed since the last: what it
    holds is always what the database holds, through results stored and taken out."""
    db, config = seeded(tmp_path, database_url, NAMES[:4])
    kept = tallies.KeptTallies()
    with db.session() as s:
        make_round(s, config)
        assert len(kept.current(s, "test")) == 0
    play_round(db, config)
    with db.session() as s:
        assert kept.current(s, "test") == tallies.read(s, "test")
        assert len(tallies.read(s, "test")) > 0
        read = kept.since
        assert len(tallies.changed(s, "test", read)[0]) == 0  # nothing new: nothing read
        rerun_round(s, 1)  # every result taken out again
        assert kept.current(s, "test") == tallies.read(s, "test")
        assert len(tallies.read(s, "test")) == 0 and kept.since > read
    play_round(db, config)
    with db.session() as s:
        assert kept.current(s, "test") == tallies.read(s, "test")
    db.close()


def test_the_table_is_in_rating_order_not_points_order(tmp_path: Path) -> None:
    """alice beat bob in their one game; bob beat carol four times of four. bob has
    the most points, alice the best rating: the table (and the ladder's order, drawn
    from it) goes by rating."""
    from arbiter.host.ratings import contest_table

    db, _ = seeded(tmp_path, f"sqlite:///{tmp_path / 'cup.db'}", ("alice", "bob", "carol"))
    with db.session() as s:
        ids = {a.name: a.id for a in s.scalars(select(Account))}
        # first, second, games, first_wins, draws, first_points, second_points, faults x2, rescored
        pairs = tallies.PairTallies(
            [
                (ids["alice"], ids["bob"], 1, 1, 0, 1, 0, 0, 0, 0),
                (ids["bob"], ids["carol"], 4, 4, 0, 4, 0, 0, 0, 0),
            ]
        )
        table = contest_table(s, "test", None, pairs)
    db.close()
    assert [line.name for line in table.lines] == ["alice", "bob", "carol"]
    assert [line.points for line in table.lines] == [1.0, 4.0, 0.0]


@pytest.mark.parametrize(
    ("winner", "reason", "irregular"),
    [
        (0, "illegal move", True),  # a referee's verdict: the standings mark it
        (1, "time", True),
        (None, "time", False),  # a draw is no one's fault
        (0, "no moves", False),  # the rules' own end
        (1, "board full", False),  # a game's own ending, none of the platform's reasons
    ],
)
def test_a_result_is_irregular_only_when_a_fault_decided_it(
    winner: int | None, reason: str, irregular: bool
) -> None:
    columns = tallies.result_columns(winner, reason, (1.0, 0.0))
    assert columns["irregular"] is irregular
    assert columns["score_first"] == (0.5 if winner is None else float(winner == 0))
    assert (columns["points_first"], columns["points_second"]) == (1.0, 0.0)
    assert tallies.result_columns(winner, reason, None)["points_first"] is None
