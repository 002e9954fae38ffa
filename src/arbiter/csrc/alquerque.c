/* Alquerque (CodeCup 2008): the kernel of arbiter.games.alquerque.rules and the
 * evaluation of arbiter.games.alquerque.evaluate, bit for bit. Points are
 * 7 * rank + file (0..48).
 *
 * A move's code is its origin (bits 0-5), its number of captures (bits 6-10, 0 for a
 * normal move) and the direction (0..7) of the step or of each jump in turn, three
 * bits each from bit 11: every path is its own code, up to PATH_MAX_JUMPS captures. */
#include "paths.h"

#include <string.h>

#define TIE_PLIES 200

typedef struct {
    uint64_t p[2];
    int32_t to_move, ply, max_plies;
    int8_t back[2][2]; /* each seat's last normal move (from, to), or -1s */
} AState;

static const int DF[8] = {1, -1, 0, 0, 1, 1, -1, -1};
static const int DRK[8] = {0, 0, 1, -1, 1, -1, 1, -1};
static int8_t NEAR[49][8], OVER[49][8], LAND[49][8]; /* -1 where the line is not */
static uint64_t RINGS[49][7]; /* the points at each king's distance 0..6 */
/* the directions by the cell number they lead to, lowest first (-8, -7, -6, -1, +1, +6,
   +7, +8): chains and steps made in this order come out in the order Python sorts
   them (by the cells visited), so they need no sort */
static const int ORDER[8] = {7, 3, 5, 1, 0, 6, 2, 4};
static int DELTA[8];
/* per direction, the points a piece may step from (STEP_FROM) and jump from (JUMP_FROM)
   along it: the evaluation counts moves and hanging pieces with shifts */
static uint64_t STEP_FROM[8], JUMP_FROM[8];

static inline uint64_t shift(uint64_t b, int delta) {
    return delta >= 0 ? b << delta : b >> -delta;
}

void alquerque_init(void) {
    for (int d = 0; d < 8; d++) STEP_FROM[d] = JUMP_FROM[d] = 0;
    for (int c = 0; c < 49; c++) {
        for (int d = 0; d < 7; d++) RINGS[c][d] = 0;
        for (int o = 0; o < 49; o++) {
            int dr = o / 7 - c / 7, df = o % 7 - c % 7;
            int far = imax(dr < 0 ? -dr : dr, df < 0 ? -df : df);
            RINGS[c][far] |= 1ULL << o;
        }
    }
    for (int c = 0; c < 49; c++) {
        int rank = c / 7, file = c % 7;
        int ndirs = (file + rank) % 2 == 0 ? 8 : 4;
        for (int d = 0; d < 8; d++) {
            NEAR[c][d] = OVER[c][d] = LAND[c][d] = -1;
            if (d >= ndirs) continue;
            int f1 = file + DF[d], r1 = rank + DRK[d], f2 = file + 2 * DF[d], r2 = rank + 2 * DRK[d];
            DELTA[d] = DF[d] + 7 * DRK[d];
            if (f1 >= 0 && f1 < 7 && r1 >= 0 && r1 < 7) {
                NEAR[c][d] = (int8_t)(7 * r1 + f1);
                STEP_FROM[d] |= 1ULL << c;
                if (f2 >= 0 && f2 < 7 && r2 >= 0 && r2 < 7) {
                    OVER[c][d] = (int8_t)(7 * r1 + f1);
                    LAND[c][d] = (int8_t)(7 * r2 + f2);
                    JUMP_FROM[d] |= 1ULL << c;
                }
            }
        }
    }
}

#define CODE ((PathCode){6, 5, 3})

static void chains(int *n, int at, uint64_t own, uint64_t enemy, Path *cur) {
    int extended = 0;
    uint64_t empty = ~(own | enemy);
    for (int k = 0; k < 8; k++) {
        int d = ORDER[k], over = OVER[at][d], land = LAND[at][d];
        if (over < 0) continue;
        if (((enemy >> over) & 1) && ((empty >> land) & 1) && cur->jumps < PATH_MAX_JUMPS) {
            extended = 1;
            cur->path[cur->len++] = (int8_t)land;
            cur->dirs[cur->jumps++] = (int8_t)d;
            chains(n, land, own, enemy & ~(1ULL << over), cur);
            cur->len--;
            cur->jumps--;
        }
    }
    if (!extended && cur->jumps) *n = paths_add(*n, cur);
}

/* the capture chains into the scratch: their number, or -1 when memory ran out */
static int captures(const AState *s) {
    int p = s->to_move;
    uint64_t own = s->p[p], enemy = s->p[1 - p];
    int n = 0;
    for (uint64_t b = own; b; b &= b - 1) {
        int c = __builtin_ctzll(b);
        Path cur;
        cur.path[0] = (int8_t)c;
        cur.len = 1;
        cur.jumps = 0;
        chains(&n, c, own & ~(1ULL << c), enemy, &cur);
    }
    return n;
}

/* the directions (a bit each) in which a piece on c may step onto an empty point,
   the no-going-back rule aside */
static unsigned step_dirs(int c, uint64_t empty) {
    unsigned dirs = 0;
    for (int d = 0; d < 8; d++) {
        int t = NEAR[c][d];
        if (t >= 0 && ((empty >> t) & 1)) dirs |= 1u << d;
    }
    return dirs;
}

/* whether the normal move c -> t is the reverse of the mover's last one */
static int goes_back(const AState *s, int c, int t) {
    const int8_t *last = s->back[s->to_move];
    return last[1] >= 0 && c == last[1] && t == last[0];
}

/* the normal moves into the scratch (at most 24 pieces x 8): their number, or -1 */
static int steps(const AState *s) {
    Path *out = paths_room(24 * 8);
    if (!out) return -1;
    uint64_t empty = ~(s->p[0] | s->p[1]);
    int n = 0;
    for (uint64_t b = s->p[s->to_move]; b; b &= b - 1) {
        int c = __builtin_ctzll(b);
        for (int k = 0; k < 8; k++) {
            int d = ORDER[k], t = NEAR[c][d];
            if (t >= 0 && ((empty >> t) & 1) && !goes_back(s, c, t)) path_step(&out[n++], c, t, d);
        }
    }
    return n;
}

static int has_move(const AState *s) {
    int p = s->to_move;
    uint64_t own = s->p[p], enemy = s->p[1 - p], empty = ~(own | enemy);
    for (uint64_t b = own; b; b &= b - 1) {
        int c = __builtin_ctzll(b);
        for (int d = 0; d < 8; d++) {
            int over = OVER[c][d];
            if (over >= 0 && ((enemy >> over) & 1) && ((empty >> LAND[c][d]) & 1)) return 1;
        }
        for (unsigned dirs = step_dirs(c, empty); dirs; dirs &= dirs - 1)
            if (!goes_back(s, c, NEAR[c][__builtin_ctz(dirs)])) return 1;
    }
    return 0;
}

static int over(const AState *s) {
    int end = s->max_plies < TIE_PLIES ? s->max_plies : TIE_PLIES;
    return !s->p[s->to_move] || s->ply >= end;
}

/* the legal moves into the scratch (captures when any), or 0 once the game is over */
static int moves(const AState *s) {
    if (over(s)) return 0;
    int n = captures(s);
    return n ? n : steps(s);
}

static int a_gen(const void *vs, move_t *out, int cap) {
    return paths_code(moves(vs), CODE, out, cap); /* made in order: no sort */
}

static int a_count(const void *vs) { return moves(vs); }

static int a_noisy(const void *vs, move_t *out, int cap) {
    return paths_finish(captures(vs), CODE, out, cap);
}

static void a_apply(const void *vs, move_t m, void *vout) {
    const AState *s = vs;
    AState *o = vout;
    int p = s->to_move;
    int origin = (int)(m & 63), njumps = (int)((m >> 6) & 31);
    int cell = origin;
    uint64_t enemy = s->p[1 - p];
    if (!njumps) {
        cell = NEAR[origin][(m >> 11) & 7];
    } else {
        for (int i = 0; i < njumps; i++) {
            int d = (int)((m >> (11 + 3 * i)) & 7);
            enemy &= ~(1ULL << OVER[cell][d]);
            cell = LAND[cell][d];
        }
    }
    o->p[p] = (s->p[p] & ~(1ULL << origin)) | (1ULL << cell);
    o->p[1 - p] = enemy;
    o->to_move = 1 - p;
    o->ply = s->ply + 1;
    o->max_plies = s->max_plies;
    memcpy(o->back, s->back, sizeof o->back);
    if (njumps) {
        o->back[p][0] = o->back[p][1] = -1;
    } else {
        o->back[p][0] = (int8_t)origin;
        o->back[p][1] = (int8_t)cell;
    }
}

static int a_outcome(const void *vs) {
    const AState *s = vs;
    if (!s->p[s->to_move]) return OUT_LOSS;
    if (s->ply >= TIE_PLIES || s->ply >= s->max_plies) return OUT_DRAW;
    if (!has_move(s)) return OUT_LOSS;
    return OUT_NONE;
}

#define W_PIECE 100
#define W_MOBILITY 3
#define W_HANGING 30
#define W_TIE_POINT 40
#define ENDGAME_PLIES 40
#define W_TRADE 4
#define W_CHASE 12
#define W_RESTRICT 4

#define FEW 12
#define CRAMPED 12

/* what own gains for pressing its lead (0 unless it has more men; never less) */
static int pressure(uint64_t own, uint64_t enemy, int enemy_moves) {
    int n_own = __builtin_popcountll(own), n_enemy = __builtin_popcountll(enemy);
    int lead = n_own - n_enemy;
    if (lead <= 0 || !enemy) return 0;
    int gain = W_TRADE * lead * (48 - n_own - n_enemy);
    if (n_enemy > FEW) return gain;
    int near = 0;
    for (uint64_t b = enemy; b; b &= b - 1) {
        const uint64_t *rings = RINGS[__builtin_ctzll(b)];
        int d = 1;
        while (!(own & rings[d])) d++;
        near += 7 - d;
    }
    return gain + W_CHASE * near / n_enemy + W_RESTRICT * imax(0, CRAMPED - enemy_moves);
}

static void side(uint64_t own, uint64_t enemy, const int8_t *back, int *mobility, int *hanging) {
    uint64_t empty = ~(own | enemy);
    int mob = 0;
    if (back[0] >= 0 && ((own >> back[1]) & 1) && ((empty >> back[0]) & 1)) mob -= 1;
    /* by direction, with shifts: each piece's steps onto empty points, and the pieces an
       enemy piece can jump (over one of own to the empty point behind), once each */
    uint64_t hung = 0;
    for (int d = 0; d < 8; d++) {
        int delta = DELTA[d];
        mob += __builtin_popcountll(shift(own & STEP_FROM[d], delta) & empty);
        hung |= shift(enemy & JUMP_FROM[d], delta) & own & shift(empty, -delta);
    }
    *mobility = mob;
    *hanging = __builtin_popcountll(hung);
}

static int a_draw_value(const void *vs) {
    const AState *s = vs;
    int p = s->to_move;
    int mine = imax(0, 7 - __builtin_popcountll(s->p[1 - p]));
    int theirs = imax(0, 7 - __builtin_popcountll(s->p[p]));
    return W_TIE_POINT * (mine - theirs);
}

static int a_evaluate(const void *vs) {
    const AState *s = vs;
    int p = s->to_move;
    uint64_t own = s->p[p], enemy = s->p[1 - p];
    int m0, h0, m1, h1;
    side(own, enemy, s->back[p], &m0, &h0);
    side(enemy, own, s->back[1 - p], &m1, &h1);
    int score = W_PIECE * (__builtin_popcountll(own) - __builtin_popcountll(enemy));
    score += W_MOBILITY * (m0 - m1);
    score += W_HANGING * h1 - (W_HANGING / 2) * h0;
    score += pressure(own, enemy, m1) - pressure(enemy, own, m0);
    int near = s->ply - (TIE_PLIES - ENDGAME_PLIES);
    if (near <= 0) return score;
    return score + floordiv(a_draw_value(s) * near, ENDGAME_PLIES);
}

static int a_hint(const void *vs, move_t m) {
    (void)vs;
    return 4 * (int)((m >> 6) & 31);
}

static uint64_t a_hash(const void *vs) {
    const AState *s = vs;
    uint64_t extra = (uint64_t)(uint8_t)s->back[0][0] | (uint64_t)(uint8_t)s->back[0][1] << 8 |
                     (uint64_t)(uint8_t)s->back[1][0] << 16 |
                     (uint64_t)(uint8_t)s->back[1][1] << 24 | (uint64_t)s->to_move << 32 |
                     (uint64_t)(uint32_t)s->ply << 33;
    return mix64(s->p[0] ^ mix64(s->p[1] ^ mix64(extra)));
}

/* -- the board's view, for the learning environments ------------------------------ */

static void a_squares(const void *vs, int8_t *out) {
    const AState *s = vs;
    for (int c = 0; c < 49; c++)
        out[c] = (int8_t)(((s->p[0] >> c) & 1) * PIECE_FIRST + ((s->p[1] >> c) & 1) * PIECE_SECOND);
}

/* a move's path from its code, as a_apply walks it */
static int a_path(const void *vs, move_t m, uint8_t *out) {
    (void)vs;
    int cell = (int)(m & 63), njumps = (int)((m >> 6) & 31);
    out[0] = (uint8_t)cell;
    if (!njumps) {
        out[1] = (uint8_t)NEAR[cell][(m >> 11) & 7];
        return 2;
    }
    for (int i = 0; i < njumps; i++) {
        cell = LAND[cell][(m >> (11 + 3 * i)) & 7];
        out[i + 1] = (uint8_t)cell;
    }
    return njumps + 1;
}

static int a_to_move(const void *vs) { return ((const AState *)vs)->to_move; }

const GameVT ALQUERQUE_VT = {
    "alquerque", sizeof(AState), a_gen, a_count, a_apply, a_outcome, a_evaluate,
    a_draw_value, a_hint, a_noisy, a_hash, 49, a_squares, a_path, a_to_move,
};
