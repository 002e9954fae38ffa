"""An entrant's rating history drawn as a small SVG: Elo after each round with its 95%
interval as a band, scaled to fit, no script and no library (it is a page's picture,
drawn from numbers only, so nothing of anyone's text reaches it)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from arbiter.host.ratings import RatingPoint

WIDTH, HEIGHT, MARGIN = 360, 160, 32


def rating_svg(points: Sequence[RatingPoint]) -> str:
    """The SVG of ``points`` (an empty string for none)."""
    if not points:
        return ""
    finite = [p for p in points if math.isfinite(p.error)]
    lows = [p.elo - p.error for p in finite] + [p.elo for p in points]
    highs = [p.elo + p.error for p in finite] + [p.elo for p in points]
    low, high = min(lows), max(highs)
    if high - low < 50:
        low, high = low - 25, high + 25
    first, last = points[0].round, points[-1].round
    span = max(1, last - first)

    def x(r: int) -> float:
        return MARGIN + (WIDTH - 2 * MARGIN) * (r - first) / span

    def y(elo: float) -> float:
        return HEIGHT - MARGIN + (2 * MARGIN - HEIGHT) * (elo - low) / (high - low)

    band = [f"{x(p.round):.1f},{y(p.elo + p.error):.1f}" for p in finite]
    band += [f"{x(p.round):.1f},{y(p.elo - p.error):.1f}" for p in reversed(finite)]
    line = " ".join(f"{x(p.round):.1f},{y(p.elo):.1f}" for p in points)
    dots = "".join(
        f'<circle cx="{x(p.round):.1f}" cy="{y(p.elo):.1f}" r="3"><title>round {p.round}: '
        f"{p.elo:+.0f} ± {p.error:.0f}</title></circle>"
        for p in points
    )
    labels = (
        f'<text x="4" y="{y(high) + 4:.0f}">{high:+.0f}</text>'
        f'<text x="4" y="{y(low) + 4:.0f}">{low:+.0f}</text>'
        f'<text x="{x(first):.0f}" y="{HEIGHT - 8}">round {first}</text>'
        + (
            f'<text x="{x(last) - 40:.0f}" y="{HEIGHT - 8}">round {last}</text>'
            if last != first
            else ""
        )
    )
    # drawn at its own size (its text at 11 px on any screen), narrowed on a phone
    return (
        f'<svg class="rating" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-label="rating after each round" '
        f'style="max-width:100%;height:auto;font-size:11px">'
        f'<polygon points="{" ".join(band)}" fill="#cde" />'
        f'<polyline points="{line}" fill="none" stroke="#246" stroke-width="2" />'
        f'<g fill="#246">{dots}</g><g fill="#555">{labels}</g></svg>'
    )
