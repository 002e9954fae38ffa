/* Two-player Chinese checkers on the 121-hole star: the kernel of
 * arbiter.games.chinese_checkers.rules and the evaluation of
 * arbiter.games.chinese_checkers.evaluate, bit for bit. Cells are hole - 1 in the
 * first player's numbering; a move's code is 128 * start + end. */
#include "core.h"

#include <string.h>

typedef unsigned __int128 u128;

#define CELLS 121
#define ONE ((u128)1)

typedef struct {
    u128 p[2];
    int32_t to_move, ply, max_plies, unused;
} XState;

static const int ROW_LENGTHS[17] = {1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1};
static const int DX[6] = {2, -2, 1, -1, 1, -1}, DY[6] = {0, 0, 1, 1, -1, -1};
static int X[CELLS], Y[CELLS];
static int NLINES[CELLS];
static int RAY[CELLS][6][17]; /* the lines with at least one hole */
static u128 CLEAR[CELLS][6][9];                  /* per line and distance k: holes k+1..2k */
static u128 LINE[CELLS][6];                      /* per line: all its holes */
static int8_t RISING[CELLS][6];                  /* its holes' numbers grow along it */
static u128 AROUND[CELLS]; /* the holes next to each, as a set */
static int8_t STEPS[CELLS][CELLS]; /* the holes from one to another along their line */
static int8_t LANDING[CELLS][6][17]; /* per line and distance k: the hole 2k along, or -1 */
static u128 HOME[2], NEUTRAL, FULLB;
static int DIST[2][CELLS];
/* DIST_BIT[p][j]: the holes whose DIST[p] has bit j set (a set's total distance is five
   counts); AT_DIST[p][d]: the holes at distance d */
#define FARTHEST 16
static u128 DIST_BIT[2][5], AT_DIST[2][FARTHEST + 1];

static int cell_at(int x, int y) {
    for (int c = 0; c < CELLS; c++)
        if (X[c] == x && Y[c] == y) return c;
    return -1;
}

void chinese_checkers_init(void) {
    int c = 0;
    for (int row = 0; row < 17; row++)
        for (int i = 0; i < ROW_LENGTHS[row]; i++, c++) {
            X[c] = 2 * i - (ROW_LENGTHS[row] - 1);
            Y[c] = row;
        }
    for (c = 0; c < CELLS; c++) {
        NLINES[c] = 0;
        AROUND[c] = 0;
        for (int d = 0; d < 6; d++) {
            int n = 0, x = X[c], y = Y[c];
            for (;;) {
                x += DX[d];
                y += DY[d];
                int t = cell_at(x, y);
                if (t < 0) break;
                RAY[c][NLINES[c]][n++] = t;
            }
            if (!n) continue;
            int l = NLINES[c]++;
            /* holes are numbered row by row, left to right */
            RISING[c][l] = (int8_t)(DY[d] > 0 || (DY[d] == 0 && DX[d] > 0));
            LINE[c][l] = 0;
            for (int i = 0; i < n; i++) LINE[c][l] |= ONE << RAY[c][l][i];
            AROUND[c] |= ONE << RAY[c][l][0];
            for (int i = 0; i < n; i++) STEPS[c][RAY[c][l][i]] = (int8_t)(i + 1);
            for (int k = 0; k < 17; k++)
                LANDING[c][l][k] = (int8_t)(k >= 1 && 2 * k <= n ? RAY[c][l][2 * k - 1] : -1);
            for (int k = 1; k <= n / 2; k++) {
                u128 m = 0;
                for (int i = k; i < 2 * k; i++) m |= ONE << RAY[c][l][i];
                CLEAR[c][l][k] = m;
            }
        }
    }
    HOME[0] = HOME[1] = NEUTRAL = 0;
    for (c = 0; c < 10; c++) {
        HOME[0] |= ONE << c;
        HOME[1] |= ONE << (CELLS - 10 + c);
    }
    static const int neutral[40] = {11, 12, 13, 14, 24, 25, 26, 36, 37, 47,  20, 21, 22, 23,
                                    33, 34, 35, 45, 46, 56, 66, 76, 77, 87,  88, 89, 99, 100,
                                    101, 102, 75, 85, 86, 96, 97, 98, 108, 109, 110, 111};
    for (int i = 0; i < 40; i++) NEUTRAL |= ONE << (neutral[i] - 1);
    FULLB = (ONE << CELLS) - 1;
    int tips[2] = {CELLS - 1, 0};
    for (int p = 0; p < 2; p++)
        for (c = 0; c < CELLS; c++) {
            int dx = iabs(X[c] - X[tips[p]]), dy = iabs(Y[c] - Y[tips[p]]);
            DIST[p][c] = dy + imax(0, floordiv(dx - dy, 2));
        }
    memset(DIST_BIT, 0, sizeof DIST_BIT);
    memset(AT_DIST, 0, sizeof AT_DIST);
    for (int p = 0; p < 2; p++)
        for (c = 0; c < CELLS; c++) {
            for (int j = 0; j < 5; j++)
                if ((DIST[p][c] >> j) & 1) DIST_BIT[p][j] |= ONE << c;
            AT_DIST[p][DIST[p][c]] |= ONE << c;
        }
}

static inline int pop128(u128 b) {
    return __builtin_popcountll((uint64_t)b) + __builtin_popcountll((uint64_t)(b >> 64));
}

static inline int low128(u128 b) {
    uint64_t lo = (uint64_t)b;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(b >> 64));
}

static inline int high128(u128 b) {
    uint64_t hi = (uint64_t)(b >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)b);
}

/* the cells a chain of long hops from start reaches (start's own hole empty): from
   each cell reached, along each line, the first marble (the nearest set bit of the
   line's holes, found at once) at distance k is hopped when the k holes beyond it
   are empty */
static u128 hops_from(int start, u128 occupied) {
    occupied &= ~(ONE << start);
    u128 reached = 0;
    int frontier[CELLS + 1], nf = 0;
    frontier[nf++] = start;
    while (nf) {
        int at = frontier[--nf];
        for (int l = 0; l < NLINES[at]; l++) {
            u128 on = occupied & LINE[at][l];
            if (!on) continue;
            int k = STEPS[at][RISING[at][l] ? low128(on) : high128(on)];
            int land = LANDING[at][l][k];
            if (land < 0) continue;
            if (!(occupied & CLEAR[at][l][k]) && !((reached >> land) & 1)) {
                reached |= ONE << land;
                frontier[nf++] = land;
            }
        }
    }
    return reached;
}

/* the empty holes next to start that a move may end in (not the neutral corners) */
static u128 steps_from(int start, u128 occupied) { return AROUND[start] & ~occupied & ~NEUTRAL; }

static u128 targets_from(int start, u128 occupied) {
    return (steps_from(start, occupied) | hops_from(start, occupied)) & ~NEUTRAL &
           ~(ONE << start);
}

/* the crossing rules and the ply cap, before the no-move test: OUT_* or OUT_NONE */
static int decided(const XState *s) {
    int first = s->p[0] == HOME[1], second = s->p[1] == HOME[0];
    if (s->to_move == 0) {
        if (first && second) return OUT_DRAW;
        if (first) return OUT_WIN;   /* seat 0, to move, has won */
        if (second) return OUT_LOSS; /* seat 1 has */
    } else if (second) {
        return OUT_WIN; /* seat 1, to move */
    }
    if (s->ply >= s->max_plies) return OUT_DRAW;
    return OUT_NONE;
}

static int x_gen(const void *vs, move_t *out, int cap) {
    const XState *s = vs;
    if (decided(s) != OUT_NONE) return 0;
    u128 occupied = s->p[0] | s->p[1];
    int n = 0;
    for (u128 b = s->p[s->to_move]; b; b &= b - 1) {
        int a = low128(b);
        for (u128 t = targets_from(a, occupied); t; t &= t - 1) {
            if (n < cap) out[n] = (move_t)(128 * a + low128(t));
            n++;
        }
    }
    return n;
}

static int x_count(const void *vs) {
    const XState *s = vs;
    if (decided(s) != OUT_NONE) return 0;
    u128 occupied = s->p[0] | s->p[1];
    int n = 0;
    for (u128 b = s->p[s->to_move]; b; b &= b - 1) n += pop128(targets_from(low128(b), occupied));
    return n;
}

static void x_apply(const void *vs, move_t m, void *vout) {
    const XState *s = vs;
    XState *o = vout;
    int p = s->to_move;
    int a = (int)(m >> 7), b = (int)(m & 127);
    *o = *s;
    o->p[p] = (s->p[p] & ~(ONE << a)) | (ONE << b);
    o->to_move = 1 - p;
    o->ply = s->ply + 1;
}

static int x_outcome(const void *vs) {
    const XState *s = vs;
    int d = decided(s);
    if (d != OUT_NONE) return d;
    u128 occupied = s->p[0] | s->p[1];
    /* any move will do: a step is found without a hop search, so steps first */
    for (u128 b = s->p[s->to_move]; b; b &= b - 1)
        if (steps_from(low128(b), occupied)) return OUT_NONE;
    for (u128 b = s->p[s->to_move]; b; b &= b - 1)
        if (targets_from(low128(b), occupied)) return OUT_NONE;
    return OUT_LOSS;
}

#define W_STEP 10
#define W_STRAGGLER 4
#define W_HOME 30
#define HOME_FROM_PLY 40
#define W_TRAPPED 60
#define TRAP_FROM 6

static int side(const XState *s, int p) {
    int total = 0, rear = FARTHEST;
    for (int j = 0; j < 5; j++) total += pop128(s->p[p] & DIST_BIT[p][j]) << j;
    while (rear > 0 && !(s->p[p] & AT_DIST[p][rear])) rear--;
    int score = -W_STEP * total - W_STRAGGLER * rear;
    if (s->ply >= HOME_FROM_PLY) {
        score -= W_HOME * pop128(s->p[p] & HOME[p]);
        u128 target = HOME[1 - p];
        if (pop128(s->p[p] & target) >= TRAP_FROM) {
            u128 occupied = s->p[0] | s->p[1];
            int trapped = 0;
            for (u128 b = s->p[1 - p] & target; b; b &= b - 1)
                if (!(targets_from(low128(b), occupied) & ~target)) trapped++;
            score -= W_TRAPPED * trapped;
        }
    }
    return score;
}

static int x_evaluate(const void *vs) {
    const XState *s = vs;
    return side(s, s->to_move) - side(s, 1 - s->to_move);
}

static int x_hint(const void *vs, move_t m) {
    const XState *s = vs;
    return DIST[s->to_move][m >> 7] - DIST[s->to_move][m & 127];
}

static uint64_t x_hash(const void *vs) {
    const XState *s = vs;
    uint64_t h = mix64((uint64_t)s->to_move);
    h = mix64(h ^ (uint64_t)s->p[0]);
    h = mix64(h ^ (uint64_t)(s->p[0] >> 64));
    h = mix64(h ^ (uint64_t)s->p[1]);
    return mix64(h ^ (uint64_t)(s->p[1] >> 64));
}

/* -- the board's view, for the learning environments ------------------------------ */

static void x_squares(const void *vs, int8_t *out) {
    const XState *s = vs;
    for (int c = 0; c < CELLS; c++)
        out[c] = (int8_t)((int)((s->p[0] >> c) & 1) * PIECE_FIRST +
                          (int)((s->p[1] >> c) & 1) * PIECE_SECOND);
}

/* a move is one leg, start to end, however many hops it takes */
static int x_path(const void *vs, move_t m, uint8_t *out) {
    (void)vs;
    out[0] = (uint8_t)(m >> 7);
    out[1] = (uint8_t)(m & 127);
    return 2;
}

static int x_to_move(const void *vs) { return ((const XState *)vs)->to_move; }

const GameVT CHINESE_CHECKERS_VT = {
    "chinese-checkers", sizeof(XState), x_gen, x_count, x_apply, x_outcome, x_evaluate,
    NULL, x_hint, NULL, x_hash, CELLS, x_squares, x_path, x_to_move,
};
