"""Rounds and standings: who plays (each entrant's newest accepted version), whom they
meet (:mod:`arbiter.host.pairing`), and the table made from every stored game.

A round's games are written when the round is made, all at once, each with its
number, seats, opening and seed, so a round is the same whoever plays it and
whenever: workers only fill in results. The standings reuse the tournament's
(:func:`arbiter.tournament.report.standings`: scores, Bradley-Terry ratings with 95%
intervals, the contest's own points), counting by entrant, not by version, with
Swiss byes credited.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import case, delete, func, select
from sqlalchemy.orm import Session

from arbiter.errors import ArbiterError
from arbiter.games import find_game
from arbiter.host import tallies
from arbiter.host.calendar import stamp
from arbiter.host.config import ContestConfig
from arbiter.host.models import (
    COUNTED,
    Account,
    Bye,
    Game,
    GameFailure,
    Round,
    Setting,
    Superseded,
    Version,
    now,
    stored_utc,
)
from arbiter.host.pairing import placement, round_robin, swiss
from arbiter.host.ranking import ranked_rows
from arbiter.host.ratings import ContestTable, contest_table, latest_strengths, unrate
from arbiter.tournament.openings import default_openings, for_pairs


class RoundError(ArbiterError, ValueError):
    """A round that cannot be made now; the message says why."""


@dataclass(frozen=True, slots=True)
class Entrant:
    account: int
    name: str
    version: int


def entrants(session: Session, before: datetime | None = None) -> list[Entrant]:
    """Contestants not disqualified with an accepted version, each with its newest
    (candidates held back for testing left out)
    (with ``before``: its newest uploaded by then, the final's frozen version)."""
    accepted = (Version.state == "accepted") & Version.trial.is_(False)
    if before is not None:
        accepted = accepted & (Version.uploaded <= before.astimezone(UTC))
    newest = (
        select(Version.account_id, func.max(Version.number).label("number"))
        .where(accepted)
        .group_by(Version.account_id)
        .subquery()
    )
    rows = session.execute(
        select(Account.id, Account.name, Version.id)
        .join(Version, Version.account_id == Account.id)
        .join(
            newest,
            (newest.c.account_id == Version.account_id) & (newest.c.number == Version.number),
        )
        .where(Account.disqualified.is_(False), Account.role == "contestant")
        .order_by(Account.name)
    )
    return [Entrant(a, n, v) for a, n, v in rows]


def current_phase(session: Session) -> str:
    """``final`` once a round of the final has been made, else ``test``: the phase
    the standings show."""
    found = session.scalar(select(Round.id).where(Round.phase == "final").limit(1))
    return "test" if found is None else "final"


def final_begun(session: Session, config: ContestConfig, at: datetime | None = None) -> bool:
    """Whether the next round belongs to the final: the contest has one, and uploads
    have closed or the organiser began it by hand (or a round of it exists)."""
    if config.calendar.final is None:
        return False
    return (
        config.calendar.closed(at or now())
        or session.get(Setting, "final_from") is not None
        or current_phase(session) == "final"
    )


def frozen_at(session: Session, config: ContestConfig) -> datetime:
    """When the final's versions were frozen: ``closes``, or the moment the organiser
    began the final (stored, so it never moves).

    :raises RoundError: if neither has happened.
    """
    begun = session.get(Setting, "final_from")
    if begun is not None:
        return datetime.fromisoformat(begun.value)
    if config.calendar.closes is not None and config.calendar.closed(now()):
        return config.calendar.closes
    raise RoundError("the final has not begun")


def begin_final(session: Session, config: ContestConfig) -> datetime:
    """Begins the final now (not committed): the versions are those accepted from
    uploads before this moment (or before ``closes``, if that came first).

    :raises RoundError: for a contest without a final, or one begun already.
    """
    if config.calendar.final is None:
        raise RoundError("this contest has no final ([final] in the contest file)")
    if session.get(Setting, "final_from") is not None or current_phase(session) == "final":
        raise RoundError("the final has begun already")
    at = now()
    if config.calendar.closes is not None and config.calendar.closed(at):
        at = config.calendar.closes
    session.merge(Setting(key="final_from", value=at.isoformat()))
    return at


def _phase_rounds(session: Session, phase: str, kind: str | None = None) -> int:
    query = select(func.count(Round.id)).where(Round.phase == phase)
    if kind is not None:
        query = query.where(Round.kind == kind)
    return session.scalar(query) or 0


def round_blocked(session: Session, config: ContestConfig) -> str | None:
    """Why no round can be started now (one is being played, the contest's Swiss
    rounds have all been played, the final is over), or ``None``: what the
    organiser's page says in place of its button."""
    playing = session.scalar(select(Round).where(Round.state == "playing", COUNTED))
    if playing is not None:
        return f"round {playing.number} is still being played"
    final = config.calendar.final
    if final is not None and final_begun(session, config):
        swiss_done = _phase_rounds(session, "final", "swiss")
        robin_done = _phase_rounds(session, "final", "round-robin")
        if swiss_done >= final.rounds and (final.top == 0 or robin_done):
            return "the final has been played"
        return None
    done = _phase_rounds(session, "test")
    unending = config.calendar.every is not None
    if config.format.kind == "swiss" and not unending and done >= config.format.rounds:
        return f"the contest's {config.format.rounds} Swiss rounds have been played"
    return None


def schedule_due(session: Session, config: ContestConfig, at: datetime) -> bool:
    """Whether the schedule (``[schedule] every``) starts a round at ``at``: none is
    being played and the contest has rounds left, and either the final has begun
    (its rounds then follow each other) or :func:`next_scheduled` has come (or there
    was no round and no ``first``: as soon as a round can be paired)."""
    if config.calendar.every is None or round_blocked(session, config) is not None:
        return False
    if final_begun(session, config, at):
        return True
    due = next_scheduled(session, config)
    return due is None or at >= due


def next_scheduled(session: Session, config: ContestConfig) -> datetime | None:
    """When the schedule makes the next test round: ``[schedule] first`` until a test
    round exists, then ``every`` after the last one was made (never before ``first``);
    None without a schedule, or before any round where no ``first`` is set (the first
    round then starts once two entrants have a version accepted)."""
    cal = config.calendar
    if cal.every is None:
        return None
    last = session.scalar(select(func.max(Round.created)).where(Round.phase == "test"))
    if last is None:
        return cal.first
    due = stored_utc(last) + cal.every
    return due if cal.first is None else max(due, cal.first)


def next_round_words(session: Session, config: ContestConfig, at: datetime) -> str | None:
    """When the next test round starts, as the contest's pages say it; None where the
    schedule starts none (no ``every``, or the final has begun)."""
    if config.calendar.every is None or final_begun(session, config, at):
        return None
    due = next_scheduled(session, config)
    playing = session.scalar(select(Round.number).where(Round.state == "playing", COUNTED))
    if playing is not None:
        later = "" if due is None or due <= at else f", at {stamp(due)} at the earliest"
        return f"The next test round starts once round {playing} has been played{later}."
    blocked = round_blocked(session, config)
    if blocked is not None:
        return f"No more test rounds: {blocked}."
    if due is not None and due > at:
        return f"The next test round starts at {stamp(due)}."
    if len(entrants(session)) < 2:
        return "The next test round starts as soon as two entrants have a version accepted."
    return "The next test round starts now."


def make_round(session: Session, config: ContestConfig) -> Round:
    """Pairs and writes the next round (committed): a test round in the contest's
    format, or once the final has begun its next round (Swiss, then the top group's
    round robin) among the versions frozen when it began.

    :raises RoundError: while a round is still being played, after the contest's last
        Swiss round or the final's last round, or with fewer than two entrants.
    """
    blocked = round_blocked(session, config)
    if blocked is not None:
        raise RoundError(blocked)
    if final_begun(session, config):
        return _final_round(session, config)
    field = entrants(session)
    kind = config.format.kind
    if len(field) < 2:
        raise RoundError("a round needs at least two entrants with an accepted version")
    bye = None
    if kind == "swiss":
        pairs, bye = _swiss_pairs(session, field, "test")
    else:
        table = standings_of(session, "test", latest_strengths(session, "test"))
        order = _standing_order(field, table)
        if kind == "ladder":
            pairs = _ladder_pairs(session, order)
            if not pairs:
                raise RoundError("no new version waits for its placement games")
        else:
            pairs = round_robin([e.account for e in order])
    per_pair = 2 if kind == "ladder" else config.format.games_per_pair
    return _write_round(session, config, field, pairs, bye, ("test", kind, per_pair))


def _final_round(session: Session, config: ContestConfig) -> Round:
    final = config.calendar.final
    assert final is not None  # final_begun says so
    field = entrants(session, before=frozen_at(session, config))
    if len(field) < 2:
        raise RoundError("the final needs at least two entrants with a version from before it")
    if _phase_rounds(session, "final", "swiss") < final.rounds:
        pairs, bye = _swiss_pairs(session, field, "final")
        return _write_round(session, config, field, pairs, bye, ("final", "swiss", 2))
    basis = "final" if final.rounds else "test"
    table = standings_of(session, basis)
    accounts = {e.name: e for e in field}
    byes = bye_points_by_name(session, basis)
    rows = ranked_rows(config.game, table.lines, byes, set(), config.rank_by)
    ranked = [accounts[r["name"]] for r in rows if r["name"] in accounts]
    ranked += [e for e in field if e not in ranked]
    top = ranked[: final.top]
    pairs = round_robin([e.account for e in top])
    return _write_round(
        session, config, top, pairs, None, ("final", "round-robin", final.games_per_pair)
    )


def _swiss_pairs(
    session: Session, field: Sequence[Entrant], phase: str
) -> tuple[list[tuple[int, int]], int | None]:
    """A Swiss round's pairs among ``field`` and its bye, on the scores (the standings
    of ``phase``, fitted from the last round's ratings), meetings and byes of
    ``phase`` alone (the final starts everyone from nothing); the phase's tallies
    are read once for both the table and the meetings."""
    tallied = tallies.read(session, phase)
    table = standings_of(session, phase, latest_strengths(session, phase), tallied)
    order = _standing_order(field, table)
    credited = bye_points(session, phase)
    scores = {e.account: table.points(e.name) + credited.get(e.account, 0.0) for e in field}
    met = _meetings(session, phase, tallied)
    byes = Counter(
        session.scalars(
            select(Bye.account_id).join(Round, Round.id == Bye.round_id).where(Round.phase == phase)
        )
    )
    return swiss([e.account for e in order], scores, met, byes)


def _write_round(
    session: Session,
    config: ContestConfig,
    field: Sequence[Entrant],
    pairs: Sequence[tuple[int, int]],
    bye: int | None,
    what: tuple[str, str, int],
) -> Round:
    """Writes a round of ``pairs`` of accounts of ``field`` (see :func:`write_round`)."""
    by_account = {e.account: e.version for e in field}
    versions = [(by_account[a], by_account[b]) for a, b in pairs]
    return write_round(session, config, versions, bye, what)


def write_round(
    session: Session,
    config: ContestConfig,
    pairs: Sequence[tuple[int, int]],
    bye: int | None,
    what: tuple[str, str, int],
    candidate: int | None = None,
) -> Round:
    """Writes a round of ``pairs`` of versions (``what`` is its phase, kind and games
    a pair, both colours in turn, each pair from one start) with its openings and
    seeds, and the account ``bye`` credited (committed). Test and final rounds are
    numbered on from the last; a candidate evaluation (``candidate``: the version it
    tests) below zero."""
    phase, kind, per_pair = what
    if phase == "candidate":
        lowest = session.scalar(select(func.min(Round.number))) or 0
        number = min(lowest, 0) - 1
    else:
        number = (session.scalar(select(func.max(Round.number)).where(COUNTED)) or 0) + 1
    rnd = Round(number=number, kind=kind, state="playing", phase=phase, candidate_id=candidate)
    session.add(rnd)
    session.flush()
    spec = find_game(config.game)
    openings = default_openings(spec) if spec.contest.STARTS_ANYWHERE else []
    rng = random.Random(f"{config.name}/{number}")
    offset = rng.randrange(max(1, len(openings)))
    starts = for_pairs(openings[offset:] + openings[:offset], len(pairs))
    owner = dict(
        session.execute(
            select(Version.id, Version.account_id).where(
                Version.id.in_({v for pair in pairs for v in pair})
            )
        ).all()
    )
    game_number = 0
    for pair, (a, b) in enumerate(pairs):
        for k in range(per_pair):
            first, second = (a, b) if k % 2 == 0 else (b, a)
            game_number += 1
            session.add(
                Game(
                    round_id=rnd.id,
                    number=game_number,
                    pair=pair,
                    first_id=first,
                    second_id=second,
                    start=starts[pair],
                    seed=rng.randrange(1 << 31),
                    phase=phase,
                    round_number=number,
                    first_account_id=owner[first],
                    second_account_id=owner[second],
                )
            )
    rnd.size = game_number
    if bye is not None:
        session.add(Bye(round_id=rnd.id, account_id=bye, points=float(per_pair)))
    session.commit()
    return rnd


def _meetings(session: Session, phase: str, pairs: tallies.PairTallies) -> Counter[frozenset[int]]:
    """How many games each two accounts were paired for so far in ``phase``: those
    stored, from its tallies ``pairs`` (a row a pair), and those not stored (waiting,
    or set aside), from the games themselves (few, through the index of states)."""
    met: Counter[frozenset[int]] = Counter()
    for first, second, games in zip(
        pairs.column("first").tolist(),
        pairs.column("second").tolist(),
        pairs.column("games").tolist(),
        strict=True,
    ):
        met[frozenset((int(first), int(second)))] += int(games)
    for first, second, in_phase in session.execute(
        # by state alone, so the index of states is the one read (the phase's would
        # read every game of it)
        select(Game.first_account_id, Game.second_account_id, Game.phase).where(
            Game.state.in_(("queued", "leased", "void"))
        )
    ):
        if in_phase == phase:
            met[frozenset((first, second))] += 1
    return met


def _ladder_pairs(session: Session, order: Sequence[Entrant]) -> list[tuple[int, int]]:
    """Placement pairs for each entrant whose newest version has played no game."""
    counted = select(Game.id).join(Round, Round.id == Game.round_id).where(COUNTED)
    played = set(session.scalars(select(Game.first_id).where(Game.id.in_(counted)))) | set(
        session.scalars(select(Game.second_id).where(Game.id.in_(counted)))
    )
    pairs: list[tuple[int, int]] = []
    placed = [e.account for e in order if e.version in played]
    for e in order:
        if e.version not in played:
            others = [a for a in placed if a != e.account] or [
                o.account for o in order if o.account != e.account
            ]
            pairs += placement(e.account, others, 2 * max(1, len(others) // 2))
    return pairs


def finish_round_if_done(session: Session, round_id: int) -> bool:
    """Marks a round done once none of its games waits (each is stored, forfeited or
    void; committed); True if it is."""
    rnd = session.get(Round, round_id)
    if rnd is None or rnd.state == "done":
        return rnd is not None
    waiting = session.scalar(
        select(func.count(Game.id)).where(
            Game.round_id == round_id, Game.state.not_in(("done", "void"))
        )
    )
    if waiting:
        return False
    rnd.state = "done"
    rnd.finished = now()
    session.commit()
    return True


def rerun_round(session: Session, number: int) -> Round:
    """Plays the latest round again: its games back in the queue with their results
    cleared (same pairings, seats, openings and seeds), the round playing again
    (committed). Each result erased is kept as :class:`Superseded`. Only the latest:
    later Swiss rounds were paired on its results.

    :raises RoundError: for no such round, or one that is not the latest.
    """
    rnd = session.scalar(select(Round).where(Round.number == number, COUNTED))
    latest = session.scalar(select(func.max(Round.number)).where(COUNTED))
    if rnd is None:
        raise RoundError(f"no round {number}")
    if number != latest:
        raise RoundError(f"only the latest round ({latest}) can be played again")
    session.execute(delete(GameFailure).where(GameFailure.game_id.in_([g.id for g in rnd.games])))
    for game in rnd.games:
        if game.state == "done":
            tallies.count(session, game, -1)
            session.add(
                Superseded(
                    game_id=game.id,
                    round_id=rnd.id,
                    number=game.number,
                    winner=game.winner,
                    reason=game.reason,
                    detail=game.detail,
                    record=game.record,
                    finished=game.finished,
                )
            )
        game.state = "queued"
        game.lease = game.worker = None
        game.lease_expires = game.finished = None
        game.winner = game.points_first = game.points_second = None
        game.reason = game.detail = game.record = game.log_first = game.log_second = ""
        game.moves = ""
        game.score_first = None
        game.irregular = False
        game.plies = game.attempts = game.failures = 0
    rnd.state = "playing"
    rnd.finished = None
    unrate(session, rnd)
    session.commit()
    return rnd


def bye_points(session: Session, phase: str | None = None) -> dict[int, float]:
    """The points each account was credited for its Swiss byes (in ``phase``, or the
    current one)."""
    phase = phase or current_phase(session)
    rows = session.execute(
        select(Bye.account_id, func.sum(Bye.points))
        .join(Round, Round.id == Bye.round_id)
        .where(Round.phase == phase)
        .group_by(Bye.account_id)
    )
    return {a: float(p) for a, p in rows}


@dataclass(frozen=True, slots=True)
class IrregularGame:
    """A game an entrant's program lost by a fault (an illegal move, time, a crash, a
    forfeit): its id, round, the losing version's number and seat (1 or 2), why."""

    id: int
    round: int
    version: int
    seat: int
    reason: str
    detail: str


def irregular_games(session: Session, account_id: int, limit: int = 50) -> list[IrregularGame]:
    """The newest ``limit`` games the entrant ``account_id`` lost by a fault, newest
    first: what its owner looks at first when a program misbehaves."""
    lost = Game.irregular & (
        ((Game.first_account_id == account_id) & (Game.winner == 1))
        | ((Game.second_account_id == account_id) & (Game.winner == 0))
    )
    rows = session.execute(
        select(Game.id, Game.round_number, Game.winner, Game.reason, Game.detail, Version.number)
        .join(Version, Version.id == case((Game.winner == 0, Game.second_id), else_=Game.first_id))
        .where(Game.state == "done", lost)
        .order_by(Game.id.desc())
        .limit(limit)
    )
    return [
        IrregularGame(game, number, version, 2 if winner == 0 else 1, reason, detail)
        for game, number, winner, reason, detail, version in rows
    ]


def bye_points_by_name(session: Session, phase: str | None = None) -> dict[str, float]:
    """:func:`bye_points` by entrant name, as the standings rows count them."""
    credited = bye_points(session, phase)
    names = session.execute(select(Account.id, Account.name).where(Account.id.in_(credited)))
    return {name: credited[account] for account, name in names}


def standings_of(
    session: Session,
    phase: str | None = None,
    start: Mapping[int, float] | None = None,
    pairs: tallies.PairTallies | None = None,
) -> ContestTable:
    """The table of every stored game of ``phase`` (or the current one), by entrant,
    from the tallies (byes are not games: see :func:`bye_points`); ``start`` and
    ``pairs`` as :func:`arbiter.host.ratings.contest_table` takes them."""
    return contest_table(session, phase or current_phase(session), start, pairs)


def _standing_order(field: Sequence[Entrant], table: ContestTable) -> list[Entrant]:
    rank = {line.name: i for i, line in enumerate(table.lines)}
    return sorted(field, key=lambda e: (rank.get(e.name, len(rank)), e.name))
