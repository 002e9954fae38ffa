"""Games a round cannot wait for: failed on enough workers (forfeited by the program
to blame, or void), abandoned by workers that keep dying on them, or left by a
disqualified entrant; each settled so the round ends, and counted as it should."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from arbiter.errors import Reason, RecordError
from arbiter.host import listing, queue, settle, workers
from arbiter.host.config import ContestConfig
from arbiter.host.db import Database
from arbiter.host.models import Account, Game, GameFailure, Rated, Round, Worker, now
from arbiter.host.ratings import rate_finished_rounds
from arbiter.host.rounds import finish_round_if_done, make_round, rerun_round, standings_of
from arbiter.play.replay import replay
from arbiter.record import GameRecord
from tests.host.contests import play_round, record_for, seeded

Contest = tuple[Database, ContestConfig]


@pytest.fixture
def contest(tmp_path: Path, database_url: str) -> Contest:
    """Alice and bob, one round robin round of two games."""
    db, config = seeded(tmp_path, database_url, ("alice", "bob"), kind="round-robin")
    with db.session() as s:
        make_round(s, config)
    return db, config


def fail_n(
    db: Database,
    config: ContestConfig,
    times: int,
    culprit: int | None,
    culprits: tuple[int | None, ...] = (),
) -> int:
    """The first game failed by ``times`` different workers (the i-th blaming
    ``culprits[i]`` if given, else ``culprit``); returns its id."""
    game_id = -1
    for i in range(times):
        with db.session() as s:
            got = queue.lease(s, f"w{i}", 60)
            assert got is not None
            game_id = got.game_id
            blamed = culprits[i] if culprits else culprit
            settle.fail(s, got.game_id, got.token, f"w{i}", blamed, "too big", config)
    return game_id


def run_out(s: Session, game_id: int) -> None:
    """Ends game ``game_id``'s lease a second ago, as a silent worker's runs out."""
    s.execute(
        update(Game).where(Game.id == game_id).values(lease_expires=now() - timedelta(seconds=1))
    )
    s.commit()


def test_one_worker_reporting_a_game_again_and_again_never_settles_it(contest: Contest) -> None:
    db, config = contest
    handed: list[int] = []
    for _ in range(5):
        with db.session() as s:
            got = queue.lease(s, "liar", 60)
            if got is None:  # it is not handed back a game it failed
                break
            handed.append(got.game_id)
            state = settle.fail(s, got.game_id, got.token, "liar", 1, "made up", config)
            assert state == "queued"
    assert len(handed) == len(set(handed)) == 2  # each game once, then none
    first = handed[0]
    # and were its reports to reach the server under other leases, they count once
    for i in range(3):
        with db.session() as s:
            got = queue.lease(s, f"relay-{i}", 60)
            assert got is not None and got.game_id == first
            settle.fail(s, got.game_id, got.token, "liar", 1, "made up", config)
    game = state_of(db, first)
    assert (game.state, game.failures, game.winner) == ("queued", 1, None)
    # the game it reported goes to another worker, never back to it
    with db.session() as s:
        other = queue.lease(s, "honest", 60)
        assert other is not None and other.game_id == first


def test_a_seat_forfeits_only_if_every_failing_worker_blamed_it(contest: Contest) -> None:
    db, config = contest
    game_id = fail_n(db, config, 3, None, culprits=(0, 1, 1))
    game = state_of(db, game_id)
    assert (game.state, game.winner) == ("void", None)  # they did not agree: nobody's fault


def test_a_worker_failing_game_after_game_is_paused_until_resumed(
    contest: Contest, tmp_path: Path
) -> None:
    db, config = contest
    config = replace(config, pause_after=2, max_failures=5)
    with db.session() as s:
        workers.new_worker(s, "flaky", bytes(32))
        s.commit()
    for _ in range(2):
        with db.session() as s:
            got = queue.lease(s, "flaky", 60)
            assert got is not None
            settle.fail(s, got.game_id, got.token, "flaky", None, "disk full", config)
    with db.session() as s:
        flaky = s.scalar(select(Worker).where(Worker.name == "flaky"))
        assert flaky is not None and (flaky.paused, flaky.failing, flaky.failures) == (
            True,
            2,
            2,
        )
        workers.resume(s, "flaky")
        assert (flaky.paused, flaky.failing, flaky.failures) == (False, 0, 2)


def test_a_stored_result_is_credited_to_the_worker_that_played_it_alone(
    contest: Contest,
) -> None:
    """A result stored counts for its worker and ends its run of failures; another
    worker's failures in a row go on counting towards its pause."""
    db, config = contest
    config = replace(config, pause_after=5, max_failures=5)
    with db.session() as s:
        workers.new_worker(s, "flaky", bytes(32))
        workers.new_worker(s, "steady", bytes(32))
        s.commit()
        got = queue.lease(s, "flaky", 60)
        assert got is not None
        settle.fail(s, got.game_id, got.token, "flaky", None, "disk full", config)
        played = queue.lease(s, "steady", 60)
        assert played is not None
        record = record_for(db, played.game_id)
        queue.finish(s, played.game_id, played.token, record, ("", ""), (config.game, config.clock))
    with db.session() as s:
        machines = {w.name: (w.stored, w.failing) for w in s.scalars(select(Worker))}
    assert machines == {"flaky": (0, 1), "steady": (1, 0)}


def state_of(db: Database, game_id: int) -> Game:
    with db.session() as s:
        game = s.get(Game, game_id)
        assert game is not None
        s.expunge(game)
        return game


def test_a_game_failed_by_fewer_workers_than_the_limit_is_played_again(contest: Contest) -> None:
    db, config = contest
    game_id = fail_n(db, config, 2, culprit=1)
    game = state_of(db, game_id)
    assert (game.state, game.failures, game.lease) == ("queued", 2, None)
    assert "could not be played on 2 workers: too big" in game.detail


def test_a_game_its_program_made_fail_is_forfeited_by_that_program(contest: Contest) -> None:
    db, config = contest
    game_id = fail_n(db, config, 3, culprit=1)
    game = state_of(db, game_id)
    assert (game.state, game.winner, game.reason, game.plies) == ("done", 0, "forfeit", 0)
    record = GameRecord.from_json(game.record)
    assert record.winner == 0 and record.reason is Reason.FORFEIT and not record.moves
    assert record.score == (12.0, 0.0)  # the contest's points for a win
    assert replay(record).winner == 0  # the archive's records all verify
    with db.session() as s:
        first = s.get(Game, game_id)
        assert first is not None
        winner = first.first.account.name
        line = next(x for x in standings_of(s).lines if x.name == winner)
        assert (line.wins, line.contest_points) == (1, 12.0)


def test_a_game_no_program_made_fail_is_void_and_its_round_still_ends(contest: Contest) -> None:
    db, config = contest
    game_id = fail_n(db, config, 3, culprit=None)
    assert state_of(db, game_id).state == "void"
    with db.session() as s:
        other = queue.lease(s, "w", 60)
        assert other is not None and other.game_id != game_id
        settle.fail(s, other.game_id, other.token, "w", None, "a moment's trouble", config)
        other = queue.lease(s, "w2", 60)  # played again elsewhere: its report is kept
        assert other is not None and other.game_id != game_id
        queue.finish(
            s,
            other.game_id,
            other.token,
            record_for(db, other.game_id),
            ("", ""),
            (config.game, config.clock),
        )
        assert finish_round_if_done(s, 1)
        assert standings_of(s).games == 1  # the void game counts for nobody
        set_aside = listing.void_games(s)  # the organiser's list of them
        assert [g.id for g in set_aside.games] == [game_id] and set_aside.total == 1
        assert rate_finished_rounds(s) == 1  # the server rates the round it finished
        # the organiser may play it again: its round plays again, its ratings undone
        assert settle.requeue(s, game_id)
        s.commit()
        assert listing.void_games(s).total == 0
        replayed = s.get(Game, game_id)
        assert replayed is not None and (replayed.failures, replayed.attempts) == (0, 0)
        assert replayed.round.rated is None
        assert s.scalars(select(Rated).where(Rated.round_id == replayed.round_id)).all() == []
        # the game played again starts with no failure reports; the other keeps its one
        reports = list(s.scalars(select(GameFailure.game_id)))
        assert reports == [other.game_id]
        rnd = s.scalar(select(Round).where(Round.number == 1))
        assert rnd is not None and rnd.state == "playing"
        assert not settle.requeue(s, game_id)  # queued, not void


def test_a_void_game_of_a_round_before_the_latest_is_not_played_again(
    contest: Contest,
) -> None:
    """Once the next round is paired on a round's results, its void game stays void:
    playing it again would change the results the later round was paired on."""
    db, config = contest
    with db.session() as s:
        game = s.scalars(select(Game).order_by(Game.id)).first()
        assert game is not None
        settle.void(game, "its programs could not be fetched")
        game_id = game.id
        s.commit()
    play_round(db, config)
    with db.session() as s:
        assert finish_round_if_done(s, 1)
        assert settle.requeue(s, game_id) is True  # the latest round's: it may play again
        s.rollback()
        make_round(s, config)
        assert settle.requeue(s, game_id) is False
        again = s.get(Game, game_id)
        assert again is not None and again.state == "void"


def test_a_game_whose_workers_keep_dying_is_made_void(contest: Contest) -> None:
    db, _ = contest
    with db.session() as s:
        for i in range(2):
            got = queue.lease(s, f"dead{i}", 60, max_attempts=2)
            assert got is not None
            run_out(s, got.game_id)
        game_id = got.game_id
        queue.lease(s, "alive", 60, max_attempts=2)
    game = state_of(db, game_id)
    assert game.state == "void" and "stopped answering 2 times" in game.detail


def test_disqualifying_forfeits_the_entrants_unplayed_games_at_once(contest: Contest) -> None:
    db, config = contest
    with db.session() as s:
        held = queue.lease(s, "w", 60)
        assert held is not None
        bob = s.scalar(select(Account).where(Account.name == "bob"))
        assert bob is not None
        assert settle.disqualify(s, config, bob.id) == {1}
        s.commit()
        games = list(s.scalars(select(Game)))
        assert all(g.state == "done" and g.reason == "forfeit" for g in games)
        for g in games:  # bob lost each, in either seat
            assert g.winner == (1 if g.first.account_id == bob.id else 0)
        assert finish_round_if_done(s, 1)
    # the worker that held one has its result refused: its lease is gone
    with db.session() as s, pytest.raises(queue.ResultError, match="not this worker's"):
        queue.finish(s, held.game_id, held.token, "{}", ("", ""), (config.game, config.clock))


def test_a_worker_cannot_send_a_forfeit(contest: Contest) -> None:
    db, config = contest
    with db.session() as s:
        got = queue.lease(s, "w", 60)
        assert got is not None
        game = s.get(Game, got.game_id)
        assert game is not None
        forged = settle.forfeit_record(config, game, 1, "made up").to_json()
        with pytest.raises(queue.ResultError, match="does not forfeit"):
            queue.finish(s, got.game_id, got.token, forged, ("", ""), (config.game, config.clock))


def test_a_forfeit_with_moves_or_without_a_winner_does_not_verify() -> None:
    record = GameRecord(
        game="alquerque",
        players=("a", "b"),
        moves=("c3-d4",),
        times=(0.1,),
        winner=0,
        reason=Reason.FORFEIT,
        time_control="30",
    )
    with pytest.raises(RecordError, match="settled unplayed"):
        replay(record)
    with pytest.raises(RecordError, match="settled unplayed"):
        replay(replace(record, moves=(), times=(), winner=None))


def test_a_lease_ending_at_this_very_moment_has_not_yet_run_out(
    contest: Contest, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a worker's lease holds up to its last instant: a game is made void for its
    # workers' silence only once its lease's end is past, never at it
    db, _ = contest
    with db.session() as s:
        first = queue.lease(s, "dead", 60, max_attempts=2)
        assert first is not None
        run_out(s, first.game_id)
        again = queue.lease(s, "slow", 60, max_attempts=5)
        assert again is not None and again.game_id == first.game_id  # its second try
        moment = now().replace(microsecond=0) + timedelta(hours=1)
        s.execute(update(Game).where(Game.id == first.game_id).values(lease_expires=moment))
        s.commit()
        monkeypatch.setattr(settle, "now", lambda: moment)
        assert settle.void_abandoned(s, 2) == 0
        monkeypatch.setattr(settle, "now", lambda: moment + timedelta(microseconds=1))
        assert settle.void_abandoned(s, 2) == 1


def test_a_round_played_again_forgets_its_own_failure_reports_only(
    tmp_path: Path, database_url: str
) -> None:
    """Playing the latest round again clears what workers reported of its games, so
    they are settled afresh; what they reported of an earlier round's games stays."""
    db, config = seeded(tmp_path, database_url, ("alice", "bob", "carol"))
    failed = []  # a game of each round, failed once by a worker before it was played
    for number in (1, 2):
        with db.session() as s:
            make_round(s, config)
            got = queue.lease(s, "w0", 60)
            assert got is not None
            settle.fail(s, got.game_id, got.token, "w0", None, "a moment's trouble", config)
            failed.append(got.game_id)
        play_round(db, config)
        with db.session() as s:
            assert finish_round_if_done(s, number)
    with db.session() as s:
        rerun_round(s, 2)
        assert list(s.scalars(select(GameFailure.game_id))) == [failed[0]]
