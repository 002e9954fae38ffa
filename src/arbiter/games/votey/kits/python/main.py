"""A minimal Votey Checkers (Lines of Action) player for the contest's referee:
started as `main.py 1` (black, moves first) or `main.py 2` (white); each move is one
line FFTT (from square, to square, each 10 * row + column), negated when it wins;
it stops at -1, at the opponent's winning (negative) move, or at the end of input.

Make it your own: choose() is where a strategy goes.
"""

import random
import sys

DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def start():
    board = {}
    for c in range(2, 8):
        board[(1, c)] = board[(8, c)] = "b"
    for r in range(2, 8):
        board[(r, 1)] = board[(r, 8)] = "w"
    return board


def on_board(r, c):
    return 1 <= r <= 8 and 1 <= c <= 8


def line_count(board, r, c, dr, dc):
    """Pieces on the whole line through (r, c) in direction (dr, dc)."""
    count = 1
    for sign in (1, -1):
        rr, cc = r + sign * dr, c + sign * dc
        while on_board(rr, cc):
            count += (rr, cc) in board
            rr, cc = rr + sign * dr, cc + sign * dc
    return count


def legal_moves(board, me):
    moves = []
    for (r, c), piece in board.items():
        if piece != me:
            continue
        for dr, dc in DIRECTIONS:
            n = line_count(board, r, c, dr, dc)
            tr, tc = r + n * dr, c + n * dc
            if not on_board(tr, tc) or board.get((tr, tc)) == me:
                continue
            # it may pass over its own pieces, never over the opponent's
            if all(board.get((r + k * dr, c + k * dc), me) == me for k in range(1, n)):
                moves.append(((r, c), (tr, tc)))
    return moves


def apply(board, move):
    board = dict(board)
    board[move[1]] = board.pop(move[0])
    return board


def connected(board, who):
    pieces = {sq for sq, p in board.items() if p == who}
    if not pieces:
        return False
    seen, todo = set(), [next(iter(pieces))]
    while todo:
        r, c = todo.pop()
        if (r, c) in seen:
            continue
        seen.add((r, c))
        todo += [(r + dr, c + dc) for dr, dc in DIRECTIONS if (r + dr, c + dc) in pieces]
    return seen == pieces


def number(move):
    (fr, fc), (tr, tc) = move
    return 1000 * fr + 100 * fc + 10 * tr + tc


def choose(board, moves, me):
    """The move to play: here a winning move if there is one, else any move."""
    winning = [m for m in moves if connected(apply(board, m), me)]
    return random.choice(winning or moves)


def main():
    me = "b" if sys.argv[1:] == ["1"] else "w"
    other = "w" if me == "b" else "b"
    board = start()
    if me == "w":
        line = sys.stdin.readline().strip()
        while line == "0":  # the sheet's development play(0) may send 0 first
            line = sys.stdin.readline().strip()
        if not line or line.startswith("-"):
            return
        n = int(line)
        board = apply(board, ((n // 1000, n // 100 % 10), (n // 10 % 10, n % 10)))
    while True:
        moves = legal_moves(board, me)
        if not moves:
            return
        move = choose(board, moves, me)
        board = apply(board, move)
        wins = connected(board, me)
        print(-number(move) if wins else number(move), flush=True)
        if wins:
            return
        line = sys.stdin.readline().strip()
        if not line or line.startswith("-"):
            return  # -1 (our move was refused) or the opponent's winning move
        n = int(line)
        board = apply(board, ((n // 1000, n // 100 % 10), (n // 10 % 10, n % 10)))


if __name__ == "__main__":
    main()
