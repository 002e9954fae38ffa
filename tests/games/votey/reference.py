"""A deliberately simple Votey move generator over contest squares, for cross-checking.

It shares no code or tables with the engine: a dict from square (11..88) to
colour, lines walked square by square.
"""

from __future__ import annotations

from arbiter.games.votey.rules import State

DIRS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def squares_of(bitboard: int) -> set[int]:
    """Contest squares of a bitboard (bit 8*(row-1) + (col-1))."""
    return {10 * (i // 8 + 1) + i % 8 + 1 for i in range(64) if bitboard >> i & 1}


def board_of(s: State) -> dict[int, str]:
    board = {sq: "b" for sq in squares_of(s.pieces[0])}
    board.update({sq: "w" for sq in squares_of(s.pieces[1])})
    return board


def inside(row: int, col: int) -> bool:
    return 1 <= row <= 8 and 1 <= col <= 8


def reference_moves(board: dict[int, str], me: str) -> list[str]:
    """All legal moves of colour ``me`` as 'FFTT' strings, sorted."""
    out = []
    for sq, colour in board.items():
        if colour != me:
            continue
        row, col = divmod(sq, 10)
        for dr, dc in DIRS:
            count = 1
            for sign in (1, -1):  # walk the whole line both ways
                r, c = row + sign * dr, col + sign * dc
                while inside(r, c):
                    if 10 * r + c in board:
                        count += 1
                    r, c = r + sign * dr, c + sign * dc
            tr, tc = row + dr * count, col + dc * count
            if not inside(tr, tc):
                continue
            blocked = any(
                board.get(10 * (row + dr * k) + col + dc * k) not in (None, me)
                for k in range(1, count)
            )
            if blocked or board.get(10 * tr + tc) == me:
                continue
            out.append(f"{sq}{10 * tr + tc}")
    return sorted(out)


def reference_connected(board: dict[int, str], colour: str) -> bool:
    """True when the pieces of ``colour`` form one group (flood fill over squares)."""
    mine = {sq for sq, c in board.items() if c == colour}
    if not mine:
        return False
    seen, todo = set(), [next(iter(mine))]
    while todo:
        sq = todo.pop()
        if sq in seen:
            continue
        seen.add(sq)
        row, col = divmod(sq, 10)
        todo.extend(
            10 * (row + dr) + col + dc for dr, dc in DIRS if 10 * (row + dr) + col + dc in mine
        )
    return seen == mine


def reference_perft(board: dict[int, str], me: str, depth: int) -> int:
    """Perft by the reference mover; a position after a connecting move has no moves."""
    moves = reference_moves(board, me)
    if depth == 1:
        return len(moves)
    other = "w" if me == "b" else "b"
    total = 0
    for mv in moves:
        frm, to = int(mv[:2]), int(mv[2:])
        child = dict(board)
        del child[frm]
        child[to] = me
        if reference_connected(child, me) or reference_connected(child, other):
            continue
        total += reference_perft(child, other, depth - 1)
    return total
