"""A stored game as the replay page steps through it: every position's pieces and the
move that led there, found by playing the record's moves again through the contest's
judge (so a record that does not replay is refused, never shown wrongly)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arbiter.errors import ArbiterError
from arbiter.games import find_game
from arbiter.record import GameRecord
from arbiter.referee.events import one_line
from arbiter.web.sessions import WebError, result_json


def replay_json(record: GameRecord) -> dict[str, Any]:
    """The positions of ``record``, start first.

    :raises WebError: (422) naming the first move that does not replay.
    """
    data = moves_json(record.game, record.players, record.start, record.moves, record.options)
    data.update(
        result=result_json(find_game(record.game).declared(record.outcome)),
        date=record.date,
        time_control=record.time_control,
        times=list(record.times),
    )
    return data


def moves_json(
    name: str,
    players: Sequence[str],
    start: str | None,
    moves: Sequence[str],
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The positions after each of ``moves`` from ``start`` (a game still being
    played, or a record's), each with the path of the move that led there.

    :raises WebError: (422) naming the first move that does not replay.
    """
    spec = find_game(name)
    try:
        game = spec.make(options or {})
        s = game.initial() if start is None else spec.notation.parse_position(start)
    except ArbiterError as e:
        raise WebError(422, f"cannot set up the game of this record: {e}") from None
    view = spec.board_view()
    frames: list[dict[str, Any]] = [{"pieces": view.pieces(s), "last": [], "text": ""}]
    for ply, text in enumerate(moves, 1):
        seat = game.to_move(s)
        try:
            m = spec.contest.judge(game, s, text, seat=0)
        except ArbiterError as e:
            raise WebError(422, f"move {ply} ({one_line(text)!r}) does not replay: {e}") from None
        path = view.clicks.move_path(s, m)
        s = game.apply(s, m)
        frames.append(
            {
                "pieces": view.pieces(s),
                "last": list(path),
                "text": one_line(text),
                "seat": seat,
            }
        )
    return {
        "game": spec.name,
        "title": spec.title,
        "seat_names": list(spec.seat_names),
        "players": list(players),
        "frames": frames,
    }
