"""A stored game as the replay page steps through it: every position's pieces and the
move that led there, found by playing the record's moves again through the contest's
judge (so a record that does not replay is refused, never shown wrongly)."""

from __future__ import annotations

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
    spec = find_game(record.game)
    try:
        game = spec.make(record.options)
        s = game.initial() if record.start is None else spec.notation.parse_position(record.start)
    except ArbiterError as e:
        raise WebError(422, f"cannot set up the game of this record: {e}") from None
    view = spec.board_view()
    frames: list[dict[str, Any]] = [{"pieces": view.pieces(s), "last": [], "text": ""}]
    for ply, text in enumerate(record.moves, 1):
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
        "players": list(record.players),
        "result": result_json(record.outcome),
        "date": record.date,
        "time_control": record.time_control,
        "frames": frames,
        "times": list(record.times),
    }
