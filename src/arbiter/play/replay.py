"""Re-verifying a game record: every move, the clock, the contest's rulings and the result.

:func:`replay` plays the record's moves again through the rules engine and the
contest's judge, runs the clock on the recorded times, calls the contest's
adjudication exactly as the referee loop does, judges an offending text through
the same :func:`~arbiter.referee.match.forfeit`, and checks the contest score.
It raises at the first discrepancy.
"""

from __future__ import annotations

from typing import Any, TypeVar

from arbiter.clock import Clock, TimeControl
from arbiter.contract import GameSpec
from arbiter.errors import ArbiterError, NotationError, Reason, RecordError, Timeout
from arbiter.game import Game, Outcome, RuleEnd
from arbiter.games import find_game
from arbiter.record import GameRecord
from arbiter.referee.match import FAULTS, forfeit

S = TypeVar("S")
M = TypeVar("M")


def replay(record: GameRecord) -> Outcome:
    """Plays the record's moves again and checks its result; returns the verified Outcome.

    :raises RecordError: for an ending the game does not have, at the first move
        that does not parse, is illegal or claims
        wrongly, a move after the game ended, a time the clock did not allow, a
        result or score the moves do not give, or a fault the offending text does
        not commit.
    """
    try:
        spec: GameSpec[Any, Any] = find_game(record.game)
        game = spec.make(record.options)
        tc = TimeControl.parse(record.time_control) if record.time_control else TimeControl()
    except ArbiterError as e:
        raise RecordError(f"cannot set up {record.game!r} with {record.options}: {e}") from None
    if isinstance(record.reason, RuleEnd) and record.reason not in spec.endings:
        raise RecordError(f"unknown reason {record.reason.name!r}: {spec.name} has no such ending")
    try:
        s = game.initial() if record.start is None else spec.notation.parse_position(record.start)
    except NotationError as e:
        raise RecordError(f"bad start position: {e}") from None
    return _check(spec, game, s, tc, record)


def _check(
    spec: GameSpec[S, M], game: Game[S, M], s: S, tc: TimeControl, record: GameRecord
) -> Outcome:
    referee = spec.contest
    clock = Clock.start(tc, n=len(record.players))
    out = referee.adjudicate(game, s, clock, game.outcome(s))
    times = list(record.times) + [0.0] * (len(record.moves) - len(record.times))
    for i, (text, used) in enumerate(zip(record.moves, times, strict=True)):
        if out is not None:
            raise RecordError(f"move {i + 1} {text!r} comes after the game ended ({out.reason})")
        p = game.to_move(s)
        try:
            clock = clock.charge(p, used)
        except Timeout as e:
            raise RecordError(f"move {i + 1} {text!r}: {e}") from None
        try:
            m = referee.judge(game, s, text, seat=0)
        except FAULTS as e:
            raise RecordError(f"move {i + 1} {text!r}: {e}") from None
        s = game.apply(s, m)
        out = referee.adjudicate(game, s, clock, game.outcome(s))
    if out is not None:
        if (out.winner, out.reason) != (record.winner, record.reason):
            raise RecordError(
                f"the record says {record.outcome.result()} by {record.reason}, "
                f"but its {len(record.moves)} moves give {out.result()} by {out.reason}"
            )
        verified = out
    elif record.reason is Reason.FORFEIT:
        if record.moves or record.winner is None:
            raise RecordError("a forfeit is a game settled unplayed: a winner and no moves")
        verified = record.outcome
    elif record.reason.is_fault and record.reason is not Reason.ADJUDICATED:
        # an adjudication comes from the moves and the clock, so it must appear above
        verified = _check_fault(spec, game, s, record)
    else:
        raise RecordError(
            f"the record says {record.outcome.result()} by {record.reason}, "
            f"but its {len(record.moves)} moves leave the game going on"
        )
    score = spec.score(game, s, verified)
    if record.score is not None and tuple(record.score) != score:
        raise RecordError(f"the record scores {record.score}, but the contest scores {score}")
    return verified


def _check_fault(spec: GameSpec[S, M], game: Game[S, M], s: S, record: GameRecord) -> Outcome:
    """A game lost by a fault: the offender was to move, and its offending text, judged
    again through :func:`forfeit`, commits the recorded fault."""
    mover = game.to_move(s)
    if record.winner != 1 - mover:
        raise RecordError(
            f"the record blames seat {1 - (record.winner or 0)} for {record.reason}, "
            f"but seat {mover} was to move"
        )
    if record.offending is None or not record.reason.judged_from_text:
        return record.outcome  # a fault in how or when the text came, not in the text
    text = record.offending
    try:
        spec.contest.judge(game, s, text, seat=mover)
    except FAULTS as e:
        got = forfeit(mover, e)
        if got.reason != record.reason:
            raise RecordError(
                f"offending move {text!r} is {got.reason} ({got.detail}), not {record.reason}"
            ) from None
        return record.outcome
    raise RecordError(f"offending move {text!r} is a good move, not {record.reason}")
