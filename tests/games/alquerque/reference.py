"""A deliberately simple Alquerque mover, written apart from the engine: points as
(file, rank) pairs, the board as a dict, lines worked out from the coordinates."""

from __future__ import annotations

Board = dict[tuple[int, int], str]  # point -> "w" or "b"


def start() -> Board:
    board: Board = {}
    for f in range(7):
        for r in range(7):
            if r < 3 or (r == 3 and f >= 4):
                board[(f, r)] = "w"
            elif r > 3 or (r == 3 and f <= 2):
                board[(f, r)] = "b"
    return board


def directions(p: tuple[int, int]) -> list[tuple[int, int]]:
    dirs = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    if (p[0] + p[1]) % 2 == 0:
        dirs += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    return dirs


def inside(p: tuple[int, int]) -> bool:
    return 0 <= p[0] < 7 and 0 <= p[1] < 7


def moves(board: Board, side: str, back: tuple | None) -> list[tuple]:
    """Every legal move as (path, captured points): captures first and only."""
    enemy = "b" if side == "w" else "w"
    found: list[tuple] = []

    def chain(at, path, taken, board):
        went = False
        for df, dr in directions(at):
            over, land = (at[0] + df, at[1] + dr), (at[0] + 2 * df, at[1] + 2 * dr)
            if inside(land) and board.get(over) == enemy and land not in board:
                went = True
                after = dict(board)
                del after[over]
                chain(land, [*path, land], [*taken, over], after)
        if not went and taken:
            found.append((tuple(path), tuple(taken)))

    for p, who in board.items():
        if who == side:
            rest = dict(board)
            del rest[p]
            chain(p, [p], [], rest)
    if found:
        return found
    for p, who in list(board.items()):
        if who != side:
            continue
        for df, dr in directions(p):
            q = (p[0] + df, p[1] + dr)
            if inside(q) and q not in board and back != (q, p):
                found.append(((p, q), ()))
    return found


def play(board: Board, side: str, move: tuple) -> Board:
    path, taken = move
    after = dict(board)
    del after[path[0]]
    for t in taken:
        del after[t]
    after[path[-1]] = side
    return after


def perft(board: Board, side: str, depth: int, backs: dict, ply: int = 0) -> int:
    """Move sequences of ``depth`` plies (the game ends with no pieces or no moves)."""
    if depth == 0:
        return 1
    if not any(v == side for v in board.values()):
        return 0
    total = 0
    other = "b" if side == "w" else "w"
    for m in moves(board, side, backs.get(side)):
        nb = dict(backs)
        nb[side] = None if m[1] else (m[0][0], m[0][1])
        total += perft(play(board, side, m), other, depth - 1, nb, ply + 1)
    return total
