"""Every starter kit builds behind the walls and passes its game's conformance gate,
as an entrant's upload of it would: a kit that breaks a rule or the protocol fails
here before anyone downloads it. A language whose compiler this machine lacks is
skipped, unless ``ARBITER_KIT_LANGUAGES=required`` (CI installs them all)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from arbiter.games import GAME_NAMES, find_game
from arbiter.host.build import build
from arbiter.host.config import Limits, contest_supervision
from arbiter.host.kits import kit_file, kits
from arbiter.host.languages import LANGUAGES, available
from arbiter.play.checkagent import check_agent

KITS = [(game, kit.language) for game in GAME_NAMES for kit in kits(game)]


def test_every_game_has_a_kit_in_every_language_the_host_builds() -> None:
    buildable = {key for key, lang in LANGUAGES.items() if lang.compile is not None}
    for game in GAME_NAMES:
        assert {k.language for k in kits(game)} == buildable, game


@pytest.mark.parametrize(("game", "language"), KITS, ids=[f"{g}-{lang}" for g, lang in KITS])
def test_a_starter_kit_builds_and_passes_the_gate(tmp_path: Path, game: str, language: str) -> None:
    lang = LANGUAGES[language]
    if not available(lang):
        missing = f"this machine has no {' or '.join(lang.tools())}"
        if os.environ.get("ARBITER_KIT_LANGUAGES") == "required":
            pytest.fail(f"{missing}, and ARBITER_KIT_LANGUAGES=required")
        pytest.skip(missing)
    kit = next(k for k in kits(game) if k.language == language)
    built = build(lang, kit.folder, tmp_path / "build", seconds=120, memory_mb=2048)
    assert built.ok, f"{built.problem}\n{built.log}"
    spec = find_game(game)
    watch = contest_supervision(game, Limits().memory_mb)  # as a contest's gate runs it
    results = check_agent(spec, lang.commands()[1], cwd=str(tmp_path / "build"), supervision=watch)
    failed = [
        f"{r.check.name}: {r.verdict}\n" + "\n".join(r.transcript) for r in results if not r.passed
    ]
    assert not failed, "\n".join(failed)


def test_a_kit_file_is_served_from_its_own_language_s_kit_only() -> None:
    found = kit_file("alquerque", "c", "main.c")
    assert found is not None and found.parent.name == "c" and found.is_file()
    assert kit_file("alquerque", "java", "main.c") is None  # the C kit's file, asked as Java's
    assert kit_file("alquerque", "c", "../python/main.py") is None


def test_a_kit_lists_its_files_and_never_a_folder_in_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a kit run in place grows a __pycache__ (or a build's target/): not a file to
    # list for download, nor one to serve
    python = tmp_path / "python"
    (python / "__pycache__").mkdir(parents=True)
    (python / "main.py").write_text("print('hi')\n")
    (python / "run").write_text("python3 main.py\n")
    game = type("Spec", (), {"kits": tmp_path})()
    monkeypatch.setattr("arbiter.host.kits.find_game", lambda name: game)
    assert [(k.language, k.files) for k in kits("votey")] == [("python", ("main.py", "run"))]
    assert kit_file("votey", "python", "__pycache__") is None
    assert kit_file("votey", "python", "main.py") == python / "main.py"
