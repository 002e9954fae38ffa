"""Every starter kit builds behind the walls and passes its game's conformance gate,
as an entrant's upload of it would: a kit that breaks a rule or the protocol fails
here before anyone downloads it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from arbiter.checkagent import check_agent
from arbiter.games import GAME_NAMES, find_game
from arbiter.host.build import build
from arbiter.host.kits import kits
from arbiter.host.languages import LANGUAGES, available

KITS = [(game, kit.language) for game in GAME_NAMES for kit in kits(game)]


def test_every_game_has_a_python_and_a_c_kit() -> None:
    for game in GAME_NAMES:
        assert {"python", "c"} <= {k.language for k in kits(game)}, game


@pytest.mark.parametrize(("game", "language"), KITS, ids=[f"{g}-{lang}" for g, lang in KITS])
def test_a_starter_kit_builds_and_passes_the_gate(tmp_path: Path, game: str, language: str) -> None:
    lang = LANGUAGES[language]
    if not available(lang):
        pytest.skip(f"this machine has no {' or '.join(lang.tools())}")
    kit = next(k for k in kits(game) if k.language == language)
    built = build(lang, kit.folder, tmp_path / "build", seconds=120, memory_mb=2048)
    assert built.ok, f"{built.problem}\n{built.log}"
    spec = find_game(game)
    watch = replace(spec.supervision, network=False)
    results = check_agent(spec, lang.commands()[1], cwd=str(tmp_path / "build"), supervision=watch)
    failed = [
        f"{r.check.name}: {r.verdict}\n" + "\n".join(r.transcript) for r in results if not r.passed
    ]
    assert not failed, "\n".join(failed)
