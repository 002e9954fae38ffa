"""The alpha-beta agent: iterative-deepening negamax, generic over every game.

Search: negamax with alpha-beta pruning and principal variation search (null
windows after the first move), a transposition table keyed by
``game.position_key``, move ordering (table move, killer moves, the game's
``order_hint``, history heuristic) and, where the game gives ``noisy_moves``, a
quiescence search over them. Iterative deepening stops when the time budget is
near, returning the best move of the deepest finished iteration (or a better move
found part way through the next one), or once an iteration proves the game's end
within its depth (:func:`proven`). Late-move reductions (``reduce``) and late-move
pruning (``prune``, :data:`PRUNE_KEEP`) are on where a game's evaluation asks for them.

Given a seed and a fixed depth, the choices are repeatable: the seed only
shuffles the root moves before ordering, so different seeds give different games
between equal positions.

Where the game was made with a compiled kernel (``game.compiled``, see
:mod:`arbiter.core`) and the agent is asked to use it, each iteration runs in C
(``csrc/search.c``: the same search, with the game's evaluation compiled in and a
fixed-size table); the iterative deepening, the time budget and the root order stay
here, so both paths choose alike.
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, Generic, TypeVar

from arbiter.clock import Limit
from arbiter.contract import Evaluation
from arbiter.core import CompiledRules
from arbiter.game import Game, Player

if TYPE_CHECKING:
    from arbiter._core import Searcher

S = TypeVar("S")
M = TypeVar("M", bound=Hashable)

WIN = 1_000_000
HASH_MB = 16
"""The transposition table's default size in megabytes: with the interpreter's own
25 MB, well inside the Alquerque contest's 64 MB."""
ENTRY_BYTES = 600
"""What one table entry costs in memory (key, value and the dict's slot), measured
at about 560 bytes in Alquerque, the largest keys here."""
_MATE_ZONE = WIN - 10_000
_EXACT, _LOWER, _UPPER = 0, 1, 2
_INF = 10 * WIN


def proven(score: int, depth: int) -> bool:
    """True when an iteration ``depth`` plies deep has settled the game: a won or lost
    ``score`` whose end lies within those plies. A deeper iteration can find no
    quicker win (or slower loss) then. A win further off came from the table, from a
    position an earlier search proved: taken as final, it has the winner go back
    there, find the same far win again, and never arrive (a cycle to the move limit).

    >>> proven(WIN - 3, 3), proven(WIN - 7, 2), proven(3 - WIN, 5), proven(0, 64)
    (True, False, True, False)
    """
    return abs(score) >= _MATE_ZONE and WIN - abs(score) <= depth


class Reductions(IntEnum):
    """Which late moves the search reduces (a game's evaluation names its default in
    ``REDUCE``, the engine option ``reduce`` overrides it)."""

    NONE = 0
    ALL = 1
    """Every late move."""
    QUIET = 2
    """Only the late moves the game's ``order_hint`` does not favour (a hint of 0 or
    less): where the moves that advance are few and decide the race, they keep their
    full depth."""


REDUCE_FROM = 3
"""With late-move reductions, a node's moves from this one on (in the search order) are
first searched a ply shallower..."""
REDUCE_DEPTH = 3
"""...where the node has this depth or more left."""
FIXED_SAFETY = 0.9
"""The share of a fixed time per move (``Limit.time``: no game clock to save for) that a
search spends: time not spent on such a move is lost, so the search runs on to this
deadline rather than stopping once its next iteration looks unlikely to finish (a
partial iteration still counts: the previous best move is searched first, and another
that proves better replaces it). At 0.8 and stopping new iterations past half of that,
as on a game clock, the engines spent about 0.63 s of a 1 s move."""
RESERVE = 0.01
"""Seconds kept back from every timed search for what follows it: writing the reply, and
the move list and ordering that precede the search (which matter on a 0.1 s move)."""
WALL_RESERVE = 0.015
"""Seconds more kept back when the move is charged by the wall clock (Alquerque's): on a
busy machine the search's thread can wait that long for a core, and a wall clock runs
on while it waits (a CPU clock does not). A 0.05 s move on a 2-core machine with every
core taken overran by over 20 ms with the CPU's reserve alone."""
PRUNE_KEEP = 8
"""With late-move pruning (the engine option ``prune=N``, a game's default ``PRUNE``), a
node with N plies or fewer left searches only its first PRUNE_KEEP moves a ply left, in
the search order (the table move, killers, history and the game's hint first). In
Halma's middle game a side has 150-200 moves and a search at 0.7 s reached depth 4;
a race is decided by the few moves that advance most, and pruning the rest near the
leaves reaches depth 5 in a tenth of the time."""
CHECK_EVERY = 16
"""Nodes between two looks at the clock: a Chinese checkers node (its hop chains) costs
up to a millisecond, so 256 nodes overran a 0.1 s move; a look costs a microsecond."""


def wall_deadline(limit: Limit, budget: float | None, safety: float, w0: float) -> float | None:
    """When, on the wall clock (``perf_counter``, the move asked at ``w0``), a search
    stops whatever it has spent: by the referee's stop less the margin of a starved
    thread (:meth:`~arbiter.clock.Limit.answer_by`), and on a CPU clock also at three
    times its budget (the machine is too busy to spend the budget in good time).

    >>> wall_deadline(Limit(time=3.0, wall_stop=7.0), 3.0, 0.8, 0.0)
    6.0
    >>> round(wall_deadline(Limit(time=1.0, wall_stop=3.0), 1.0, 0.8, 0.0), 2)
    2.0
    """
    found = []
    if budget is not None and not limit.wall:
        found.append(w0 + 3 * budget * safety + 0.05)
    stop = limit.answer_by()
    if stop is not None:
        found.append(w0 + stop)
    return min(found, default=None)


@dataclass(frozen=True, slots=True)
class Repeats(Generic[S]):
    """When a side should not repeat itself: once its evaluation is at least ``ahead``,
    it avoids the moves that leave a position (by ``key``, without the move count)
    that one of its moves left before in the game, where it has another. A side ahead
    that shuffles between positions only walks to a tie (Alquerque's 100-move tie)."""

    ahead: int
    key: Callable[[S], Hashable]


class _Stop(Exception):
    """Raised inside the search when the budget is spent."""


@dataclass(frozen=True, slots=True)
class SearchInfo:
    """What the last search did: deepest finished depth, its score, nodes and seconds."""

    depth: int
    score: int
    nodes: int
    seconds: float
    move: object


class AlphaBetaAgent(Generic[S, M]):
    """Iterative-deepening alpha-beta over any :class:`~arbiter.game.Game`.

    The game's ``evaluation`` scores positions for the side to move, ranks moves
    (``order_hint``, higher first) and lists forced moves (``noisy_moves``,
    compulsory captures) that a quiescence search plays out when the depth runs out,
    without standing pat, since the side to move has no other choice. ``depth`` fixes
    the search depth and then the time budget is ignored, so that play is repeatable
    whatever the machine's speed; ``nodes`` caps the nodes of each search.
    ``safety`` is the share of a game clock's budget the search may use before it
    stops (a fixed time per move is spent to :data:`FIXED_SAFETY`).
    ``hash_mb`` bounds the transposition table: once full it takes no new positions
    until the next move, where a full table starts again empty, so the engine's
    memory never grows past it. ``compiled``: search in the game's compiled kernel
    when the game has one; only for the game's own evaluation, which the kernel
    carries (a different ``evaluation`` must leave it False). ``reduce`` and
    ``prune``: late-move reductions (:class:`Reductions`) and late-move pruning at nodes
    with ``prune`` plies or fewer left (:data:`PRUNE_KEEP`), 0 for none.
    """

    name = "alphabeta"

    def __init__(
        self,
        evaluation: Evaluation[S, M],
        *,
        depth: int | None = None,
        nodes: int | None = None,
        hash_mb: int = HASH_MB,
        safety: float = 0.8,
        compiled: bool = False,
        repeats: Repeats[S] | None = None,
        reduce: Reductions = Reductions.NONE,
        prune: int = 0,
    ) -> None:
        self._evaluate = evaluation.evaluate
        self._hint = evaluation.order_hint
        self._noisy = evaluation.noisy_moves
        self._draw = evaluation.draw_value
        self._moves_to_go = evaluation.moves_to_go
        self.depth = depth
        self.nodes = nodes
        self._table_size = hash_mb * 2**20 // ENTRY_BYTES
        self._safety = safety
        self._game: Game[S, M] | None = None
        self._rng = random.Random(0)
        self._tt: dict[Hashable, tuple[int, int, int, M | None]] = {}
        self._killers: list[list[M]] = []
        self._history: dict[M, int] = {}
        self._nodes = 0
        self._node_limit: int | None = None
        self._next_check = 0
        self._now: Callable[[], float] = time.thread_time
        self._deadline: float | None = None
        self._wall_deadline: float | None = None
        self.last_info: SearchInfo | None = None
        self._halted = False
        self._use_compiled = compiled
        self._hash_mb = hash_mb
        self._kernel: CompiledRules[S, M] | None = None
        self._searcher: Searcher | None = None
        self._partial: tuple[M, int] | None = None
        self._repeats = repeats
        self.reduce = reduce
        self.prune = prune
        self._left: set[Hashable] = set()  # the positions this agent's moves left

    @property
    def core(self) -> str:
        """Which search runs: ``compiled`` or ``pure``."""
        return "compiled" if self._searcher is not None else "pure"

    def reset(self, game: Game[S, M], seat: Player, seed: int) -> None:
        self._game = game
        self._rng = random.Random(seed)
        self._left.clear()
        self._tt.clear()
        self._history.clear()
        kernel: CompiledRules[S, M] | None = getattr(game, "compiled", None)
        if not self._use_compiled or kernel is None:
            kernel = self._searcher = None
        elif (
            self._searcher is not None
            and self._kernel is not None
            and self._kernel.name == kernel.name
        ):
            self._searcher.clear()  # the same game again: its table, emptied
        else:
            self._searcher = kernel.core.Searcher(
                kernel.name, self._hash_mb, self.reduce, self.prune
            )
        self._kernel = kernel

    def observe(self, s: S, m: M) -> None:
        pass

    def note(self) -> str:
        """``depth D, score S, N nodes, T s`` of the last search."""
        info = self.last_info
        if info is None or not info.depth:
            return ""
        return f"depth {info.depth}, score {info.score:+d}, {info.nodes} nodes, {info.seconds:.2f}s"

    # -- time ---------------------------------------------------------------

    def halt(self) -> None:
        """Stops a running search within a few nodes; it returns its best move so far."""
        self._halted = True
        if self._searcher is not None:
            self._searcher.halt()

    def _check(self) -> None:
        """Raises _Stop once the node or time budget is spent, or the search is halted;
        called every :data:`CHECK_EVERY` nodes."""
        if self._halted:
            raise _Stop
        self._next_check = self._nodes + CHECK_EVERY
        if self._node_limit is not None:
            if self._nodes >= self._node_limit:
                raise _Stop
            self._next_check = min(self._next_check, self._node_limit)
        if self._deadline is not None and self._now() >= self._deadline:
            raise _Stop
        # the referee's stop, on the wall clock: a fixed-depth search is held to it too
        if self._wall_deadline is not None and time.perf_counter() >= self._wall_deadline:
            raise _Stop

    # -- search -------------------------------------------------------------

    def choose(self, s: S, limit: Limit) -> M:
        """Returns the best move found within ``limit`` (time, depth and/or nodes).

        The cyclic garbage collector is paused meanwhile: a full collection walks the
        whole transposition table (tens of milliseconds when it is full, which overran
        0.1 s moves), and the search makes no reference cycles for it to find.
        """
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            return self._choose(s, limit)
        finally:
            if was_enabled:
                gc.enable()

    def _choose(self, s: S, limit: Limit) -> M:
        game = self._game
        assert game is not None, "reset() must be called before choose()"
        self._halted = False
        # a contest that charges wall time is searched on the wall clock; otherwise on
        # this thread's CPU time, with a wall-clock backstop for a starved machine
        self._now = now = time.perf_counter if limit.wall else time.thread_time
        t0, w0 = now(), time.perf_counter()
        moves = list(game.legal_moves(s))
        if not moves:
            raise ValueError("choose() called in a finished game")
        self._rng.shuffle(moves)
        moves = self._order(s, self._fresh(s, moves), None, 0)
        budget = None if self.depth is not None else limit.budget(self._moves_to_go(s))
        fixed = limit.time is not None  # a fixed time per move: what is not spent is lost
        safety = FIXED_SAFETY if fixed else self._safety
        max_depth = self.depth or limit.depth or (64 if budget is not None else 4)
        self._nodes = 0
        self._node_limit = limit.nodes if limit.nodes is not None else self.nodes
        self._next_check = 0
        reserve = RESERVE + (WALL_RESERVE if limit.wall else 0.0)
        shortest = 0.4 if limit.wall else 0.5  # the least share of a tiny budget searched
        self._deadline = (
            None if budget is None else t0 + max(budget * safety - reserve, budget * shortest)
        )
        self._wall_deadline = wall_deadline(limit, budget, safety, w0)
        self._killers = [[] for _ in range(max_depth + 64)]
        if len(self._tt) >= self._table_size * 9 // 10:
            self._tt.clear()
        if self._searcher is not None:
            self._searcher.begin(
                node_limit=-1 if self._node_limit is None else self._node_limit,
                deadline=-1 if self._deadline is None else self._deadline,
                wall_deadline=-1 if self._wall_deadline is None else self._wall_deadline,
                wall=limit.wall,
            )
        best, best_score, done = moves[0], 0, 0
        if len(moves) > 1 or limit.depth is not None or self.depth is not None:
            for depth in range(1, max_depth + 1):
                try:
                    score, move = self._iteration(s, moves, depth)
                except _Stop:
                    if self._partial is not None:
                        best, best_score = self._partial
                    break
                best, best_score, done = move, score, depth
                moves.remove(move)
                moves.insert(0, move)
                if proven(score, depth):
                    break
                if budget is not None and not fixed and now() - t0 > budget * safety * 0.5:
                    break
        self._deadline = self._wall_deadline = None
        if self._searcher is not None:
            self._nodes = self._searcher.nodes
        self.last_info = SearchInfo(done, best_score, self._nodes, now() - t0, best)
        if self._repeats is not None:
            self._left.add(self._repeats.key(game.apply(s, best)))
        return best

    def _fresh(self, s: S, moves: list[M]) -> list[M]:
        """``moves`` without those that leave a position this agent's moves left before
        in this game, when it is ahead (:class:`Repeats`) and some move leaves a new one."""
        game, rule = self._game, self._repeats
        if rule is None or game is None or self._evaluate(s) < rule.ahead:
            return moves
        fresh = [m for m in moves if rule.key(game.apply(s, m)) not in self._left]
        return fresh or moves

    def _iteration(self, s: S, moves: list[M], depth: int) -> tuple[int, M]:
        """One iteration of the deepening: in Python, or whole in the compiled kernel.

        :raises _Stop: when the budget ran out part way (``_partial`` then holds the
            best move found so far, if any).
        """
        kernel = self._kernel
        if self._searcher is None or kernel is None:
            return self._root(s, moves, depth)
        codes = [kernel.code(m) for m in moves]
        score, index, finished = self._searcher.root(kernel.pack(s), codes, depth)
        if not finished:
            self._partial = None if index < 0 else (moves[index], score)
            raise _Stop
        return score, moves[index]

    def _root(self, s: S, moves: list[M], depth: int) -> tuple[int, M]:
        game = self._game
        assert game is not None
        self._partial = None
        alpha, best_move = -_INF, moves[0]
        for i, m in enumerate(moves):
            child = game.apply(s, m)
            if i == 0:
                score = -self._search(child, depth - 1, -_INF, _INF, 1)
            else:
                score = -self._search(child, depth - 1, -alpha - 1, -alpha, 1)
                if score > alpha:
                    score = -self._search(child, depth - 1, -_INF, -score, 1)
            if score > alpha:
                alpha, best_move = score, m
                self._partial = (m, score)
        if self._table_size:
            self._tt[game.position_key(s)] = (depth, alpha, _EXACT, best_move)
        return alpha, best_move

    def _terminal_score(self, s: S, ply: int) -> int | None:
        game = self._game
        assert game is not None
        out = game.outcome(s)
        if out is None:
            return None
        if out.winner is None:
            return self._draw(s)
        return WIN - ply if out.winner == game.to_move(s) else ply - WIN

    def _search(self, s: S, depth: int, alpha: int, beta: int, ply: int) -> int:
        self._nodes += 1
        if self._nodes >= self._next_check:
            self._check()
        game = self._game
        assert game is not None
        terminal = self._terminal_score(s, ply)
        if terminal is not None:
            return terminal
        if depth <= 0:
            return self._quiesce(s, alpha, beta, ply)
        key = game.position_key(s)
        entry = self._tt.get(key)
        tt_move = None
        if entry is not None:
            e_depth, e_score, e_flag, tt_move = entry
            if e_depth >= depth:
                if e_score >= _MATE_ZONE:
                    e_score -= ply
                elif e_score <= -_MATE_ZONE:
                    e_score += ply
                if e_flag == _EXACT:
                    return e_score
                if e_flag == _LOWER and e_score > alpha:
                    alpha = e_score
                elif e_flag == _UPPER and e_score < beta:
                    beta = e_score
                if alpha >= beta:
                    return e_score
        original_alpha = alpha
        best_score, best_move = -_INF, None
        reduce = self.reduce and depth >= REDUCE_DEPTH
        ordered = self._order(s, game.legal_moves(s), tt_move, ply)
        if depth <= self.prune:
            del ordered[PRUNE_KEEP * depth :]  # late-move pruning near the leaves
        for i, m in enumerate(ordered):
            child = game.apply(s, m)
            if i == 0:
                score = -self._search(child, depth - 1, -beta, -alpha, ply + 1)
            else:
                # principal variation search: prove the move no better with a null window,
                # and search it again with the full window only when it is; a late move
                # (reduce) is first searched a ply shallower, and at full depth only
                # when that does not prove it worse
                if (
                    reduce
                    and i >= REDUCE_FROM
                    and (self.reduce == Reductions.ALL or self._hint(s, m) <= 0)
                ):
                    score = -self._search(child, depth - 2, -alpha - 1, -alpha, ply + 1)
                    if score > alpha:
                        score = -self._search(child, depth - 1, -alpha - 1, -alpha, ply + 1)
                else:
                    score = -self._search(child, depth - 1, -alpha - 1, -alpha, ply + 1)
                if alpha < score < beta:
                    score = -self._search(child, depth - 1, -beta, -score, ply + 1)
            if score > best_score:
                best_score, best_move = score, m
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        killers = self._killers[ply]
                        if m not in killers:
                            killers.insert(0, m)
                            del killers[2:]
                        self._history[m] = self._history.get(m, 0) + depth * depth
                        break
        stored = best_score
        if stored >= _MATE_ZONE:
            stored += ply
        elif stored <= -_MATE_ZONE:
            stored -= ply
        flag = _UPPER if best_score <= original_alpha else _LOWER if best_score >= beta else _EXACT
        if len(self._tt) < self._table_size or key in self._tt:
            self._tt[key] = (depth, stored, flag, best_move)
        return best_score

    def _quiesce(self, s: S, alpha: int, beta: int, ply: int) -> int:
        game = self._game
        assert game is not None
        noisy = self._noisy(s)
        if not noisy:
            return self._evaluate(s)
        best = -_INF
        for m in self._order(s, noisy, None, ply):
            self._nodes += 1
            if self._nodes >= self._next_check:
                self._check()
            child = game.apply(s, m)
            terminal = self._terminal_score(child, ply + 1)
            if terminal is not None:
                score = -terminal
            else:
                score = -self._quiesce(child, -beta, -alpha, ply + 1)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    def _order(self, s: S, moves: Sequence[M], tt_move: M | None, ply: int) -> list[M]:
        killers = self._killers[ply] if ply < len(self._killers) else []
        hint = self._hint
        history = self._history

        def key(m: M) -> int:
            if m == tt_move:
                return 1 << 40
            k = history.get(m, 0)
            if m in killers:
                k += 1 << 30
            return k + (hint(s, m) << 20)

        return sorted(moves, key=key, reverse=True)
