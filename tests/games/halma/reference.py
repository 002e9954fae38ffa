"""A deliberately simple, independent Halma move generator for the tests: the board
as a dict of squares, the camps written out from RULES.md, hop chains by recursion,
the camp rules read straight off the sheet. Slow and plain, sharing nothing with
the rules engine but the sheet."""

from __future__ import annotations

Square = tuple[int, int]
Board = dict[Square, str]  # "B", "W" or "" for every square

BLACK_CAMP = frozenset(
    [(x, 0) for x in range(5)]
    + [(x, 1) for x in range(5)]
    + [(x, 2) for x in range(4)]
    + [(x, 3) for x in range(3)]
    + [(x, 4) for x in range(2)]
)
WHITE_CAMP = frozenset((15 - x, 15 - y) for x, y in BLACK_CAMP)
CAMP = {"B": BLACK_CAMP, "W": WHITE_CAMP}
OTHER = {"B": "W", "W": "B"}
CORNER = {"B": (0, 0), "W": (15, 15)}


def start() -> Board:
    board = {(x, y): "" for x in range(16) for y in range(16)}
    for colour in "BW":
        for sq in CAMP[colour]:
            board[sq] = colour
    return board


def _landings(board: Board, at: Square, seen: set[Square]) -> None:
    x, y = at
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            over, land = (x + dx, y + dy), (x + 2 * dx, y + 2 * dy)
            if land in board and board[over] and not board[land] and land not in seen:
                seen.add(land)
                _landings(board, land, seen)


def raw_moves(board: Board, colour: str) -> set[tuple[Square, Square]]:
    """Every (start, end) by steps and hop chains, before any camp rule."""
    moves = set()
    for sq, who in board.items():
        if who != colour:
            continue
        x, y = sq
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                to = (x + dx, y + dy)
                if to in board and not board[to]:
                    moves.add((sq, to))
        lifted = dict(board)
        lifted[sq] = ""
        seen: set[Square] = set()
        _landings(lifted, sq, seen)
        moves |= {(sq, land) for land in seen if land != sq}
    return moves


def _further(colour: str, a: Square, b: Square) -> bool:
    cx, cy = CORNER[colour]
    da = (abs(a[0] - cx), abs(a[1] - cy))
    db = (abs(b[0] - cx), abs(b[1] - cy))
    return db[0] >= da[0] and db[1] >= da[1] and db != da


def legal_moves(board: Board, colour: str) -> set[tuple[Square, Square]]:
    own, theirs = CAMP[colour], CAMP[OTHER[colour]]
    moves = {
        (a, b)
        for a, b in raw_moves(board, colour)
        if not (a not in own and b in own)  # 1(a)
        and not (a in theirs and b not in theirs)  # never leave the opposing camp
    }
    if any(board[sq] == colour for sq in own):  # 1(b)
        out = {(a, b) for a, b in moves if a in own and b not in own}
        if out:
            return out
        further = {(a, b) for a, b in moves if a in own and b in own and _further(colour, a, b)}
        if further:
            return further
    return moves


def has_won(board: Board, colour: str) -> bool:
    target = CAMP[OTHER[colour]]
    mine = [sq for sq in target if board[sq] == colour]
    return bool(mine) and all(board[sq] for sq in target)


def play(board: Board, a: Square, b: Square) -> Board:
    after = dict(board)
    after[b], after[a] = after[a], ""
    return after


def perft(board: Board, colour: str, depth: int) -> int:
    if depth == 0:
        return 1
    if has_won(board, OTHER[colour]):
        return 0
    return sum(
        perft(play(board, a, b), OTHER[colour], depth - 1) for a, b in legal_moves(board, colour)
    )
