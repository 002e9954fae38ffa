"""The typed game contract: mypy rejects a game that misses or misspells part of it, and
the spec checks rule options."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from arbiter.contract.layout import compulsory_captures
from arbiter.errors import ConfigError
from arbiter.games import find_game, game_names
from tests.conformance import random_game

ROOT = Path(__file__).resolve().parent.parent

GOOD_NOTATION = (ROOT / "tests" / "fakegame" / "notation.py").read_text()
GOOD_PROTOCOL = (ROOT / "tests" / "fakegame" / "protocol.py").read_text()

SPEC_MODULE = """
from arbiter.contract import GameSpec, Loader, PlayerSide, RefereeSide
from PACKAGE import notation, protocol
from tests.fakegame import evaluate
from tests.fakegame.rules import Move, Race, State

SPEC: GameSpec[State, Move] = GameSpec(
    name="broken",
    title="Broken",
    seat_names=("up", "down"),
    rules=Race,
    notation=notation,
    contest=protocol,
    evaluation=evaluate,
    time_control=protocol.TIME_CONTROL,
    supervision=protocol.SUPERVISION,
    player_side=Loader("PACKAGE.protocol"),
    referee_side=Loader("PACKAGE.protocol"),
)
# as every game does: mypy holds the two sides of the protocol to the contract
_player: PlayerSide[State, Move] = protocol
_referee: RefereeSide[State, Move] = protocol
"""

BREAKS = [
    ("notation", "def draw_board(", "def draw_bord(", "draw_board"),
    (
        "notation",
        "def format_move(m: Move, *, seat: int)",
        "def format_move(m: Move)",
        "format_move",
    ),
    (
        "notation",
        "def parse_move(text: str, *, seat: int) -> Move:",
        "def parse_move(text: str, *, seat: int) -> str:",
        "parse_move",
    ),
    ("protocol", "def adjudicate(", "def adjudication(", "adjudicate"),
    ("protocol", "def serve(", "def serves(", "PlayerSide"),
    ("protocol", "def program_seat(", "def program_set(", "RefereeSide"),
    (
        "protocol",
        "def judge(game: Game[State, Move], s: State, text: str, *, seat: Player)",
        "def judge(game: Game[State, Move], s: State, text: str, *, seat: str)",
        "judge",
    ),
]
"""Each a break of the contract: the module, the text changed, what mypy must name."""


def game_package(root: Path, name: str, notation: str, protocol: str) -> None:
    """Writes a game package ``name`` made of the given modules and the spec."""
    pkg = root / name
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "notation.py").write_text(notation)
    (pkg / "protocol.py").write_text(protocol)
    (pkg / "spec.py").write_text(SPEC_MODULE.replace("PACKAGE", name))


@pytest.fixture(scope="module")
def mypy_said(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """One ``mypy --strict`` run over the whole test game, a whole copy of its modules
    (``goodgame``), one package per break (``broken0``...) and the toy games (Nim and
    Connect Four, as an outside author writes a game): what it said of each package,
    by name. One run, as mypy loads the contract once (eight runs took 21 s)."""
    root = tmp_path_factory.mktemp("contract")
    game_package(root, "goodgame", GOOD_NOTATION, GOOD_PROTOCOL)
    for i, (module, old, new, _) in enumerate(BREAKS):
        notation, protocol = GOOD_NOTATION, GOOD_PROTOCOL
        if module == "notation":
            assert old in notation
            notation = notation.replace(old, new)
        else:
            assert old in protocol
            protocol = protocol.replace(old, new)
        game_package(root, f"broken{i}", notation, protocol)
    toys = ["tests.fakegame", "tests.nim", "tests.connect4"]  # Nim's own encoding too
    names = ["goodgame", *(f"broken{i}" for i in range(len(BREAKS))), *toys]
    env = dict(os.environ, MYPYPATH=os.pathsep.join([str(ROOT / "src"), str(ROOT), str(root)]))
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental"]
        + [a for name in names for a in ("-p", name)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert done.returncode in (0, 1), done.stdout + done.stderr
    said: dict[str, list[str]] = {name: [] for name in names}
    for line in done.stdout.splitlines():
        path = line.split(":", 1)[0]
        if not path.endswith(".py"):
            continue  # mypy's summary
        top = "tests.fakegame" if "tests/fakegame/" in path else path.split("/", 1)[0]
        said.setdefault(top, []).append(line)  # anything else said fails the good game
    return said


def test_the_whole_test_game_meets_the_contract(mypy_said: dict[str, list[str]]) -> None:
    broken = {f"broken{i}" for i in range(len(BREAKS))}
    others = {name: lines for name, lines in mypy_said.items() if name not in broken}
    assert all(lines == [] for lines in others.values()), others


@pytest.mark.parametrize(
    ("index", "complaint"), [(i, b[3]) for i, b in enumerate(BREAKS)], ids=[b[2] for b in BREAKS]
)
def test_mypy_rejects_a_game_that_breaks_the_contract(
    mypy_said: dict[str, list[str]], index: int, complaint: str
) -> None:
    said = mypy_said[f"broken{index}"]
    # the complaint is where the game is put together, naming the broken function
    at_spec = [line for line in said if line.startswith(f"broken{index}/spec.py")]
    assert any(complaint in line for line in at_spec), said


def test_rule_options_are_checked_by_the_spec() -> None:
    spec = find_game("checkers")
    assert spec.make({"plain_draws": True, "max_plies": 50}).max_plies == 50  # type: ignore[attr-defined]
    with pytest.raises(
        ConfigError, match=r"has no rule option 'komi' \(it has: max_plies, plain_draws\)"
    ):
        spec.make({"komi": 6})
    with pytest.raises(ConfigError, match="'max_plies' must be at least 1"):
        spec.make({"max_plies": 0})
    with pytest.raises(ConfigError, match="'plain_draws' must be true or false"):
        spec.make({"plain_draws": "yes"})
    with pytest.raises(ConfigError, match="whole number"):
        spec.make({"max_plies": 2.5})
    assert spec.make({"max_plies": 1}).max_plies == 1  # type: ignore[attr-defined]
    assert spec.make({"max_plies": 7.0}).max_plies == 7  # type: ignore[attr-defined]
    for wrong in (True, "12", None):
        with pytest.raises(ConfigError, match="'max_plies' must be a whole number"):
            spec.make({"max_plies": wrong})


@pytest.mark.parametrize("game", ["checkers", "alquerque"])
def test_compulsory_captures_says_so_only_where_a_capture_must_be_played(game: str) -> None:
    """Along random games: the words exactly where every legal move captures, none where
    a move is free, and none where there is no move at all (a finished game compels
    nothing, though "all of no moves capture")."""
    rules = find_game(game).make()
    rng = random.Random(3)
    seen = {"forced": 0, "free": 0, "none": 0}
    while min(seen.values()) == 0:
        s = rules.initial()
        while True:
            legal = rules.legal_moves(s)
            said = compulsory_captures(rules, s)
            if not legal:
                assert said is None
                seen["none"] += 1
                break
            forced = all(m.captures for m in legal)
            assert said == ("a capture is compulsory" if forced else None)
            seen["forced" if forced else "free"] += 1
            if rules.outcome(s) is not None:
                break
            s = rules.apply(s, rng.choice(legal))


def test_what_a_game_lacks_is_named_where_it_is_asked_for() -> None:
    """A game without a board (the test game Race) is told so by the browser's call for
    it and by the environments', which need a board or an encoding of its own; a
    command is an argv list or a shell-quoted line, never empty."""
    from arbiter import envs
    from arbiter.contract import Program

    race = find_game("race")
    assert race.board is None and race.encoding is None
    with pytest.raises(ConfigError, match=r"^race has no board for the browser$"):
        race.board_view()
    with pytest.raises(ConfigError, match="race has neither a board nor an encoding of its own"):
        envs.env("race")
    assert Program.from_command(["./bot", "a b"]).argv == ("./bot", "a b")
    assert Program.from_command("./bot 'a b'").argv == ("./bot", "a b")
    assert Program.from_command(["./bot", "a b"]).label == "./bot a b"
    assert Program(("./bot", "x")).label == "./bot x"  # made without a name: its words
    assert Program.from_command("./bot", name="Bot").label == "Bot"
    for empty in ([], "", "   "):
        with pytest.raises(ConfigError, match="it is empty"):
            Program.from_command(empty)
    with pytest.raises(ConfigError, match="No closing quotation"):
        Program.from_command("./bot 'a")


@pytest.mark.parametrize("game", ["votey", "checkers", "alquerque", "chinese-checkers", "halma"])
def test_every_click_the_board_offers_leads_on_to_a_move(game: str) -> None:
    """The browser offers a cell only where clicking on can still make a legal move:
    from every run of offered clicks, at positions of random games (the openings,
    where hop chains wind through the camps' rules, included), either the clicks are
    a move already or more cells are offered, and every move reached is legal. Each
    legal move is reached so."""
    spec = find_game(game)
    rules = spec.make()
    clicking = spec.board_view().clicks
    for s in random_game(rules, 8, 80):
        legal = set(rules.legal_moves(s))
        reached = set()
        runs: list[list[int]] = [[]]
        while runs:
            clicks = runs.pop()
            found = clicking.continuations(rules, s, clicks)
            assert found.move is not None or found.next, (game, s, clicks)
            if found.move is not None:
                assert found.move in legal, (game, clicks)
                reached.add(found.move)
            runs += [[*clicks, cell] for cell in found.next]
        assert reached == legal, game


@pytest.mark.parametrize("game", [g for g in game_names() if find_game(g).board is not None])
def test_the_cells_shown_for_a_move_are_where_it_goes_from_and_to(game: str) -> None:
    """What the browser shows of a move (its path: the last move marked, a replay's
    move drawn) ends on the cell the mover holds after it (or, for a move that takes,
    as Nim's, a cell it empties), and where the move has a start of its own, starts
    on a cell the mover held before: a drop shows the cell it fills, not its column."""
    spec = find_game(game)
    rules = spec.make()
    view = spec.board_view()
    for s in random_game(rules, 6, 30):
        mover = str(rules.to_move(s))
        before = view.pieces(s)
        for m in rules.legal_moves(s):
            path = view.clicks.move_path(s, m)
            after = view.pieces(rules.apply(s, m))
            end = str(path[-1])
            held = after.get(end, "").startswith(mover)
            taken = end in before and end not in after
            assert held or taken, (game, m, path)
            if len(path) > 1:
                assert before.get(str(path[0]), "").startswith(mover), (game, m, path)


def test_a_prepared_check_starts_where_its_search_found_and_one_never_found_is_left_out() -> None:
    """A check-agent position is the first of seeded random games with the property it
    needs, the same every time; a property no game reaches leaves its check out rather
    than playing it from the start under a name that says otherwise."""
    from arbiter.contract.probes import find_position, prepared

    spec = find_game("checkers")

    def forced(game: Any, s: Any) -> bool:
        legal = game.legal_moves(s)
        return bool(legal) and all(m.captures for m in legal)

    found = prepared(
        spec,
        [
            ("forced", "a capture to make", forced, 3, 100),
            ("never", "a position no game has", lambda game, s: False, 3, 5),
        ],
    )
    assert [c.name for c in found] == ["forced"]
    assert found[0].start == find_position(spec, forced, 3, 100) is not None
    s = spec.notation.parse_position(found[0].start)
    assert forced(spec.make(), s) and found[0].about == "a capture to make"


@pytest.mark.parametrize("game", game_names())
def test_a_check_from_a_position_gives_the_program_the_side_to_move_there(game: str) -> None:
    """A prepared position is found for what its side to move must do (a capture, a
    chain of jumps): a check that seated the program on the other side would watch
    its random opponent do it."""
    spec = find_game(game)
    rules = spec.make()
    for check in spec.probe_checks():
        if check.start is not None:
            s = spec.notation.parse_position(check.start)
            assert check.seat == rules.to_move(s), (check.name, check.seat)


def test_a_contest_s_megabytes_are_mebibytes() -> None:
    """The sheets' and the contest files' MB are 2**20 bytes, as the kernel's limits
    and ``ps`` count them: a program allowed 256 MB may hold 268,435,456 bytes."""
    from arbiter.contract import Supervision

    given = Supervision(memory_limit_mb=256, disk_limit_mb=64)
    assert (given.memory_limit, given.disk_limit) == (256 * 2**20, 64 * 2**20)
    assert Supervision(memory_limit_mb=0.5).memory_limit == 2**19
    unlimited = Supervision(memory_limit_mb=None, disk_limit_mb=None)
    assert (unlimited.memory_limit, unlimited.disk_limit) == (None, None)


@pytest.mark.parametrize("game", ["votey", "checkers", "alquerque", "chinese-checkers", "halma"])
def test_a_side_is_named_by_its_seat_name_or_number_in_any_case(game: str) -> None:
    """``arbiter play --side``: a seat's name as the game calls it (any letter case,
    spaces around) or 1 for the first to move and 2 for the second; anything else is
    one error naming both names."""
    spec = find_game(game)
    first, second = spec.seat_names
    for text, seat in [(first, 0), (second, 1), ("1", 0), ("2", 1), (f" {second.upper()} ", 1)]:
        assert spec.seat_by_name(text) == seat, text
    for wrong in ("0", "3", "", "both"):
        with pytest.raises(
            ConfigError, match=f"^unknown side {wrong!r}: expected {first} or {second}$"
        ):
            spec.seat_by_name(wrong)


def test_the_plain_score_gives_each_seat_its_own_points_and_a_match_records_it() -> None:
    """A game without a contest score of its own scores 1 for a win and a half each for
    a draw, each seat its own: the score a match records agrees with its winner."""
    import json
    import tempfile

    from arbiter.cli import main
    from arbiter.contract.spec import win_draw_loss
    from arbiter.errors import Reason
    from arbiter.game import Outcome

    votey = find_game("votey")
    assert votey.score is win_draw_loss
    s = votey.make().initial()
    for winner, score in ((0, (1.0, 0.0)), (1, (0.0, 1.0)), (None, (0.5, 0.5))):
        assert win_draw_loss(votey.make(), s, Outcome(winner, Reason.TIME)) == score
    with tempfile.TemporaryDirectory() as folder:
        record = Path(folder) / "games.jsonl"
        argv = ["match", "votey", "random", "greedy", "--games", "4", "--record", str(record)]
        assert main([*argv, "--seed", "3"]) == 0
        games = [json.loads(line) for line in record.read_text().splitlines()]
    assert len(games) == 4 and {g["winner"] for g in games} <= {0, 1, None}
    for g in games:
        want = [0.5, 0.5] if g["winner"] is None else [float(g["winner"] == p) for p in (0, 1)]
        assert g["score"] == want, g


@pytest.mark.parametrize("game", game_names())
def test_an_engine_s_move_stands_unless_a_clock_ruling_would_punish_it(game: str) -> None:
    """While its base time lasts a built-in engine plays the move it chose, in every
    contest; after it, only a contest with a clock ruling (Chinese checkers' home rule)
    plays another. A contest without clock rulings keeps the rules' outcome whatever
    the clock says."""
    from arbiter.clock import Clock, TimeControl
    from arbiter.contract import keep_move, keep_outcome
    from arbiter.errors import Reason
    from arbiter.game import Outcome

    spec = find_game(game)
    rules, contest = spec.make(), spec.contest
    spent = Clock(TimeControl.parse("1"), (-1.0, -1.0), (0, 0))  # both seats' time gone
    for s in random_game(rules, 5, 40):
        for m in rules.legal_moves(s):
            assert contest.comply(rules, s, m, out_of_time=False) == m, (game, m)
            if contest.comply is keep_move:
                assert contest.comply(rules, s, m, out_of_time=True) == m, (game, m)
        if contest.adjudicate is keep_outcome:
            ended = Outcome(0, Reason.NO_MOVES)
            assert contest.adjudicate(rules, s, spent, None) is None
            assert contest.adjudicate(rules, s, spent, ended) is ended
