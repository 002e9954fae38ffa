"""Games as portable text: PDN for checkers, and the same tag-pairs-and-movetext form
(PGN's) for the other four games, with their moves in the contest's own notation.

Checkers is written as Portable Draughts Notation for English draughts (``[GameType
"21"]``), which PDN readers and viewers open: the first mover (red) is PDN's Black, on
squares 1-12, so red's win is ``0-1``; a game from a set position carries ``[SetUp
"1"]`` and its ``[FEN]``; captures list every landing (``9x18x27``). The other games
are written the same way, their moves as the contest writes them in the first
player's numbering (as records keep them) and the sides named as the contest names
them, first mover first; their ``Result`` puts White's score first where the sides
are White and Black (Votey's and Halma's black moves first: its win is ``0-1``, as
every PGN reader takes it), else the first mover's (Chinese checkers' ``[First]``,
like the records' results), and a set start is ``[Position]``, the game's one-line position
text. A move's spaces are written ``_`` and its line breaks ``/`` (Halma's ``J_3,3_5,5``),
so each is one word. Each move's charged seconds follow it as ``{[%emt 0.412]}``; a fault that ended
the game is a closing comment with the offending text.

Reading takes any PDN of English draughts (short captures ``9x27`` where they are
unambiguous, ranges in FEN squares, comments, variations skipped) and these files.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from arbiter.contract import GameSpec
from arbiter.errors import ArbiterError, NotationError, Reason, RecordError
from arbiter.game import Ending, Outcome
from arbiter.games import find_game
from arbiter.record import GameRecord
from arbiter.referee.match import FAULTS

FORMATS = ("jsonl", "pdn", "pgn")
"""What ``arbiter export --format`` writes: records, PDN, or the tagged text."""

_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_NUMBER = re.compile(r"^\d+\.+$|^\d+\.\.\.$")
_NAG = re.compile(r"^\$\d+$")


def _quoted(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def white_seat(spec: GameSpec[Any, Any]) -> int | None:
    """The seat PGN's and PDN's ``Result`` puts first: White's, where the game's sides
    are White and Black (checkers' white is PDN's White: red is its Black); None where
    they are not colours of a chess board (the first mover's score comes first).

    >>> white_seat(find_game("votey")), white_seat(find_game("alquerque"))
    (1, 0)
    >>> white_seat(find_game("checkers")), white_seat(find_game("chinese-checkers"))
    (1, None)
    """
    if "white" not in spec.seat_names:
        return None
    if spec.name != "checkers" and "black" not in spec.seat_names:
        return None
    return spec.seat_names.index("white")


def _result(winner: int | None, white: int | None) -> str:
    """The ``Result`` of a game ``winner`` (a seat) won: White's score first, or the
    first mover's where ``white`` is None."""
    if winner is None:
        return "1/2-1/2"
    return "1-0" if winner == (0 if white is None else white) else "0-1"


def _termination(reason: Ending) -> str:
    if reason is Reason.TIME:
        return "time forfeit"
    if reason.is_fault:
        return "rules infraction"
    return "normal"


def write_game(record: GameRecord, spec: GameSpec[Any, Any] | None = None) -> str:
    """One record as portable text (PDN for checkers), ending with a blank line.

    :raises ConfigError: if the record's game is not known here.
    """
    spec = spec or find_game(record.game)
    draughts = spec.name == "checkers"
    date = record.date[:10].replace("-", ".") if record.date else "????.??.??"
    sides = [name.capitalize() for name in spec.seat_names]
    if draughts:
        sides = ["Black", "White"]  # PDN's names: Black moves first
    players = list(record.players) + ["?"] * (2 - len(record.players))
    result = _result(record.winner, white_seat(spec))
    tags: list[tuple[str, str]] = [
        ("Event", "arbiter " + (f"round {record.round}" if record.round is not None else "game")),
        ("Site", "?"),
        ("Date", date),
        ("Round", "?" if record.round is None else str(record.round)),
        (sides[0], players[0]),
        (sides[1], players[1]),
        ("Result", result),
    ]
    tags.append(("GameType", "21") if draughts else ("Game", spec.name))
    if record.start is not None:
        tags.append(("SetUp", "1"))
        if draughts:
            from arbiter.games.checkers.notation import format_fen

            tags.append(("FEN", format_fen(spec.notation.parse_position(record.start))))
        else:
            tags.append(("Position", record.start))
    if record.time_control:
        tags.append(("TimeControl", record.time_control))
    tags.append(("Termination", _termination(record.reason)))
    tags.append(("Reason", str(record.reason)))
    head = "".join(f'[{name} "{_quoted(value)}"]\n' for name, value in tags)
    return head + "\n" + _movetext(spec, record, result) + "\n\n"


def _movetext(spec: GameSpec[Any, Any], record: GameRecord, result: str) -> str:
    """The moves numbered in pairs (``1. a b 2. c``; ``1... b`` when the second mover
    starts), each with its time, then the fault, then the result; lines of at most
    79 characters."""
    first = 0
    if record.start is not None:
        first = spec.rules().to_move(spec.notation.parse_position(record.start))
    words: list[str] = []
    for i, (move, used) in enumerate(zip(record.moves, _times(record), strict=True)):
        ply = i + first
        if ply % 2 == 0:
            words.append(f"{ply // 2 + 1}.")
        elif i == 0:
            words.append(f"{ply // 2 + 1}...")
        words.append(_token(move))
        words.append(f"{{[%emt {used:.3f}]}}")
    if record.reason.is_fault:
        said = "" if record.offending is None else f": {record.offending!r}"
        words.append("{" + f"{record.reason}{said} {record.detail}".strip().replace("}", ")") + "}")
    words.append(result)
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > 79:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return "\n".join(lines)


def _token(move: str) -> str:
    """A move as one movetext token: its spaces written ``_``, its line breaks ``/``
    (Chinese checkers' ``10 19``, Halma's lines of hops)."""
    return "/".join("_".join(line.split()) for line in move.strip().splitlines())


def _move_text(token: str) -> str:
    """The contest's text of a movetext token (:func:`_token` undone)."""
    return "\n".join(line.replace("_", " ") for line in token.split("/"))


def _times(record: GameRecord) -> list[float]:
    return list(record.times[: len(record.moves)]) + [0.0] * (len(record.moves) - len(record.times))


@dataclass
class PortableGame:
    """One game read from portable text: its tags, moves as written, and result token."""

    number: int
    tags: dict[str, str] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)
    result: str = "*"

    @property
    def game(self) -> str:
        """The game's name: ``checkers`` for PDN of English draughts, else the ``Game``
        tag.

        :raises RecordError: if the tags name no game arbiter has.
        """
        if (
            self.tags.get("GameType", "21").split(",")[0].strip() == "21"
            and "Game" not in self.tags
        ):
            return "checkers"
        if "Game" in self.tags:
            return self.tags["Game"]
        raise RecordError(
            f"game {self.number}: GameType {self.tags['GameType']!r} is not English draughts (21)"
        )


_TOKENS = re.compile(
    r'\[\s*(?P<tag>\w+)\s+"(?P<value>(?:[^"\\]|\\.)*)"\s*\]'  # a tag pair
    r"|\{[^}]*\}|;[^\n]*"  # a comment
    r"|(?P<open>\()|(?P<close>\))"  # a variation
    r"|(?P<word>[^\s{}()\[\];]+)"
    r"|(?P<bad>\[)"
)


def read_games(text: str) -> Iterator[PortableGame]:
    """The games of a PDN or PGN-style text, in order; a game ends at its result
    token, or where the next game's tags begin.

    :raises RecordError: naming the line of a ``[`` that does not open a tag pair.
    """
    game = PortableGame(1)
    moved = False
    depth = 0
    for found in _TOKENS.finditer(text):
        if found["bad"]:
            line = text.count("\n", 0, found.start()) + 1
            raise RecordError(f'line {line}: a "[" that does not open a tag pair [Name "value"]')
        if found["tag"]:
            if moved:  # the next game's tags, without a result token before them
                yield game
                game, moved = PortableGame(game.number + 1), False
            value = found["value"].replace('\\"', '"').replace("\\\\", "\\")
            game.tags[found["tag"]] = value
        elif found["open"]:
            depth += 1
        elif found["close"]:
            depth = max(0, depth - 1)
        elif (word := found["word"]) and depth == 0:
            for token in re.split(r"(?<=\.)(?=[^.])", word):  # "1.9-14" is "1." "9-14"
                if token in _RESULTS:
                    game.result = token
                    yield game
                    game, moved = PortableGame(game.number + 1), False
                elif not (_NUMBER.match(token) or _NAG.match(token)):
                    game.moves.append(_move_text(token.rstrip("!?")))
                    moved = True
    if moved or game.tags:
        yield game


def check_game(game: PortableGame) -> tuple[int, Outcome | None]:
    """Plays a read game's moves through the rules; returns the moves played and the
    rules' outcome at the end (``None`` when the moves stop before the game is decided).

    :raises RecordError: naming the move (its number and text) that does not parse,
        is not legal or comes after the game ended, a start position that does not
        parse, or a result tag the rules' outcome contradicts.
    """
    name = game.game
    try:
        spec = find_game(name)
    except ArbiterError as e:
        raise RecordError(f"game {game.number}: {e}") from None
    rules = spec.rules()
    draughts = name == "checkers"
    try:
        if draughts and "FEN" in game.tags:
            from arbiter.games.checkers.notation import parse_fen

            s = parse_fen(game.tags["FEN"])
        elif "Position" in game.tags:
            s = spec.notation.parse_position(game.tags["Position"])
        else:
            s = rules.initial()
    except NotationError as e:
        raise RecordError(f"game {game.number}: bad start position: {e}") from None
    for i, text in enumerate(game.moves):
        if rules.outcome(s) is not None:
            raise RecordError(f"game {game.number}: move {i + 1} {text!r} comes after the end")
        try:
            m = _resolve(spec, rules, s, text)
        except (ArbiterError, *FAULTS) as e:
            raise RecordError(f"game {game.number}: move {i + 1} {text!r}: {e}") from None
        s = rules.apply(s, m)
    outcome = rules.outcome(s)
    if outcome is not None and game.result != "*":
        white = white_seat(spec)
        if game.result != _result(outcome.winner, white):
            raise RecordError(
                f"game {game.number}: the result {game.result} is not the rules' "
                f"{_result(outcome.winner, white)} ({outcome.reason})"
            )
    return len(game.moves), outcome


def _resolve(spec: GameSpec[Any, Any], rules: Any, s: Any, text: str) -> Any:
    """The legal move ``text`` names: the contest's notation (its claims judged as the
    referee judges them), or for checkers a short capture (``9x27``: start and end)
    when one legal capture fits it.

    :raises ArbiterError: if it names no legal move, or claims wrongly.
    """
    try:  # as the referee judged it, in the first player's numbering (as recorded)
        return spec.contest.judge(rules, s, text, seat=0)
    except FAULTS:
        short = re.fullmatch(r"(\d+)x(\d+)", text) if spec.name == "checkers" else None
        if short is None:
            raise
        a, b = int(short[1]) - 1, int(short[2]) - 1
        fits = [
            m for m in rules.legal_moves(s) if m.captures and m.path[0] == a and m.path[-1] == b
        ]
        if len(fits) != 1:
            raise
        return fits[0]
