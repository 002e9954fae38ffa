"""A minimal Alquerque player for the CodeCup 2008 jury: it reads Start or white's
first move, then plays a legal move (a capture when one is due, the longest capture
chain found first) and reads the opponent's in turn, until Quit, a win or the tie.

Make it your own: choose() is where a strategy goes. Squares are (file, rank) with
file 0..6 for a..g and rank 0..6 for 1..7.
"""

import random
import sys

FILES = "abcdefg"
ORTHOGONAL = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAGONAL = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


def directions(square):
    """Lines through a square: diagonals only where file + rank is even."""
    f, r = square
    return ORTHOGONAL + (DIAGONAL if (f + r) % 2 == 0 else [])


def on_board(f, r):
    return 0 <= f < 7 and 0 <= r < 7


def name(square):
    return FILES[square[0]] + str(square[1] + 1)


def parse(text):
    return (FILES.index(text[0]), int(text[1]) - 1)


def start():
    board = {}
    for f in range(7):
        for r in range(7):
            if r < 3 or (r == 3 and f >= 4):
                board[(f, r)] = "w"
            elif r > 3 or (r == 3 and f <= 2):
                board[(f, r)] = "b"
    return board


def captures(board, square, me):
    """Every capture chain of the piece on square: lists of landings."""
    f, r = square
    chains = []
    for df, dr in directions(square):
        over, land = (f + df, r + dr), (f + 2 * df, r + 2 * dr)
        if not on_board(*land) or board.get(over) not in ("w", "b") or board[over] == me:
            continue
        if land in board:
            continue
        after = dict(board)
        del after[square], after[over]
        after[land] = me
        longer = captures(after, land, me)
        chains += [[land] + rest for rest in longer] or [[land]]
    return chains


def legal_moves(board, me, last):
    """Moves as lists of squares: the piece's square, then each landing."""
    moves = []
    for square, piece in board.items():
        if piece == me:
            moves += [[square] + chain for chain in captures(board, square, me)]
    if moves:
        return moves  # capturing is compulsory
    for square, piece in board.items():
        if piece != me:
            continue
        for df, dr in directions(square):
            to = (square[0] + df, square[1] + dr)
            if on_board(*to) and to not in board and [to, square] != last:
                moves.append([square, to])
    return moves


def apply(board, move, me):
    """Plays move; a step has adjacent squares, a capture jumps over one."""
    board = dict(board)
    del board[move[0]]
    for a, b in zip(move, move[1:]):
        if abs(a[0] - b[0]) == 2 or abs(a[1] - b[1]) == 2:
            board.pop(((a[0] + b[0]) // 2, (a[1] + b[1]) // 2), None)
    board[move[-1]] = me
    return board


def is_capture(move):
    a, b = move[0], move[1]
    return abs(a[0] - b[0]) == 2 or abs(a[1] - b[1]) == 2


def text(move):
    return ("*" if is_capture(move) else "-").join(name(s) for s in move)


def choose(moves):
    """The move to play: here the longest capture, else any move."""
    longest = max(len(m) for m in moves)
    return random.choice([m for m in moves if len(m) == longest])


def main():
    board = start()
    line = sys.stdin.readline().strip()
    me = "w" if line == "Start" else "b"
    other = "b" if me == "w" else "w"
    last = {"w": None, "b": None}  # each side's previous step, for no going back
    plies = 0
    while True:
        if line in ("", "Quit"):
            return
        if line != "Start":
            move = [parse(part) for part in line.replace("*", "-").split("-")]
            last[other] = None if is_capture(move) else move
            board = apply(board, move, other)
            plies += 1
            if plies == 200:
                return  # both have made 100 moves: a tie, and we stop by ourselves
        moves = legal_moves(board, me, last[me])
        if not moves:
            return  # we lost; the jury says Quit
        move = choose(moves)
        print(text(move), flush=True)
        last[me] = None if is_capture(move) else move
        board = apply(board, move, me)
        plies += 1
        enemy = [s for s, p in board.items() if p == other]
        if plies == 200 or not enemy or not legal_moves(board, other, last[other]):
            return  # a tie or our win: we stop by ourselves
        line = sys.stdin.readline().strip()


if __name__ == "__main__":
    main()
