"""The contest file: defaults from the game, and each mistake named in one line."""

from __future__ import annotations

import os
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from arbiter.errors import ConfigError
from arbiter.games import find_game
from arbiter.host.config import load


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cup.toml"
    path.write_text(text)
    return path


def test_one_line_is_a_contest_with_the_sheets_clock(tmp_path: Path) -> None:
    config = load(write(tmp_path, 'game = "checkers"\n'))
    assert config.clock == str(find_game("checkers").time_control)
    assert config.time_control.per_move == 10
    assert config.format.kind == "swiss" and config.registration == "open"
    assert config.database == f"sqlite:///{tmp_path / 'cup.db'}"
    assert config.local_workers == 2  # the server plays two games at once itself
    assert {"c", "cpp", "python", "java", "rust", "binary"} <= set(config.languages)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('game = "chess"\n', "game must be one of"),
        ('game = "halma"\nclock = "fast"\n', "clock"),
        ('game = "halma"\nrounds = 3\n', "unknown setting 'rounds'"),
        ('game = "halma"\n[format]\nkind = "knockout"\n', "kind must be one of"),
        # a choice is written as the README lists it: another case is another word
        ('game = "halma"\n[format]\nkind = "Swiss"\n', "kind must be one of .*, not 'Swiss'"),
        ('game = "halma"\nregistration = "OPEN"\n', "registration must be one of .*'OPEN'"),
        ('game = "halma"\nrank_by = "Rating"\n', "rank_by must be one of .*, not 'Rating'"),
        ('game = "halma"\n[format]\ngames_per_pair = 3\n', "must be even"),
        ('game = "halma"\n[format]\nplacement_games = 5\n', "placement_games must be even"),
        ('game = "halma"\n[limits]\nupload_kb = -1\n', "upload_kb must be a whole number"),
        ('game = "halma"\n[final]\nrounds = true\n', "rounds must be a whole number"),
        ('game = "halma"\nformat = 3\n', r"\[format\] must be a table"),
        ('game = "halma"\n[languages]\ngo = 3\n', r"\[languages\.go\]: must be a table"),
        ('game = "halma"\n[languages.go]\nrun = "./a"\nsuffixes = []\n', "at least one file"),
        ('game = "halma"\n[languages.go]\nrun = "./a"\nsuffixes = [1]\n', "list of strings"),
        ('game = "halma"\n[languages.go]\nsuffixes = [".go"]\nrun = 1\n', "run must be a string"),
        ('game = "halma"\n[languages.go]\nsuffixes = [".go"]\n', "run must name"),
        ("game = \n", "is not TOML"),
        # uploads that close the moment they open take nothing: as a mistake as closing
        # before opening
        (
            'game = "halma"\nopens = "2027-01-01T00:00Z"\ncloses = "2027-01-01T00:00Z"\n',
            "closes must come after opens",
        ),
    ],
)
def test_a_mistake_is_named(tmp_path: Path, text: str, why: str) -> None:
    with pytest.raises(ConfigError, match=why):
        load(write(tmp_path, text))


def test_the_calendar_and_the_schedule_are_read_as_written(tmp_path: Path) -> None:
    """Times are TOML's own or text; each key read is a key known (none of them is
    then refused as unknown)."""
    text = (
        'game = "halma"\nopens = 2027-01-01T00:00:00Z\ncloses = "2027-02-01T12:00Z"\n'
        '[schedule]\nevery = "6h"\nfirst = "2027-01-02T00:00Z"\n'
    )
    calendar = load(write(tmp_path, text)).calendar
    assert (calendar.opens, calendar.closes) == (
        datetime(2027, 1, 1, tzinfo=UTC),
        datetime(2027, 2, 1, 12, tzinfo=UTC),
    )
    assert (calendar.every, calendar.first) == (
        timedelta(hours=6),
        datetime(2027, 1, 2, tzinfo=UTC),
    )


def test_every_limit_is_read_into_its_own_place(tmp_path: Path) -> None:
    """A program's memory is not a build's, nor an upload's size an unpacked one's:
    each key of ``[limits]`` given a value of its own lands where it is named."""
    given = {
        "upload_kb": 11,
        "archive_files": 12,
        "unpacked_kb": 13,
        "compile_seconds": 14,
        "compile_memory_mb": 3000,
        "memory_mb": 300,
        "versions_per_hour": 17,
        "disk_mb": 18,
        "compile_disk_mb": 19,
        "build_mb": 20,
        "build_files": 21,
    }
    lines = "".join(f"{key} = {value}\n" for key, value in given.items())
    limits = load(write(tmp_path, f'game = "halma"\n[limits]\n{lines}')).limits
    assert {key: getattr(limits, key) for key in given} == given


def test_a_language_is_added_or_changed(tmp_path: Path) -> None:
    config = load(
        write(
            tmp_path,
            'game = "votey"\n[languages.go]\ntitle = "Go"\nsuffixes = [".go"]\n'
            'compile = "go build -o player ."\nrun = "./player"\n'
            '[languages.c]\ncompile = "cc -O3 -o player *.c"\n',
        )
    )
    assert config.languages["go"].run == "./player"
    assert config.languages["c"].compile == "cc -O3 -o player *.c"
    assert config.languages["c"].main == "main.c"  # the rest of c is kept


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read contest file"):
        load(tmp_path / "nope.toml")


def test_the_gate_plays_on_the_contests_clock_unless_the_file_names_another(
    tmp_path: Path,
) -> None:
    """A program is gated at the pace it will play: the contest's clock, not the
    sheet's, when the file changes it; ``check_clock`` when the file names one."""
    assert load(write(tmp_path, 'game = "checkers"\nclock = "st=3"\n')).gate_clock == "st=3"
    gated = load(write(tmp_path, 'game = "checkers"\nclock = "st=3"\ncheck_clock = "st=1"\n'))
    assert (gated.gate_clock, gated.clock) == ("st=1", "st=3")


def test_only_a_language_that_uses_the_rust_toolchain_is_shown_it() -> None:
    """A toolchain outside the system's folders is exposed behind the walls to the
    language whose commands name it, and to no other."""
    from arbiter.host.languages import LANGUAGES, _rustc

    for key in ("c", "cpp", "python", "java", "binary"):
        assert LANGUAGES[key].exposed() == (), key
    compiler, toolchain = _rustc()
    assert LANGUAGES["rust"].exposed() == ((toolchain,) if toolchain else ())
    if shutil.which("rustc") is not None:
        # the compiler itself, inside its toolchain: a rustup proxy in a home folder
        # cannot run behind the walls, what it stands for can
        assert os.path.isabs(compiler) and compiler.startswith(toolchain + os.sep), compiler


@pytest.mark.parametrize(
    ("written", "why"),
    [
        (b"# Caf\xe9 cup\n", "not UTF-8 text"),  # Latin-1, as an editor may save it
        (None, "No such file or directory"),
    ],
)
def test_a_description_file_that_cannot_be_read_is_named_with_why(
    tmp_path: Path, written: bytes | None, why: str
) -> None:
    if written is not None:
        (tmp_path / "about.md").write_bytes(written)
    text = 'game = "checkers"\ndescription_file = "about.md"\n'
    with pytest.raises(ConfigError) as caught:
        load(write(tmp_path, text))
    assert str(caught.value).endswith(f"description_file 'about.md': {why}")


def test_a_description_is_given_one_way_or_the_other(tmp_path: Path) -> None:
    """The contest page's text is written in the contest file or in a file it names;
    both at once is refused by name (which would the page show?), and the file named is
    read as it is."""
    (tmp_path / "about.md").write_text("# From the file\n", encoding="utf-8")
    both = 'game = "checkers"\ndescription = "# Inline"\ndescription_file = "about.md"\n'
    with pytest.raises(ConfigError, match="give description or description_file, not both"):
        load(write(tmp_path, both))
    named = load(write(tmp_path, 'game = "checkers"\ndescription_file = "about.md"\n'))
    assert named.description == "# From the file\n"
    inline = load(write(tmp_path, 'game = "checkers"\ndescription = "# Inline"\n'))
    assert inline.description == "# Inline"


@pytest.mark.parametrize("game", ["votey", "chinese-checkers", "halma"])
def test_a_contest_watches_its_programs_by_its_own_limits_and_its_game_s_rulings(
    game: str,
) -> None:
    """The gate, the workers and the games against entrants all run a program under
    the contest's memory and disk limits (each its own), no network, the walls asked
    for, and otherwise the game's own rulings (what time counts, the waiting program
    suspended, one process only)."""
    from arbiter.host.config import contest_supervision

    own = find_game(game).supervision
    watch = contest_supervision(game, 300, "rlimits", disk_mb=20)
    assert (watch.memory_limit_mb, watch.disk_limit_mb) == (300.0, 20.0)
    assert watch.network is False and watch.isolation == "rlimits"
    assert (watch.charging, watch.suspend, watch.single_process, watch.max_processes) == (
        own.charging,
        own.suspend,
        own.single_process,
        own.max_processes,
    )
    assert contest_supervision(game, 300).disk_limit_mb == 256.0  # the default disk
