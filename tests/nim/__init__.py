"""One-pile Nim: the toy game that proves a sixth game is one folder and one
registry line (``ARBITER_GAMES=nim=tests.nim``, set by the tests' conftest), with no
compiled kernel, no notation corpus, no probes, openings or starter kits, and with an
encoding for learning of its own (``encoding.py``) in place of its board's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arbiter.contract import MAX_PLIES, GameSpec, PlayerSide, RefereeSide, RuleOption
from tests.nim import contest, evaluate, notation
from tests.nim.rules import Nim, State

SPEC: GameSpec[State, int] = GameSpec.of_folder(
    __name__,
    name="nim",
    title="Nim",
    seat_names=("first", "second"),
    rules=Nim,
    notation=notation,
    contest=contest,
    evaluation=evaluate,
    options=(
        RuleOption("stones", int, 21, "stones in the pile at the start (default 21)", minimum=1),
        MAX_PLIES,
    ),
)

if TYPE_CHECKING:  # mypy holds the two sides of the protocol and the encoding to the contract
    from arbiter.contract.learning import EncodingOf
    from tests.nim import encoding, player, referee

    _player: PlayerSide[State, int] = player
    _referee: RefereeSide[State, int] = referee
    _encoding: EncodingOf[State, int] = encoding.encoding
