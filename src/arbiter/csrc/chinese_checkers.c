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
/* The board's lines, per axis (the directions 0, 2 and 4 and their opposites): each a
   run of holes, at most 13, held as the bits of a 16-bit word by their place along it.
   A hop along a line is then found with a shift and a bit scan, never a walk. */
#define AXES 3
#define LINES 17
#define LINE_MOST 16
static const int AXIS_DIR[AXES] = {0, 2, 4}; /* each axis's forward direction */
static int8_t LINE_OF[CELLS][AXES], PLACE[CELLS][AXES]; /* a hole's line and place */
static int8_t LINE_LEN[AXES][LINES];
typedef struct {
    int8_t line, place, length, unused;
} Spot;
static Spot SPOT[CELLS][AXES]; /* the three together, per hole: one load for a hop */
static uint8_t LINE_CELL[AXES][LINES][LINE_MOST]; /* a line's holes by place */
static u128 AROUND[CELLS];                      /* the holes next to each, as a set */
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
        AROUND[c] = 0;
        for (int d = 0; d < 6; d++) {
            int t = cell_at(X[c] + DX[d], Y[c] + DY[d]);
            if (t >= 0) AROUND[c] |= ONE << t;
        }
    }
    for (int x = 0; x < AXES; x++) {
        int d = AXIS_DIR[x], lines = 0;
        for (c = 0; c < CELLS; c++) {
            if (cell_at(X[c] - DX[d], Y[c] - DY[d]) >= 0) continue; /* not a line's first */
            int n = 0;
            for (int t = c; t >= 0; t = cell_at(X[t] + DX[d], Y[t] + DY[d]), n++) {
                LINE_OF[t][x] = (int8_t)lines;
                PLACE[t][x] = (int8_t)n;
                LINE_CELL[x][lines][n] = (uint8_t)t;
            }
            LINE_LEN[x][lines++] = (int8_t)n;
        }
    }
    for (c = 0; c < CELLS; c++)
        for (int x = 0; x < AXES; x++)
            SPOT[c][x] = (Spot){LINE_OF[c][x], PLACE[c][x], LINE_LEN[x][LINE_OF[c][x]], 0};
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

/* the marbles of a position along each line, as bits by place */
typedef struct {
    uint16_t on[AXES][LINES];
} Lines;

static void lines_of(u128 occupied, Lines *out) {
    memset(out, 0, sizeof *out);
    for (; occupied; occupied &= occupied - 1) {
        int c = low128(occupied);
        for (int x = 0; x < AXES; x++) out->on[x][LINE_OF[c][x]] |= (uint16_t)(1u << PLACE[c][x]);
    }
}

/* the cells a chain of long hops from start reaches, its own hole counted empty: from
   each cell reached, along each line both ways, the nearest marble at distance k (a bit
   scan of the line's word) is hopped when the k holes beyond it are empty and on the
   board */
static u128 hops_from(int start, Lines *lines) {
    uint16_t kept[AXES];
    for (int x = 0; x < AXES; x++) {
        uint16_t *word = &lines->on[x][LINE_OF[start][x]];
        kept[x] = *word;
        *word &= (uint16_t)~(1u << PLACE[start][x]);
    }
    u128 reached = 0;
    uint8_t seen[CELLS];
    memset(seen, 0, sizeof seen);
    int frontier[CELLS + 1], nf = 0;
    frontier[nf++] = start;
    while (nf) {
        const Spot *spot = SPOT[frontier[--nf]];
        for (int x = 0; x < AXES; x++) {
            int line = spot[x].line, place = spot[x].place;
            unsigned on = lines->on[x][line];
            const uint8_t *cells = LINE_CELL[x][line];
            unsigned ahead = on >> (place + 1), behind = on & ((1u << place) - 1);
            if (ahead) {
                int k = __builtin_ctz(ahead) + 1;
                if (place + 2 * k < spot[x].length && !((ahead >> k) & ((1u << k) - 1))) {
                    int land = cells[place + 2 * k];
                    if (!seen[land]) {
                        seen[land] = 1;
                        reached |= ONE << land;
                        frontier[nf++] = land;
                    }
                }
            }
            if (behind) {
                int k = place - (31 - __builtin_clz(behind));
                if (place >= 2 * k && !((on >> (place - 2 * k)) & ((1u << k) - 1))) {
                    int land = cells[place - 2 * k];
                    if (!seen[land]) {
                        seen[land] = 1;
                        reached |= ONE << land;
                        frontier[nf++] = land;
                    }
                }
            }
        }
    }
    for (int x = 0; x < AXES; x++) lines->on[x][LINE_OF[start][x]] = kept[x];
    return reached;
}

/* the empty holes next to start that a move may end in (not the neutral corners) */
static u128 steps_from(int start, u128 occupied) { return AROUND[start] & ~occupied & ~NEUTRAL; }

/* lines: occupied's, as lines_of makes them */
static u128 targets_from(int start, u128 occupied, Lines *lines) {
    return (steps_from(start, occupied) | hops_from(start, lines)) & ~NEUTRAL &
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
    Lines lines;
    lines_of(occupied, &lines);
    int n = 0;
    for (u128 b = s->p[s->to_move]; b; b &= b - 1) {
        int a = low128(b);
        for (u128 t = targets_from(a, occupied, &lines); t; t &= t - 1) {
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
    Lines lines;
    lines_of(occupied, &lines);
    int n = 0;
    for (u128 b = s->p[s->to_move]; b; b &= b - 1)
        n += pop128(targets_from(low128(b), occupied, &lines));
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
    Lines lines;
    lines_of(occupied, &lines);
    for (u128 b = s->p[s->to_move]; b; b &= b - 1)
        if (targets_from(low128(b), occupied, &lines)) return OUT_NONE;
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
            Lines lines;
            lines_of(occupied, &lines);
            int trapped = 0;
            for (u128 b = s->p[1 - p] & target; b; b &= b - 1)
                if (!(targets_from(low128(b), occupied, &lines) & ~target)) trapped++;
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
    memset(out, 0, CELLS);
    for (u128 b = s->p[0]; b; b &= b - 1) out[low128(b)] = PIECE_FIRST;
    for (u128 b = s->p[1]; b; b &= b - 1) out[low128(b)] = PIECE_SECOND;
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
