"""How one game of an environment is stepped: on the rules engine and the encoding in
Python (the reference, and the way for every game), or on the compiled core where the
game has a kernel (:mod:`arbiter.envs.kernel`). Both say the same of every position;
the environments (:mod:`arbiter.envs.aec`, :mod:`arbiter.envs.batch`) use whichever
:func:`stepper` gives them.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from arbiter.contract.learning import Encoding
from arbiter.core import CompiledRules
from arbiter.envs.encoding import BoardEncoding
from arbiter.envs.kernel import ILLEGAL, LEG, MOVE, Arrays, compiled_games, kernel_name
from arbiter.game import Game, Player

S = TypeVar("S")
M = TypeVar("M", bound=Hashable)
M_out = TypeVar("M_out", bound=Hashable, covariant=True)


class Stepper(Protocol[S, M_out]):
    """One game's position and the move being made in it, action by action."""

    @property
    def position(self) -> S:
        """The position (after the last complete move)."""
        ...

    @property
    def last_move(self) -> M_out | None:
        """The last complete move, or None since :meth:`begin`."""
        ...

    def begin(self, s: S) -> None:
        """Makes ``s`` the position, no move begun."""
        ...

    def act(self, action: int) -> int:
        """Plays ``action`` (one of the game's action numbers) for the side to move:
        ``ILLEGAL`` (not a leg of a legal move: nothing changes), ``LEG`` (a move goes
        on, the same side to act) or ``MOVE`` (a move made)."""
        ...

    def ended(self) -> bool:
        """Whether the position is a finished game."""
        ...

    def to_move(self) -> Player:
        """The seat to act."""
        ...

    def legal_actions(self) -> list[int]:
        """The actions the side to move may play next, in the order of its moves."""
        ...

    def mask(self) -> npt.NDArray[np.int8]:
        """:meth:`legal_actions` as 1s over all actions (a new array)."""
        ...

    def observation(self, seat: Player) -> npt.NDArray[np.int8]:
        """The position and the move being made from ``seat``'s side (a new array)."""
        ...


class PythonStepper(Generic[S, M]):
    """The reference: the rules engine's legal moves, each turned into its actions by
    the encoding, narrowed as the actions of a move are played."""

    def __init__(self, rules: Game[S, M], encoding: Encoding[S, M]) -> None:
        self.rules = rules
        self.encoding = encoding
        self._position = rules.initial()
        self._last: M | None = None
        self._ended = False
        self._moves: list[tuple[tuple[int, ...], M]] = []
        self._next: dict[int, None] = {}  # the actions that may follow, in order
        self._played: list[int] = []

    @property
    def position(self) -> S:
        return self._position

    @property
    def last_move(self) -> M | None:
        return self._last

    def begin(self, s: S) -> None:
        self._last = None
        self._enter(s)

    def _enter(self, s: S) -> None:
        self._position = s
        self._played = []
        self._ended = self.rules.outcome(s) is not None
        legal = [] if self._ended else self.rules.legal_moves(s)
        self._narrow([(self.encoding.actions_of(s, m), m) for m in legal])

    def _narrow(self, moves: list[tuple[tuple[int, ...], M]]) -> None:
        """Keeps ``moves`` (the legal moves that begin with the actions played) and
        the actions that may follow, worked out once per action."""
        k = len(self._played)
        self._moves = moves
        self._next = dict.fromkeys(acts[k] for acts, _ in moves if len(acts) > k)

    def act(self, action: int) -> int:
        if action not in self._next:
            return ILLEGAL
        k = len(self._played)
        self._played.append(action)
        self._narrow([(acts, m) for acts, m in self._moves if acts[k] == action])
        done = [m for acts, m in self._moves if len(acts) == k + 1]
        if not done:
            return LEG
        self._last = done[0]
        self._enter(self.rules.apply(self._position, done[0]))
        return MOVE

    def ended(self) -> bool:
        return self._ended

    def to_move(self) -> Player:
        return self.rules.to_move(self._position)

    def legal_actions(self) -> list[int]:
        return list(self._next)

    def mask(self) -> npt.NDArray[np.int8]:
        out = np.zeros(self.encoding.actions, np.int8)
        if self._next:
            out[list(self._next)] = 1
        return out

    def observation(self, seat: Player) -> npt.NDArray[np.int8]:
        return self.encoding.observation(self._position, seat, self._played)


class CompiledStepper(Generic[S, M]):
    """The same on the compiled core, as a batch of one game: the mask is kept there
    (cleared by the entries it set, not rebuilt), the observation made there, and the
    rules engine's position and last move made from the kernel's only when asked."""

    def __init__(self, rules: Game[S, M], encoding: BoardEncoding[S, M]) -> None:
        self.rules = rules
        self.encoding = encoding
        self._kernel: CompiledRules[S, M] = getattr(rules, "compiled")  # noqa: B009
        self._arrays = Arrays.zeros(1, encoding.shape, encoding.actions)
        self._games = compiled_games(encoding, rules, self._arrays)
        self._mask: npt.NDArray[np.int8] = self._arrays.legal_action_mask[0].view(np.int8)
        self._position: S | None = None  # None: the kernel's, not made yet
        self._last: M | None = None
        self._moved = False  # a move made since _last was made
        self.begin(rules.initial())

    @property
    def position(self) -> S:
        if self._position is None:
            self._position = self._kernel.unpack(self._games.state(0))
        return self._position

    @property
    def last_move(self) -> M | None:
        if self._moved:
            before = self._kernel.unpack(self._games.before(0))
            # the kernel lists a position's moves in the rules engine's order
            at = self._kernel.legal(before).index(self._games.last(0))
            self._last, self._moved = self.rules.legal_moves(before)[at], False
        return self._last

    def begin(self, s: S) -> None:
        self._position, self._last, self._moved = s, None, False
        self._games.set(0, self._kernel.pack(s))

    def act(self, action: int) -> int:
        done: int = self._games.act(0, action)
        if done == MOVE:
            self._position, self._moved = None, True
        return done

    def ended(self) -> bool:
        return bool(self._arrays.terminated[0])

    def to_move(self) -> Player:
        return 1 if self._arrays.current_player[0] else 0

    def legal_actions(self) -> list[int]:
        return self._games.legal(0)  # type: ignore[no-any-return]

    def mask(self) -> npt.NDArray[np.int8]:
        return self._mask.copy()

    def observation(self, seat: Player) -> npt.NDArray[np.int8]:
        out = np.empty(self.encoding.shape, np.int8)
        self._games.observe(0, seat, out)
        return out


def stepper(rules: Game[S, M], encoding: Encoding[S, M]) -> Stepper[S, M]:
    """The compiled stepper where the game has a kernel for ``encoding``, else Python's."""
    if isinstance(encoding, BoardEncoding) and kernel_name(encoding, rules) is not None:
        return CompiledStepper(rules, encoding)
    return PythonStepper(rules, encoding)
