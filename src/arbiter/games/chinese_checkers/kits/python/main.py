"""A minimal Chinese checkers player for the 1997 ACM Hong Kong mediator: it reads
`1` (it moves first) or `2`, then writes one move `FROM TO` and reads the opponent's
in turn. Every player sees the board from its own side: its home is holes 1-10 at
the bottom, the opponent's 112-121 at the top, where it must bring its ten marbles.
It stops when its input ends.

Make it your own: choose() is where a strategy goes.
"""

import random
import sys

ROWS = (1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1)
DIRECTIONS = ((2, 0), (-2, 0), (1, 1), (-1, 1), (1, -1), (-1, -1))
NEUTRAL = {11, 12, 13, 14, 24, 25, 26, 36, 37, 47, 20, 21, 22, 23, 33, 34, 35, 45, 46, 56,
           66, 76, 77, 87, 88, 89, 99, 100, 101, 102, 75, 85, 86, 96, 97, 98, 108, 109, 110, 111}

# each hole (numbered from 1, bottom to top, left to right) at (x in half-steps, row)
HOLE_AT = {}
for row, length in enumerate(ROWS):
    for i in range(length):
        HOLE_AT[(2 * i - (length - 1), row)] = len(HOLE_AT) + 1
WHERE = {hole: xy for xy, hole in HOLE_AT.items()}


def ray(hole, dx, dy):
    """The holes along one line from hole, nearest first."""
    x, y = WHERE[hole]
    out = []
    while (x + dx, y + dy) in HOLE_AT:
        x, y = x + dx, y + dy
        out.append(HOLE_AT[(x, y)])
    return out


def hops(full, hole):
    """Where one long hop from hole lands: the first marble on a line at distance k,
    the landing hole at 2k, everything between them and the landing empty."""
    out = []
    for dx, dy in DIRECTIONS:
        line = ray(hole, dx, dy)
        for k in range(1, len(line) // 2 + 1):
            if line[k - 1] in full:
                if not any(h in full for h in line[k:2 * k]):
                    out.append(line[2 * k - 1])
                break
    return out


def legal_moves(mine, theirs):
    """(from, to) pairs: a step to an empty neighbour, or any chain of hops; never
    ending in a neutral triangle or where it started."""
    moves = set()
    for start in mine:
        full = (mine | theirs) - {start}  # the moving marble's hole counts as empty
        for dx, dy in DIRECTIONS:
            near = ray(start, dx, dy)
            if near and near[0] not in full:
                moves.add((start, near[0]))
        seen, todo = {start}, [start]
        while todo:
            for landing in hops(full, todo.pop()):
                if landing not in seen:
                    seen.add(landing)
                    todo.append(landing)
                    moves.add((start, landing))
    return [(a, b) for a, b in moves if b != a and b not in NEUTRAL]


def choose(moves):
    """The move to play: here one that goes furthest up the board."""
    gain = {m: WHERE[m[1]][1] - WHERE[m[0]][1] for m in moves}
    best = max(gain.values())
    return random.choice([m for m in moves if gain[m] == best])


def main():
    first = sys.stdin.readline().strip()
    if not first:
        return
    mine = set(range(1, 11))
    theirs = set(range(112, 122))
    if first == "2":
        line = sys.stdin.readline().split()
        if not line:
            return
        theirs = theirs - {int(line[0])} | {int(line[1])}
    while True:
        moves = legal_moves(mine, theirs)
        if not moves:
            return
        a, b = choose(moves)
        print(a, b, flush=True)
        mine = mine - {a} | {b}
        line = sys.stdin.readline().split()
        if not line:
            return  # the game is over
        theirs = theirs - {int(line[0])} | {int(line[1])}


if __name__ == "__main__":
    main()
