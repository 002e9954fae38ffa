"""Every game's notation against its corpus of contest lines, a data file per game:
``tests/games/<game>/notation.jsonl``, one JSON object a line, ``{"good": TEXT}``
(optionally with ``"formats_as"``, the text it is written back as) or ``{"bad": TEXT}``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arbiter.errors import AmbiguousMove, NotationError
from arbiter.games import find_game, game_names

HERE = Path(__file__).parent


def corpus(name: str) -> Path:
    """The corpus of a game's notation module (games that share one share the corpus)."""
    package = find_game(name).notation.__name__.split(".")[-2]
    return HERE / "games" / package / "notation.jsonl"


def with_corpus() -> list[str]:
    """The games with a corpus (it is optional: a game may have none)."""
    return [name for name in game_names() if corpus(name).exists()]


def cases() -> list[tuple[str, dict[str, str]]]:
    found = []
    for name in with_corpus():
        for line in corpus(name).read_text().splitlines():
            found.append((name, json.loads(line)))
    return found


@pytest.mark.parametrize(
    "path", sorted(HERE.glob("games/*/notation.jsonl")), ids=lambda p: p.parent.name
)
def test_every_corpus_belongs_to_a_game_and_has_good_and_bad_lines(path: Path) -> None:
    """A corpus under a folder no game's notation is in would never be read."""
    assert path in {corpus(name) for name in with_corpus()}
    entries = [json.loads(line) for line in path.read_text().splitlines()]
    assert any("good" in e for e in entries) and any("bad" in e for e in entries)


@pytest.mark.parametrize(("name", "entry"), cases())
def test_corpus_line(name: str, entry: dict[str, str]) -> None:
    notation = find_game(name).notation
    if "good" in entry:
        text = entry["good"]
        m = notation.parse_move(text, seat=0)
        assert notation.format_move(m, seat=0) == entry.get("formats_as", text)
    else:
        text = entry["bad"]
        with pytest.raises(NotationError) as e:
            notation.parse_move(text, seat=0)
        assert repr(text) in str(e.value)  # the error names the text
        assert not isinstance(e.value, AmbiguousMove)
