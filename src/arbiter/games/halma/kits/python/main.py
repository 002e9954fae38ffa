"""A minimal Halma player for the homework's referee: run once per move in its own
folder, it reads input.txt (SINGLE or GAME, BLACK or WHITE, the seconds left, 16 rows
of W, B and .) and writes one legal move to output.txt: `E x,y x,y` for a step, or
one `J x,y x,y` line per hop of a jump chain. Black's camp is by 0,0, white's by
15,15; the camp rules 1(a) and 1(b) and "a piece in the opposing camp stays there"
are kept.

Make it your own: choose() is where a strategy goes.
"""

import random

ROWS_OF_CAMP = (5, 5, 4, 3, 2)  # black's camp, squares from x = 0 on rows y = 0..4
BLACK_CAMP = {(x, y) for y, n in enumerate(ROWS_OF_CAMP) for x in range(n)}
WHITE_CAMP = {(15 - x, 15 - y) for x, y in BLACK_CAMP}
AROUND = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]


def inside(x, y):
    return 0 <= x < 16 and 0 <= y < 16


def ends(board, start):
    """Every square the piece on start can end on, with the path of squares to it:
    a step to an empty neighbour, or any chain of hops over an adjacent piece."""
    x, y = start
    found = {}
    for dx, dy in AROUND:
        if inside(x + dx, y + dy) and board[y + dy][x + dx] == ".":
            found[(x + dx, y + dy)] = ("E", [start, (x + dx, y + dy)])
    paths, todo = {start: [start]}, [start]
    while todo:
        a = todo.pop()
        for dx, dy in AROUND:
            over, land = (a[0] + dx, a[1] + dy), (a[0] + 2 * dx, a[1] + 2 * dy)
            if not inside(*land) or land in paths:
                continue
            jumped = board[over[1]][over[0]] != "." and over != start
            free = board[land[1]][land[0]] == "." or land == start
            if jumped and free:
                paths[land] = paths[a] + [land]
                todo.append(land)
    for square, path in paths.items():
        if square != start:
            found[square] = ("J", path)
    return found


def further(a, b, corner):
    """True if b is further than a from corner: no closer either way, further one way."""
    dx, dy = abs(b[0] - corner[0]) - abs(a[0] - corner[0]), abs(b[1] - corner[1]) - abs(a[1] - corner[1])
    return dx >= 0 and dy >= 0 and (dx > 0 or dy > 0)


def legal_moves(board, me):
    own, their = (BLACK_CAMP, WHITE_CAMP) if me == "B" else (WHITE_CAMP, BLACK_CAMP)
    corner = (0, 0) if me == "B" else (15, 15)
    moves = []
    for y in range(16):
        for x in range(16):
            if board[y][x] != me:
                continue
            start = (x, y)
            for end, (kind, path) in ends(board, start).items():
                if start not in own and end in own:
                    continue  # 1(a): no way back into one's own camp
                if start in their and end not in their:
                    continue  # a piece in the opposing camp stays there
                moves.append((start, end, kind, path))
    at_home = [m for m in moves if m[0] in own]
    if any(board[y][x] == me for x, y in own):
        leaving = [m for m in at_home if m[1] not in own]  # 1(b): out of the camp first,
        if leaving:
            return leaving
        deeper = [m for m in at_home if m[1] in own and further(m[0], m[1], corner)]
        if deeper:  # else further from the corner within it
            return deeper
    return moves


def choose(moves, me):
    """The move to play: here one that goes furthest towards the opposing corner."""
    goal = (15, 15) if me == "B" else (0, 0)

    def gain(m):
        return (abs(m[0][0] - goal[0]) + abs(m[0][1] - goal[1])) - (abs(m[1][0] - goal[0]) + abs(m[1][1] - goal[1]))

    best = max(gain(m) for m in moves)
    return random.choice([m for m in moves if gain(m) == best])


def main():
    with open("input.txt") as f:
        lines = [line.strip() for line in f]
    me = "B" if lines[1] == "BLACK" else "W"
    board = lines[3:19]
    moves = legal_moves(board, me)
    if not moves:
        return
    start, end, kind, path = choose(moves, me)
    with open("output.txt", "w") as f:
        for a, b in zip(path, path[1:]):
            f.write(f"{kind} {a[0]},{a[1]} {b[0]},{b[1]}\n")


if __name__ == "__main__":
    main()
