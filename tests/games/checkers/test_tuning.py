"""The weight fit over game records (``scripts/tune_checkers.py``): its features add up
to the evaluation's score, so a fit of them is a fit of the evaluation; it reads
records a match wrote and refuses what it cannot use with one line."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from arbiter.games import find_game
from arbiter.games.checkers import evaluate as ev
from arbiter.tournament.match import Match
from scripts import tune_checkers


def test_the_features_with_the_evaluations_weights_give_its_score() -> None:
    """A feature the evaluation changed and the fit did not follow shows here."""
    game = find_game("checkers").make()
    rng = random.Random(3)
    seen = 0
    while seen < 300:
        s = game.initial()
        for _ in range(rng.randrange(0, 120)):
            if game.outcome(s) is not None:
                break
            s = game.apply(s, rng.choice(game.legal_moves(s)))
        f = tune_checkers.features(s)
        assert sum(w * v for w, v in zip(tune_checkers.WEIGHTS, f, strict=True)) == ev.evaluate(s)
        seen += 1


def test_a_fit_of_a_matchs_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "games.jsonl"
    match = Match.between(
        "checkers", "alphabeta", "alphabeta", depth=2, games=4, openings=4, record=str(record)
    )
    assert len(list(match.play())) == 4
    assert tune_checkers.main([str(record), "--only", "men,kings,mobility"]) == 0
    out = capsys.readouterr().out
    assert "quiet positions" in out
    rows = [line.split() for line in out.splitlines() if line.startswith(("men", "kings"))]
    assert [r[:2] for r in rows] == [["men", "100"], ["kings", "140"]]
    assert float(rows[0][2]) == 100.0  # the fit is scaled to a man of 100


def test_unknown_features_and_unreadable_records_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert tune_checkers.main([str(tmp_path / "none.jsonl"), "--only", "men,tempo"]) == 2
    assert capsys.readouterr().err.strip() == "unknown features: tempo"
    assert tune_checkers.main([str(tmp_path / "none.jsonl")]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("cannot read the records:") and "\n" not in err
