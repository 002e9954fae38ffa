"""The program's side of the Halma protocol: a built-in engine playing as a contest program
(``arbiter agent``; see :mod:`arbiter.games.halma.contest` for the protocol)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from arbiter.clock import Limit
from arbiter.contract import Agent, AgentRun
from arbiter.errors import ConfigError, NotationError
from arbiter.game import Game, Player
from arbiter.games.halma.contest import move_text, parse_input
from arbiter.games.halma.evaluate import order_hint
from arbiter.games.halma.rules import Move, State

SAFETY = 0.1
"""Of the time a move may take, the share an agent leaves unused."""
RESERVE = 0.05
"""Seconds an agent keeps back on every move for writing its answer and exiting."""
MIN_BUDGET = 0.02
"""Below this many seconds an agent plays without searching."""
PLAYDATA = "playdata.txt"


def _plies(seat: Player, single: bool) -> int:
    """The plies played before this move, counted in ``playdata.txt`` over a GAME (the
    file says nothing of them), and the count advanced."""
    if single:
        return seat
    path = Path(PLAYDATA)
    try:
        moves = int(path.read_text().split()[1])
    except (OSError, ValueError, IndexError):
        moves = 0
    path.write_text(f"moves {moves + 1}\n")
    return 2 * moves + seat


def serve(
    agent: Agent[State, Move], game: Game[State, Move], args: Sequence[str], run: AgentRun
) -> int:
    """One run of the agent: reads ``input.txt`` in the working directory, writes its
    move to ``output.txt``. In SINGLE mode it uses the time given for the one move; in
    GAME mode it shares the remaining time over the moves it expects are left. Its
    own CPU time so far (the interpreter's start-up) is counted against it, and it
    keeps a margin; with almost nothing left it plays the most forward move without
    searching.

    Returns 0 after writing a move, 1 if ``input.txt`` is missing or malformed or
    the position has no legal move.

    :raises ConfigError: if started with arguments (the contest runs agents with none).
    """
    if args:
        raise ConfigError(f"a halma agent is run with no arguments, not {list(args)!r}")
    try:
        given = parse_input(Path("input.txt").read_text(encoding="utf-8"))
    except OSError as e:
        print(f"halma agent: cannot read input.txt: {e.strerror}", file=run.stderr)
        return 1
    except UnicodeDecodeError:
        print("halma agent: input.txt is not text (not UTF-8)", file=run.stderr)
        return 1
    except NotationError as e:
        print(f"halma agent: {e}", file=run.stderr)
        return 1
    s = State(given.state.pieces, given.seat, _plies(given.seat, given.single))
    moves = game.legal_moves(s)
    if not moves:
        print("halma agent: no legal move in input.txt's position", file=run.stderr)
        return 1
    left = given.remaining * (1 - SAFETY) - RESERVE - time.process_time()
    if left < MIN_BUDGET:
        m = max(moves, key=lambda x: order_hint(s, x))
        note = f"no search: {max(left, 0.0):.3f}s left"
    else:
        agent.reset(game, given.seat, run.seed + s.ply)
        limit = Limit(time=left) if given.single else Limit(my_clock=left)
        m = agent.choose(s, limit)
        note = agent.note()
    text = run.reply(move_text(game, s, m, seat=given.seat))
    if run.verbose:
        print(f"{text.replace(chr(10), ' / ')}: {note}", file=run.stderr, flush=True)
    Path("output.txt").write_text(text + "\n", encoding="utf-8")
    return 0


def position_file(text: str) -> tuple[State, float] | None:
    """The position of an ``input.txt`` and the seconds to spend on it, as SINGLE mode
    spends them (``arbiter solve``); ``None`` for a text that is not an input file.

    :raises NotationError: naming the line, for an input file that is broken.
    """
    if text.split(maxsplit=1)[:1] not in (["SINGLE"], ["GAME"]):
        return None
    given = parse_input(text)
    return given.state, given.remaining * (1 - SAFETY)
