"""``arbiter kit``: a game's starter program one command away, byte for byte the kit a
contest server offers, with the lines that build and run it; and the first hour's
loop (write a kit, check it) passing."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from arbiter.cli import main
from arbiter.games import find_game, game_names
from arbiter.host.kits import kits

SHIPPED = [name for name in game_names() if kits(name)]


@pytest.mark.parametrize("game", SHIPPED)
def test_every_kit_is_written_as_shipped_with_its_build_and_run_lines(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for kit in kits(game):
        assert main(["kit", game, kit.language, str(tmp_path / kit.language)]) == 0
        err = capsys.readouterr().err
        for name in kit.files:
            assert (tmp_path / kit.language / name).read_bytes() == (kit.folder / name).read_bytes()
        guide = find_game(game).guide  # the rules and protocol, as the contest page has them
        assert guide is not None
        assert (tmp_path / kit.language / "RULES.md").read_bytes() == guide.read_bytes()
        assert "# run:" in err
        assert f"cd {shlex.quote(str(tmp_path / kit.language))} && " in err  # built where written
        if kit.language in ("c", "cpp", "java", "rust"):
            assert "# build:" in err
        assert main(["kit", game, kit.language]) == 0  # one file: to standard output
        out, err = capsys.readouterr()
        assert out == (kit.folder / kit.files[0]).read_text(encoding="utf-8")
        assert f"# save as: {kit.files[0]}" in err and "# " not in out.splitlines()[0][:2]
        assert "cd " not in err  # saved here: built here


def test_a_kit_is_never_written_over_a_file_and_mistakes_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "main.c").write_text("mine")
    for words, said in (
        (["kit", "votey", "c", str(tmp_path)], "main.c exists: choose an empty DIR"),
        (["kit", "votey", "cobol"], "no votey kit in 'cobol': expected one of c, cpp"),
        (["kit", "chess", "c"], "unknown game 'chess'"),
        (["kit", "nim", "c"], "nim has no starter kits"),  # a registered game without kits
    ):
        assert main(words) == 1
        err = capsys.readouterr().err
        assert said in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert (tmp_path / "main.c").read_text() == "mine"


def test_the_first_hour_a_kit_written_then_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["kit", "votey", "python"]) == 0
    (tmp_path / "a.py").write_text(capsys.readouterr().out)
    command = f"{sys.executable} {tmp_path / 'a.py'}"
    assert main(["check-agent", "votey", command]) == 0
    assert "FAIL" not in capsys.readouterr().out
