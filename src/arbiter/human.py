"""Playing a game in the terminal: a person against a built-in agent.

The person types moves in the contest's own notation. ``moves`` lists the legal
ones, ``undo`` takes back the person's last move (and the engine's answer),
``board`` draws the board again, ``help`` explains, ``quit`` resigns. A malformed
or illegal entry is explained and asked again. After each engine move the search
depth and score are shown when the engine reports them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arbiter.agents.base import Limit, search_note
from arbiter.errors import IllegalMove, NotationError, Reason
from arbiter.game import Outcome, Player
from arbiter.games import GameSpec

HELP = (
    "Type a move in the contest's notation, or one of: moves (list the legal moves), "
    "undo (take back your last move), board (draw the board), help, quit (resign)."
)


def play_terminal(
    spec: GameSpec,
    game: Any,
    human: Player,
    agent: Any,
    move_time: float,
    *,
    seed: int = 0,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> Outcome:
    """Plays one game, the person at seat ``human``; returns the outcome.

    ``read`` and ``write`` default to the terminal; tests pass their own.
    """
    notation = spec.notation
    agent.reset(game, 1 - human, seed)
    s = game.initial()
    last: Any = None
    # (position before, move) for every move so far, for undo
    history: list[tuple[Any, Any]] = []
    names = spec.seat_names
    write(f"{spec.title}: you play {names[human]}, {agent.name} plays {names[1 - human]}.")
    write(HELP)
    out: Outcome | None
    while (out := game.outcome(s)) is None:
        p = game.to_move(s)
        if p != human:
            m = agent.choose(s, Limit(time=move_time))
            text = spec.protocol.move_text(game, s, m, p)
            note = search_note(agent)
            write(f"{agent.name} plays {text}" + (f" ({note})" if note else ""))
            history.append((s, m))
            s, last = game.apply(s, m), m
            continue
        write("")
        write(notation.draw_board(s, last))
        try:
            entry = read(f"{names[p]} to move> ").strip()
        except EOFError:
            out = Outcome(1 - human, Reason.ABORTED, "input ended")
            break
        if not entry:
            continue
        command = entry.lower()
        if command in ("quit", "resign", "exit"):
            out = Outcome(1 - human, Reason.ABORTED, "resigned")
            break
        if command in ("help", "?"):
            write(HELP)
            continue
        if command == "board":
            continue
        if command == "moves":
            write(" ".join(notation.format_move(m) for m in game.legal_moves(s)))
            continue
        if command in ("undo", "takeback"):
            mine = max(
                (i for i, (b, _) in enumerate(history) if game.to_move(b) == human), default=None
            )
            if mine is None:
                write("nothing to undo")
                continue
            s = history[mine][0]
            del history[mine:]
            last = history[-1][1] if history else None
            agent.reset(game, 1 - human, seed)
            write("took back your last move")
            continue
        try:
            m = notation.resolve_move(entry, s, p, game)
        except (NotationError, IllegalMove) as e:
            write(f"not played: {e}")
            continue
        agent.observe(s, m)
        history.append((s, m))
        s, last = game.apply(s, m), m
    write("")
    write(notation.draw_board(s, last))
    if out.winner is None:
        write(f"Draw ({out.reason}).")
    else:
        who = "You win" if out.winner == human else f"{agent.name} wins"
        write(f"{who}: {names[out.winner]} wins by {out.reason}.")
    return out
