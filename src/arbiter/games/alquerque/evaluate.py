"""An Alquerque evaluation: material first, then mobility and pieces left hanging,
giving more weight to the CodeCup tie points as the 100-move tie draws near, and
pressure from the side ahead.

:func:`evaluate` scores a position for the side to move, in hundredths of a piece.
Mobility counts only moves the no-going-back rule allows. Over the last
:data:`ENDGAME_PLIES` plies before the tie, what the tie would pay (7 minus the
opponent's pieces each) weighs in more and more on top of material, which stays:
pieces are the way to both a win and tie points. Wins and losses are the search's
business.

A side ahead on men is also paid for turning the lead into a win before the tie
(:func:`pressure`): for trading down (each man off the board is worth more to the side
ahead), and in the endgame for each enemy man it stands near (captures come from
contact) and each move the enemy lacks (a side with no move loses). The side behind is scored the
same way from the other side, so it runs, keeps its men apart and keeps its moves.
"""

from __future__ import annotations

from arbiter.games.alquerque.rules import (
    JUMPS,
    SIZE,
    STEPS,
    TIE_PLIES,
    Move,
    State,
    captures_of,
)

W_PIECE = 100
W_MOBILITY = 3
W_HANGING = 30
W_TIE_POINT = 40
"""What one CodeCup tie point is worth, in hundredths of a piece."""
ENDGAME_PLIES = 40
"""Over the last 40 plies before the tie, the tie's points weigh in."""
W_TRADE = 4
"""Per man of lead, per man off the board."""
W_CHASE = 12
"""Per point the enemy's men are nearer, on average, than 7 to the nearest man of the
side ahead."""
W_RESTRICT = 4
"""Per move the side behind has fewer than :data:`CRAMPED`, on top of mobility."""
FEW = 12
"""The enemy men at most, for nearness and moves to count."""
CRAMPED = 12
AHEAD = W_PIECE
"""A side this far ahead in the evaluation avoids repeating positions (the search
agent's rule): a repetition only brings the tie nearer."""


def _rings() -> list[list[int]]:
    """Per cell, the cells at each king's distance 0..6 from it, as bits."""
    out = []
    for c in range(SIZE * SIZE):
        rank, file = divmod(c, SIZE)
        rings = [0] * SIZE
        for d in range(SIZE * SIZE):
            r, f = divmod(d, SIZE)
            rings[max(abs(r - rank), abs(f - file))] |= 1 << d
        out.append(rings)
    return out


RINGS = _rings()


def pressure(own: int, enemy: int, enemy_moves: int) -> int:
    """What ``own`` gains for pressing its lead (0 unless it has more men; never less):
    trading down, and once the enemy has :data:`FEW` men or fewer, standing near each
    of them and leaving them few moves. (Paid over the whole board, nearness and
    moves would swamp a middlegame's material.)"""
    lead = own.bit_count() - enemy.bit_count()
    if lead <= 0 or not enemy:
        return 0
    gain = W_TRADE * lead * (2 * 24 - own.bit_count() - enemy.bit_count())
    if enemy.bit_count() > FEW:
        return gain
    near = 0
    e = enemy
    while e:
        low = e & -e
        rings = RINGS[low.bit_length() - 1]
        e ^= low
        near += SIZE - next(d for d in range(1, SIZE) if own & rings[d])
    # on average over the enemy's men: a man more to chase is no gain
    return gain + W_CHASE * near // enemy.bit_count() + W_RESTRICT * max(0, CRAMPED - enemy_moves)


def _side(own: int, enemy: int, back: tuple[int, int] | None) -> tuple[int, int]:
    """(``own``'s normal moves, not reversing ``back``; ``own``'s pieces ``enemy`` can
    jump now)."""
    empty = ~(own | enemy)
    mobility = hanging = 0
    if back is not None and (own >> back[1]) & 1 and (empty >> back[0]) & 1:
        mobility -= 1  # the step back is not allowed
    c = own
    while c:
        low = c & -c
        cell = low.bit_length() - 1
        c ^= low
        mobility += sum(1 for n in STEPS[cell] if (empty >> n) & 1)
    e = enemy
    seen = 0
    while e:
        low = e & -e
        cell = low.bit_length() - 1
        e ^= low
        for over, land in JUMPS[cell]:
            if (own >> over) & 1 and (empty >> land) & 1 and not (seen >> over) & 1:
                seen |= 1 << over
                hanging += 1
    return mobility, hanging


def evaluate(s: State) -> int:
    """Returns the score of ``s`` for the side to move (positive = better for it)."""
    p = s.to_move
    own, enemy = s.pieces[p], s.pieces[1 - p]
    mine, theirs = _side(own, enemy, s.back[p]), _side(enemy, own, s.back[1 - p])
    score = W_PIECE * (own.bit_count() - enemy.bit_count())
    score += W_MOBILITY * (mine[0] - theirs[0])
    # the side to move takes first: its own hanging pieces count less than the enemy's
    score += W_HANGING * theirs[1] - (W_HANGING // 2) * mine[1]
    score += pressure(own, enemy, theirs[0]) - pressure(enemy, own, mine[0])
    near = s.ply - (TIE_PLIES - ENDGAME_PLIES)
    if near <= 0:
        return score
    return score + draw_value(s) * near // ENDGAME_PLIES


def order_hint(s: State, m: Move) -> int:
    """Longer captures first."""
    return 4 * len(m.captures)


def noisy_moves(s: State) -> list[Move]:
    """The captures of the side to move, sorted (compulsory, so forced)."""
    moves = captures_of(s)
    moves.sort()
    return moves


def draw_value(s: State) -> int:
    """The 100-move tie scored as CodeCup scores it: 7 minus the opponent's pieces for
    each side; the side to move's share less the other's."""
    p = s.to_move
    mine = max(0, 7 - s.pieces[1 - p].bit_count())
    theirs = max(0, 7 - s.pieces[p].bit_count())
    return W_TIE_POINT * (mine - theirs)


def moves_to_go(s: State) -> int:
    """The moves the side to move has left before the 100-move tie, at most 25 (most
    games end sooner, and the early moves deserve the time: planning on 40 lost
    material in the middlegame for no gain in the endgame)."""
    return max(1, min(25, (TIE_PLIES - s.ply + 1) // 2))


def placement(s: State) -> tuple[int, int, int, object]:
    """The position without its ply count: what repeats when the same position comes
    back (:data:`AHEAD`)."""
    return (s.pieces[0], s.pieces[1], s.to_move, s.back)
