"""Portable game text: checkers matches as PDN that pydraughts (an independent PDN
reader) reads with every move legal, PDN from elsewhere read back, and the other four
games as tagged text that reads back to the same moves and result."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from draughts import Board, Move
from draughts.PDN import PDNReader

from arbiter.errors import RecordError
from arbiter.games import find_game, game_names
from arbiter.games.checkers.notation import format_fen, parse_fen
from arbiter.play.portable import check_game, read_games, write_game
from arbiter.record import GameRecord, read_records
from arbiter.tournament.match import Match


def _match(game: str, tmp_path: Path, games: int = 4, **settings: Any) -> list[GameRecord]:
    path = tmp_path / f"{game}.jsonl"
    match = Match.between(game, "random", "greedy", games=games, record=str(path), **settings)
    for _ in match.play():
        pass
    return [r for _, r in read_records(path)]


def test_a_checkers_match_as_pdn_is_read_by_pydraughts_with_every_move_legal(
    tmp_path: Path,
) -> None:
    records = _match("checkers", tmp_path, games=6)
    text = "".join(write_game(r) for r in records)
    read = PDNReader(pdn_text=text).games
    assert len(read) == len(records)
    for record, game in zip(records, read, strict=True):
        assert game.variant == "english"
        assert game.moves == list(record.moves)
        board = Board(variant="english")
        for text_move in game.moves:
            legal = [m.steps_move for m in board.legal_moves()]
            move = Move(board, pdn_move=text_move)
            assert move.steps_move in legal, text_move  # the whole path, every landing
            board.push(move)
        # PDN's result is White's score first; pydraughts' winner 1 is Black (red)
        assert game.game_ending == {0: "0-1", 1: "1-0", None: "1/2-1/2"}[record.winner]
        if board.is_over() and record.winner is not None:
            assert board.winner() == record.winner + 1
        assert game.tags["Black"] == record.players[0]


def test_pdn_from_openings_carries_the_fen_pydraughts_sets_up(tmp_path: Path) -> None:
    records = _match("checkers", tmp_path, games=4, openings=4)
    assert all(r.start is not None for r in records)
    spec = find_game("checkers")
    for record in records:
        text = write_game(record)
        (game,) = read_games(text)
        assert game.tags["SetUp"] == "1"
        start = spec.notation.parse_position(record.start or "")
        board = Board(variant="english", fen=game.tags["FEN"])
        assert parse_fen(board.fen) == parse_fen(game.tags["FEN"]) == start
        assert check_game(game) == (
            len(record.moves),
            record.outcome if _by_rules(record) else None,
        )


def _by_rules(record: GameRecord) -> bool:
    return not record.reason.is_fault


def test_a_white_to_move_start_numbers_its_first_move_with_an_ellipsis() -> None:
    spec = find_game("checkers")
    rules = spec.rules()
    s = rules.apply(rules.initial(), rules.legal_moves(rules.initial())[0])
    reply = spec.notation.format_move(rules.legal_moves(s)[0], seat=1)
    record = GameRecord(
        "checkers",
        ("a", "b"),
        (reply,),
        (0.5,),
        None,
        _reason("ABORTED"),
        start=spec.notation.format_position(s),
    )
    text = write_game(record)
    assert f"1... {reply} {{[%emt 0.500]}}" in text
    assert f'[FEN "{format_fen(s)}"]' in text and format_fen(s).startswith("W:")
    (game,) = read_games(text)
    assert game.moves == [reply] and check_game(game)[0] == 1


def _reason(name: str):  # type: ignore[no-untyped-def]
    from arbiter.errors import Reason

    return Reason[name]


@pytest.mark.parametrize("game", [g for g in game_names() if g != "checkers"])
def test_the_other_games_read_back_as_the_same_moves_and_result(game: str, tmp_path: Path) -> None:
    records = _match(game, tmp_path, games=2, options={"max_plies": 120})
    text = "".join(write_game(r) for r in records)
    read = list(read_games(text))
    assert [g.moves for g in read] == [list(r.moves) for r in records]
    for record, portable in zip(records, read, strict=True):
        assert portable.game == game
        white = {"votey": 1, "halma": 1, "alquerque": 0}.get(game)  # else first, second
        first = 0 if white is None else white
        expected = {None: "1/2-1/2", first: "1-0", 1 - first: "0-1"}[record.winner]
        assert portable.result == expected
        played, outcome = check_game(portable)
        assert played == len(record.moves)
        if not record.reason.is_fault:
            assert outcome == record.outcome or (
                outcome is None and "plies" in record.detail  # the cap is the match's
            )


@pytest.mark.parametrize(
    ("game", "won"), [("votey", "0-1"), ("halma", "0-1"), ("alquerque", "1-0")]
)
def test_a_first_movers_win_is_in_the_colours_own_result_order(game: str, won: str) -> None:
    # a PGN reader takes Result as White's score first: Black's win is 0-1, even where
    # Black moves first
    record = GameRecord(game, ("one", "two"), (), (), 0, _reason("ADJUDICATED"))
    text = write_game(record)
    first, second = find_game(game).seat_names
    assert f'[{first.capitalize()} "one"]' in text and f'[{second.capitalize()} "two"]' in text
    assert f'[Result "{won}"]' in text


def _pdn_from_elsewhere() -> tuple[str, list[str]]:
    """PDN as other programs write it: captures by start and end only (``9x27``),
    comments, a variation, NAGs, annotations; a random game up to its first double
    jump and 4 plies more. Returns the text and the full moves."""
    spec = find_game("checkers")
    rules = spec.rules()
    rng = random.Random(3)
    while True:
        s, full, short, left = rules.initial(), [], [], None
        while rules.outcome(s) is None and left != 0:
            m = rng.choice(rules.legal_moves(s))
            full.append(str(m))
            short.append(f"{m.path[0] + 1}x{m.path[-1] + 1}" if m.captures else str(m))
            if len(m.captures) > 1 and left is None:
                left = 5
            left = None if left is None else left - 1
            s = rules.apply(s, m)
        if left == 0:
            break
    words = []
    for i, move in enumerate(short):
        if i % 2 == 0:
            words.append(f"{i // 2 + 1}.")
        words.append(move + ("!" if i == 2 else ""))
        if i == 1:
            words.append("{a comment (with brackets]} $1 (2. 1-5 32-28)")
    text = '[Event "club night"]\n[Black "Smith, A"]\n[White "Jones, B"]\n'
    return text + '[Result "*"]\n\n' + " ".join(words) + " *\n", full


def test_pdn_from_elsewhere_reads_with_short_captures_and_variations() -> None:
    text, full = _pdn_from_elsewhere()
    (game,) = read_games(text)
    assert game.game == "checkers" and game.tags["Black"] == "Smith, A"
    assert "1-5" not in game.moves  # the variation is skipped
    assert check_game(game) == (len(full), None)


def test_an_illegal_move_or_a_wrong_result_is_named() -> None:
    text, full = _pdn_from_elsewhere()
    (game,) = read_games(text.replace(f" {full[1]} ", " 1-5 ", 1))
    with pytest.raises(RecordError, match=r"game 1: move 2 '1-5'"):
        check_game(game)
    spec = find_game("alquerque")
    rules = spec.rules()
    rng = random.Random(1)
    outcome = None
    while outcome is None or outcome.winner is None:  # a random game someone won
        s, moves = rules.initial(), []
        while rules.outcome(s) is None:
            m = rng.choice(rules.legal_moves(s))
            moves.append(spec.notation.format_move(m, seat=0))
            s = rules.apply(s, m)
        outcome = rules.outcome(s)
    wrong = "0-1" if outcome.winner == 0 else "1-0"
    text = f'[Game "alquerque"]\n[Result "{wrong}"]\n\n' + " ".join(moves) + f" {wrong}\n"
    with pytest.raises(RecordError, match="is not the rules'"):
        check_game(next(read_games(text)))


def _arbiter(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arbiter.cli", *args], capture_output=True, text=True, timeout=120
    )


def test_export_formats_and_replay_of_pdn_from_the_command_line(tmp_path: Path) -> None:
    _match("checkers", tmp_path, games=2)
    _match("votey", tmp_path, games=2)
    pdn = tmp_path / "games.pdn"
    done = _arbiter("export", str(tmp_path / "checkers.jsonl"), "--format", "pdn", "-o", str(pdn))
    assert done.returncode == 0, done.stderr
    checked = _arbiter("replay", str(pdn))
    assert checked.returncode == 0 and "2 of 2 games verified" in checked.stdout
    pdn.write_text(pdn.read_text().replace("1. ", "1. 1-5 ", 1))
    assert _arbiter("replay", str(pdn)).returncode == 1
    refused = _arbiter("export", str(tmp_path / "votey.jsonl"), "--format", "pdn")
    assert refused.returncode == 1
    assert refused.stderr.strip().splitlines() == [
        f"arbiter export: error: PDN is for checkers and '{tmp_path / 'votey.jsonl'}' holds "
        "votey games: --format pgn writes them as tagged text"
    ]
    pgn = _arbiter("export", str(tmp_path / "votey.jsonl"), "--format", "pgn")
    assert pgn.stdout.count('[Game "votey"]') == 2


@pytest.mark.parametrize(
    ("reason", "termination"),
    [
        ("ILLEGAL_MOVE", "rules infraction"),
        ("CRASH", "rules infraction"),
        ("FORFEIT", "rules infraction"),
        ("TIME", "time forfeit"),
        ("NO_MOVES", "normal"),
    ],
)
def test_a_game_lost_by_a_fault_is_not_tagged_a_normal_end(reason: str, termination: str) -> None:
    for game in ("checkers", "votey"):
        record = GameRecord(game, ("one", "two"), (), (), 1, _reason(reason))
        assert f'[Termination "{termination}"]' in write_game(record), (game, reason)


def test_a_games_clock_is_tagged_only_when_the_record_has_one() -> None:
    spec = find_game("votey")
    move = spec.notation.format_move(spec.rules().legal_moves(spec.rules().initial())[0], seat=0)
    timed = GameRecord(
        "votey", ("a", "b"), (move,), (0.5,), None, _reason("ABORTED"), time_control="60/move"
    )
    assert '[TimeControl "60/move"]' in write_game(timed)
    untimed = GameRecord("votey", ("a", "b"), (move,), (0.5,), None, _reason("ABORTED"))
    assert "TimeControl" not in write_game(untimed)
