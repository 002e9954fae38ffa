"""Pentanomial match statistics against examples computed by hand, and a match's
summary printing them."""

from __future__ import annotations

import math

import pytest

from arbiter.tournament.match import Match
from arbiter.tournament.pentanomial import PairStats


def test_twenty_pairs_by_hand() -> None:
    # pairs LL, LD, DD+WL, WD, WW = 1, 3, 10, 4, 2 (20 pairs)
    s = PairStats((1, 3, 10, 4, 2))
    # mu = (0*1 + .25*3 + .5*10 + .75*4 + 1*2) / 20 = 10.75 / 20
    assert s.score == pytest.approx(0.5375)
    # var = (1*.5375^2 + 3*.2875^2 + 10*.0375^2 + 4*.2125^2 + 2*.4625^2) / 20 = 1.159375 / 20
    assert s.variance == pytest.approx(0.05796875)
    # se = sqrt(var / 20) = 0.0538370; mu +- 1.96 se = 0.431979 .. 0.643021
    elo, err = s.elo()
    assert elo == pytest.approx(-400 * math.log10(1 / 0.5375 - 1))  # +26.107
    assert elo == pytest.approx(26.107, abs=1e-3)
    # (elo(0.643021) - elo(0.431979)) / 2 = (102.23 + 47.56) / 2
    assert err == pytest.approx(74.895, abs=1e-2)
    nelo, nerr = s.nelo()
    # (mu - .5) / sqrt(2 var) * 800 / ln 10 = .0375 / .340496 * 347.436
    assert nelo == pytest.approx(38.264, abs=1e-2)
    assert nerr == pytest.approx(107.67, abs=1e-1)
    # Phi(.0375 / .053837) = Phi(.69655)
    assert s.los() == pytest.approx(0.75696, abs=1e-4)
    assert s.draw_ratio() == 0.5


def test_an_even_match_and_a_whitewash() -> None:
    even = PairStats((2, 0, 6, 0, 2))  # as many pairs lost as won
    assert even.score == 0.5 and even.elo()[0] == 0.0 and even.nelo()[0] == 0.0
    assert even.los() == pytest.approx(0.5)
    assert even.variance == pytest.approx(0.1)  # (2 * .5^2 + 6 * 0 + 2 * .5^2) / 10
    won = PairStats((0, 0, 0, 0, 5))
    assert won.elo()[0] == math.inf and won.los() == 1.0 and won.nelo()[0] == math.inf
    assert "Elo a - b: +inf, nElo +inf" in "\n".join(won.lines("a", "b"))
    assert PairStats((0, 0, 0, 0, 0)).lines("a", "b") == [
        "Pentanomial: no complete pair of games yet"
    ]


def test_a_match_counts_its_pairs_and_prints_them() -> None:
    match = Match.between("votey", "greedy", "random", games=4, move_time=0.05)
    games = list(match.play())
    assert len(games) == 4
    assert sum(match.pentanomial) == 2
    # the pairs' points are the games' points, pair by pair
    assert (
        sum(c * s for c, s in zip(match.pentanomial, (0, 0.5, 1, 1.5, 2), strict=True))
        == (match.score.points[0])
    )
    text = "\n".join(match.summary())
    assert "Pentanomial [0, ¼, ½, ¾, 1] for greedy" in text and "LOS " in text
