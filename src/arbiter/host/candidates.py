"""Candidate evaluation: a version tested against the field before it counts, as
fishtest and CG Arena test a change.

A contestant uploads a version as a candidate (``Version.trial``): it is built and
gated like any, but does not play in rounds until its owner enters it. Its owner
(or the organiser) asks for an evaluation: a round of its own (phase
``candidate``, numbered below zero, never in the standings, played after every
game of the contest's own rounds) of ``games_per_opponent`` games against each other
entrant's current version, and pairs of games (one start, both colours) against its
owner's current version judged by the SPRT (:class:`arbiter.tournament.sprt.Sprt`):
once the test decides, the pairs not yet begun are set aside.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from arbiter.host.config import ContestConfig
from arbiter.host.models import Game, Round, Version
from arbiter.host.rounds import RoundError, entrants, write_round
from arbiter.host.settle import version_name
from arbiter.tournament.bradley_terry import pentanomial as counted_pairs
from arbiter.tournament.ratings import EloEstimate, elo_difference
from arbiter.tournament.sprt import Sprt


def evaluate(session: Session, config: ContestConfig, version: Version) -> Round:
    """Writes the evaluation round of ``version`` (committed).

    :raises RoundError: for a version not accepted, one with an evaluation under way,
        or a field with nobody to play.
    """
    if version.state != "accepted":
        raise RoundError(f"version {version.number} is not accepted: nothing to test")
    busy = session.scalar(
        select(Round)
        .join(Version, Version.id == Round.candidate_id)
        .where(
            Round.phase == "candidate",
            Round.state == "playing",
            Version.account_id == version.account_id,
        )
    )
    if busy is not None:
        raise RoundError("an evaluation of yours is being played: one at a time")
    field = entrants(session)
    others = [e.version for e in field if e.account != version.account_id]
    current = next((e.version for e in field if e.account == version.account_id), None)
    per = config.candidates.games_per_opponent
    pairs = [(version.id, other) for other in others for _ in range(per // 2)]
    if current is not None and current != version.id:
        pairs += [(version.id, current)] * config.candidates.previous_pairs
    if not pairs:
        raise RoundError("no other entrant has an accepted version to play against")
    return write_round(session, config, pairs, None, ("candidate", "candidate", 2), version.id)


@dataclass(frozen=True, slots=True)
class Against:
    """The candidate's games against one opponent version: W/D/L and Elo ± 95%."""

    opponent: str
    wins: int
    draws: int
    losses: int
    waiting: int
    elo: EloEstimate


@dataclass(frozen=True, slots=True)
class Evaluation:
    """One evaluation: its round, state, each opponent, and the SPRT against the
    owner's current version (``None`` when it had none): the pentanomial counts, the
    log-likelihood ratio, its bounds and the decision."""

    round: int
    state: str
    against: list[Against]
    sprt: SprtStatus | None


@dataclass(frozen=True, slots=True)
class SprtStatus:
    test: str
    counts: tuple[int, ...]
    llr: float
    bounds: tuple[float, float]
    decision: str | None


def evaluations(session: Session, config: ContestConfig, version: Version) -> list[Evaluation]:
    """Every evaluation of ``version``, newest first."""
    rounds = session.scalars(
        select(Round)
        .where(Round.phase == "candidate", Round.candidate_id == version.id)
        .order_by(Round.number)
    )
    return [_evaluation(config, version, rnd) for rnd in rounds]


def _evaluation(config: ContestConfig, version: Version, rnd: Round) -> Evaluation:
    by_opponent: dict[int, list[Game]] = {}
    for g in rnd.games:
        other = g.second_id if g.first_id == version.id else g.first_id
        by_opponent.setdefault(other, []).append(g)
    current = _current_of(rnd, version)
    rows = []
    for other, games in by_opponent.items():
        w, d, lost = _wdl(games, version.id)
        opponent = games[0].second if games[0].first_id == version.id else games[0].first
        name = version_name(opponent) + (" (your current version)" if other == current else "")
        waiting = sum(g.state in ("queued", "leased") for g in games)
        rows.append(Against(name, w, d, lost, waiting, elo_difference(w, d, lost)))
    status = None
    if current is not None:
        test = Sprt.parse(config.candidates.sprt)
        counts = pentanomial(by_opponent[current], version.id)
        status = SprtStatus(
            config.candidates.sprt, counts, test.llr(counts), test.bounds, test.decision(counts)
        )
    return Evaluation(-rnd.number, rnd.state, rows, status)


def _current_of(rnd: Round, version: Version) -> int | None:
    """The owner's own version the candidate met in ``rnd`` (the SPRT's opponent)."""
    for g in rnd.games:
        other = g.second if g.first_id == version.id else g.first
        if other.account_id == version.account_id and other.id != version.id:
            return other.id
    return None


def _score(g: Game, version_id: int) -> float | None:
    if g.state != "done":
        return None
    if g.winner is None:
        return 0.5
    seat = 0 if g.first_id == version_id else 1
    return 1.0 if g.winner == seat else 0.0


def _wdl(games: Sequence[Game], version_id: int) -> tuple[int, int, int]:
    scores = [s for s in (_score(g, version_id) for g in games) if s is not None]
    return scores.count(1.0), scores.count(0.5), scores.count(0.0)


def pentanomial(games: Sequence[Game], version_id: int) -> tuple[int, int, int, int, int]:
    """The pairs (two games of one start, colours swapped) finished, by the
    candidate's pair score 0, ¼, ½, ¾, 1."""
    pairs: dict[int, list[float]] = {}
    for g in games:
        score = _score(g, version_id)
        if score is not None:
            pairs.setdefault(g.pair, []).append(score)
    return counted_pairs((p[0], p[1]) for p in pairs.values() if len(p) == 2)


def sprt_step(session: Session, config: ContestConfig, round_id: int) -> bool:
    """After a result of an evaluation: once its SPRT decides, the pairs against the
    owner's version not yet begun are set aside (not committed). True if it stopped
    any."""
    rnd = session.get(Round, round_id)
    if rnd is None or rnd.phase != "candidate" or rnd.candidate_id is None:
        return False
    version = session.get(Version, rnd.candidate_id)
    assert version is not None
    current = _current_of(rnd, version)
    if current is None:
        return False
    games = [g for g in rnd.games if current in (g.first_id, g.second_id)]
    if Sprt.parse(config.candidates.sprt).decision(pentanomial(games, version.id)) is None:
        return False
    stopped = False
    started = {g.pair for g in games if g.state != "queued"}
    for g in games:
        if g.state == "queued" and g.pair not in started:
            g.state = "void"
            g.detail = "the SPRT decided before this pair was played"
            stopped = True
    return stopped
