"""Starter kits: for a game and a language, a minimal legal player an entrant
downloads, builds and makes their own. They live in each game's folder
(``games/GAME/kits/LANGUAGE/``) and pass the conformance gate (a test holds them to
it), so an entrant starts from a program the contest accepts."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from arbiter.games import find_game


@dataclass(frozen=True, slots=True)
class Kit:
    language: str
    files: tuple[str, ...]
    folder: Path


def kits(game: str) -> list[Kit]:
    """The game's starter kits, by language key."""
    root = find_game(game).kits
    if root is None or not root.is_dir():
        return []
    return [
        Kit(d.name, tuple(sorted(f.name for f in d.iterdir() if f.is_file())), d)
        for d in sorted(root.iterdir())
        if d.is_dir()
    ]


def kit_file(game: str, language: str, name: str) -> Path | None:
    """One file of a kit, or None (no other path is ever served)."""
    for kit in kits(game):
        if kit.language == language and name in kit.files:
            return kit.folder / name
    return None
