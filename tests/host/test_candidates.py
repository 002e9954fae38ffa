"""Candidate evaluation: a version held back plays nobody's rounds, its evaluation
plays each entrant and pairs against its owner's version after the contest's own
games, never enters the standings, stops the SPRT's pairs once it decides, and runs
one at a time."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from arbiter.host import queue
from arbiter.host.candidates import evaluate, evaluations, pentanomial, sprt_step
from arbiter.host.models import Account, Game, Round, Version
from arbiter.host.rounds import RoundError, entrants, finish_round_if_done, make_round
from arbiter.host.standings import standings_data
from tests.host.contests import play_round, seeded, version


def candidate_of(s: object, name: str, number: int = 2) -> Version:
    account = s.scalars(select(Account).where(Account.name == name)).one()  # type: ignore[attr-defined]
    trial = version(account.id, number)
    trial.trial = True
    s.add(trial)  # type: ignore[attr-defined]
    s.commit()  # type: ignore[attr-defined]
    return trial


def test_an_evaluation_plays_the_field_and_the_owners_version_and_leaves_the_standings(
    tmp_path: Path, database_url: str
) -> None:
    db, config = seeded(tmp_path, database_url, ("alice", "bob", "carol"), kind="round-robin")
    with db.session() as s:
        make_round(s, config)
    play_round(db, config)
    with db.session() as s:
        finish_round_if_done(s, 1)
        before = standings_data(s, config)
        trial = candidate_of(s, "alice")
        assert trial.id not in {e.version for e in entrants(s)}  # held back
        rnd = evaluate(s, config, trial)
        assert (rnd.phase, rnd.number, rnd.candidate_id) == ("candidate", -1, trial.id)
        against = [g.second_id if g.first_id == trial.id else g.first_id for g in rnd.games]
        alice_v1 = next(e.version for e in entrants(s) if e.name == "alice")
        assert against.count(alice_v1) == 2 * config.candidates.previous_pairs
        assert len(against) == 2 * 2 + 2 * config.candidates.previous_pairs
        with pytest.raises(RoundError, match="one at a time"):
            evaluate(s, config, trial)
        # a game being played waits for its result like a queued one
        playing = queue.lease(s, "w", 60)
        assert playing is not None and s.get(Game, playing.game_id).round_id == rnd.id  # type: ignore[union-attr]
        shown = evaluations(s, config, trial)[0].against
        assert sum(a.waiting for a in shown) == len(rnd.games)
        queue.release(s, playing.game_id, playing.token)
        # a contest round made meanwhile is played first
        make_round(s, config)
        lease = queue.lease(s, "w", 60)
        assert lease is not None
        assert s.get(Game, lease.game_id).round.phase == "test"  # type: ignore[union-attr]
        queue.release(s, lease.game_id, lease.token)
    play_round(db, config)
    with db.session() as s:
        finish_round_if_done(s, 2)
        after = standings_data(s, config)
        # the candidate's games are in nobody's standings: round 2 added 6 games each
        assert (
            sum(r["games"] for r in after["rows"])
            == sum(r["games"] for r in before["rows"]) + 2 * 6
        )
        assert [r["number"] for r in after["rounds"]] == [1, 2]
        found = evaluations(s, config, s.get(Version, trial.id))  # type: ignore[arg-type]
        assert len(found) == 1 and found[0].sprt is not None
        rows = {a.opponent: a for a in found[0].against}
        assert set(rows) == {"bob v1", "carol v1", "alice v1 (your current version)"}
        # each opponent's games are won, drawn, lost or still waiting, every one counted
        pairs = config.candidates.previous_pairs
        for name, row in rows.items():
            expected = 2 * pairs if name.startswith("alice") else 2  # a pair each
            assert row.wins + row.draws + row.losses + row.waiting == expected, row
        assert sum(r.wins + r.draws + r.losses for r in rows.values()) > 0  # some were played
        # each result under its own word: bob's played games drawn, carol's won by carol
        rnd = s.scalars(select(Round).where(Round.candidate_id == trial.id)).one()
        drawn = lost = 0
        for g in rnd.games:
            opponent = g.second if g.first_id == trial.id else g.first
            if g.state != "done" or opponent.account.name == "alice":
                continue
            if opponent.account.name == "bob":
                g.winner, drawn = None, drawn + 1
            else:
                g.winner, lost = (1 if g.first_id == trial.id else 0), lost + 1
        s.flush()
        assert drawn and lost
        rows = {a.opponent: a for a in evaluations(s, config, trial)[0].against}
        assert (rows["bob v1"].wins, rows["bob v1"].draws, rows["bob v1"].losses) == (0, drawn, 0)
        assert (rows["carol v1"].wins, rows["carol v1"].draws, rows["carol v1"].losses) == (
            0,
            0,
            lost,
        )


def test_the_sprt_stops_the_pairs_not_begun_once_it_decides(
    tmp_path: Path, database_url: str
) -> None:
    db, config = seeded(tmp_path, database_url, ("alice", "bob"))
    with db.session() as s:
        trial = candidate_of(s, "alice")
        rnd = evaluate(s, config, trial)
        mine = [g for g in rnd.games if g.first.account_id == g.second.account_id]
        budget = config.candidates.previous_pairs
        assert len(mine) == 2 * budget
        decided_after = None
        for pair in range(budget):
            for g in (g for g in mine if g.pair == mine[0].pair + pair):
                g.state = "done"
                g.winner = 0 if g.first_id == trial.id else 1  # the candidate wins both
            s.flush()
            if sprt_step(s, config, rnd.id):
                decided_after = pair + 1
                break
        assert decided_after is not None and decided_after < budget
        counts = pentanomial(mine, trial.id)
        assert counts == (0, 0, 0, 0, decided_after)
        left = [g.state for g in mine if g.pair >= mine[0].pair + decided_after]
        assert left and set(left) == {"void"}
        s.commit()
        status = evaluations(s, config, trial)[0].sprt
        assert status is not None and status.decision == "H1"


def test_only_an_accepted_version_with_someone_to_play_is_evaluated(
    tmp_path: Path, database_url: str
) -> None:
    db, config = seeded(tmp_path, database_url, ("alice",))
    with db.session() as s:
        trial = candidate_of(s, "alice")
        trial.state = "refused"
        s.commit()
        with pytest.raises(RoundError, match="not accepted"):
            evaluate(s, config, trial)
        alone = s.scalars(select(Version).where(Version.number == 1)).one()
        with pytest.raises(RoundError, match="no other entrant"):
            evaluate(s, config, alone)
        assert s.scalar(select(Round)) is None


def test_a_half_played_pair_is_played_out_when_the_sprt_decides(
    tmp_path: Path, database_url: str
) -> None:
    # a pair is one start with both colours: the SPRT counts pairs, so a pair begun
    # is finished, and only the pairs not begun are set aside
    db, config = seeded(tmp_path, database_url, ("alice", "bob"))
    with db.session() as s:
        trial = candidate_of(s, "alice")
        rnd = evaluate(s, config, trial)
        mine = [g for g in rnd.games if g.first.account_id == g.second.account_id]
        pairs = sorted({g.pair for g in mine})
        begun = [g for g in mine if g.pair == pairs[-1]]
        begun[0].state, begun[0].winner = "done", 0
        s.flush()
        for pair in pairs[:-1]:
            for g in (g for g in mine if g.pair == pair):
                g.state = "done"
                g.winner = 0 if g.first_id == trial.id else 1
            s.flush()
            if sprt_step(s, config, rnd.id):
                break
        else:
            raise AssertionError("the SPRT never decided")
        assert begun[1].state == "queued"  # its pair's second game is still to be played
        assert any(g.state == "void" for g in mine)
