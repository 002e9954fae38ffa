"""A deliberately simple, independent Chinese checkers move generator for the tests.

It shares nothing with the rules engine: the star is built from geometry (two
overlapping triangles in cube coordinates, x + y + z = 0), holes are numbered by
sorting (row, then left to right), the neutral triangles are the star's points
outside the central hexagon that are not in a home, and moves are found by walking
the lines one hole at a time with sets of coordinates.
"""

from __future__ import annotations

Point = tuple[int, int, int]

DIRECTIONS: tuple[Point, ...] = (
    (1, -1, 0), (-1, 1, 0), (1, 0, -1), (-1, 0, 1), (0, 1, -1), (0, -1, 1)
)  # fmt: skip


def _star() -> list[Point]:
    points = []
    for x in range(-8, 9):
        for y in range(-8, 9):
            z = -x - y
            up = x <= 4 and y <= 4 and z <= 4
            down = x >= -4 and y >= -4 and z >= -4
            if up or down:
                points.append((x, y, z))
    # rows bottom to top (z from -8), left to right (x - y rising)
    return sorted(points, key=lambda p: (p[2], p[0] - p[1]))


STAR = _star()
NUMBER = {p: i + 1 for i, p in enumerate(STAR)}
POINT = {i + 1: p for i, p in enumerate(STAR)}
ON_BOARD = set(STAR)
NEUTRAL = {
    NUMBER[p] for p in STAR if max(map(abs, p)) > 4 and abs(p[2]) <= 4
}  # outside the central hexagon, but not in either home (the tips at |z| > 4)


def _add(p: Point, d: Point, k: int = 1) -> Point:
    return (p[0] + k * d[0], p[1] + k * d[1], p[2] + k * d[2])


def moves(mine: set[int], theirs: set[int]) -> set[tuple[int, int]]:
    """Every (start, end) move of the side owning ``mine``, by hole numbers."""
    occupied = {POINT[n] for n in mine | theirs}
    out = set()
    for start_number in mine:
        start = POINT[start_number]
        blocked = occupied - {start}
        ends = set()
        for d in DIRECTIONS:
            step = _add(start, d)
            if step in ON_BOARD and step not in blocked:
                ends.add(step)
        seen = {start}
        todo = [start]
        while todo:
            a = todo.pop()
            for d in DIRECTIONS:
                k = 1
                while _add(a, d, k) in ON_BOARD and _add(a, d, k) not in blocked:
                    k += 1
                if _add(a, d, k) not in ON_BOARD:
                    continue  # no marble along this line
                path = [_add(a, d, i) for i in range(k + 1, 2 * k + 1)]
                if all(q in ON_BOARD and q not in blocked for q in path):
                    land = path[-1]
                    ends.add(land)
                    if land not in seen:
                        seen.add(land)
                        todo.append(land)
        for end in ends:
            n = NUMBER[end]
            if end != start and n not in NEUTRAL:
                out.add((start_number, n))
    return out


def perft(mine: set[int], theirs: set[int], depth: int) -> int:
    """Counts the move sequences of ``depth`` plies, ``mine`` to move."""
    if depth == 0:
        return 1
    total = 0
    for a, b in moves(mine, theirs):
        total += perft(theirs, (mine - {a}) | {b}, depth - 1)
    return total
