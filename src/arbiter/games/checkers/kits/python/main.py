"""A minimal American checkers engine for the AI Wars 2011 referee: started as
`main.py 1` (red, moves first, from squares 1-12 towards 32) or `main.py 2` (white);
each turn it reads the 8 board rows (8 digits: 0 empty, 1 red, 2 white, 3 red king,
4 white king) and writes one move over squares 1..32: `9-13` for a step, `22x15x6`
for captures with every landing square. It stops when its input ends.

Make it your own: choose() is where a strategy goes. A square is (row, column),
both 0..7, row 0 at the top; dark squares have row + column odd.
"""

import random
import sys


def number(square):
    row, col = square
    return row * 4 + col // 2 + 1


def forward(piece):
    """Row steps a piece may move in: men forward only, kings both ways."""
    return {"1": [1], "2": [-1]}.get(piece, [1, -1])


def mine(piece, me):
    return piece in (me, str(int(me) + 2))


def theirs(piece, me):
    return piece not in ("0", me, str(int(me) + 2))


def jumps(board, square, piece, me):
    """Every complete capture chain from square: lists of landing squares."""
    row, col = square
    chains = []
    for dr in forward(piece):
        for dc in (-1, 1):
            over, land = (row + dr, col + dc), (row + 2 * dr, col + 2 * dc)
            if not (0 <= land[0] < 8 and 0 <= land[1] < 8):
                continue
            if not theirs(board[over[0]][over[1]], me) or board[land[0]][land[1]] != "0":
                continue
            after = [list(r) for r in board]
            after[row][col], after[over[0]][over[1]] = "0", "0"
            after[land[0]][land[1]] = piece
            crowned = piece in "12" and land[0] == (7 if piece == "1" else 0)
            more = [] if crowned else jumps(after, land, piece, me)  # crowning ends a move
            chains += [[land] + rest for rest in more] or [[land]]
    return chains


def legal_moves(board, me):
    """Moves as lists of squares, start first; captures when any is possible."""
    pieces = [(r, c) for r in range(8) for c in range(8) if mine(board[r][c], me)]
    captures = [[s] + chain for s in pieces for chain in jumps(board, s, board[s[0]][s[1]], me)]
    if captures:
        return captures
    steps = []
    for row, col in pieces:
        for dr in forward(board[row][col]):
            for dc in (-1, 1):
                r, c = row + dr, col + dc
                if 0 <= r < 8 and 0 <= c < 8 and board[r][c] == "0":
                    steps.append([(row, col), (r, c)])
    return steps


def text(move):
    capture = abs(move[0][0] - move[1][0]) == 2
    return ("x" if capture else "-").join(str(number(s)) for s in move)


def choose(moves):
    """The move to play: here the longest capture, else any move."""
    longest = max(len(m) for m in moves)
    return random.choice([m for m in moves if len(m) == longest])


def main():
    me = "1" if sys.argv[1:] == ["1"] else "2"
    while True:
        rows = []
        while len(rows) < 8:
            line = sys.stdin.readline()
            if not line:
                return  # the game is over
            if line.strip():
                rows.append(line.strip())
        moves = legal_moves(rows, me)
        if not moves:
            return
        print(text(choose(moves)), flush=True)


if __name__ == "__main__":
    main()
