"""The rating plot: every line, band and dot drawn inside the picture, whatever the
ratings and their intervals."""

from __future__ import annotations

import math
import re

import pytest

from arbiter.host.plot import HEIGHT, WIDTH, rating_svg
from arbiter.host.ratings import RatingPoint

HISTORIES = {
    "wide intervals": [RatingPoint(1, 0.0, 300.0), RatingPoint(2, 40.0, 150.0)],
    "falling": [RatingPoint(1, 200.0, 90.0), RatingPoint(3, -150.0, 60.0)],
    "one round, unrated interval": [RatingPoint(4, 12.0, math.inf)],
    "flat": [RatingPoint(1, 5.0, 0.0), RatingPoint(2, 5.0, 0.0)],
}


@pytest.mark.parametrize("points", HISTORIES.values(), ids=HISTORIES.keys())
def test_every_point_of_the_plot_is_inside_the_picture(points: list[RatingPoint]) -> None:
    svg = rating_svg(points)
    pairs = re.findall(r"(-?[\d.]+),(-?[\d.]+)", svg)
    pairs += re.findall(r'cx="(-?[\d.]+)" cy="(-?[\d.]+)"', svg)
    assert pairs
    for x, y in pairs:
        assert 0 <= float(x) <= WIDTH and 0 <= float(y) <= HEIGHT, (x, y)


def test_no_history_draws_nothing() -> None:
    assert rating_svg([]) == ""
