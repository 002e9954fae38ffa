/* Halma 16x16 with 19-piece camps: the kernel of arbiter.games.halma.rules and the
 * evaluation of arbiter.games.halma.evaluate, bit for bit. Cells are 16 * y + x; a
 * move's code is 256 * start + end (a hop chain's landings are not part of a move;
 * halma_moves gives them, found as the Python rules find them). */
#include "core.h"

#include <string.h>

#define SIZE 16
#define CELLS 256

typedef struct {
    uint64_t w[4];
} B;

typedef struct {
    B p[2];
    int32_t to_move, ply, max_plies, unused;
} HState;

static inline int has(const B *b, int c) { return (int)((b->w[c >> 6] >> (c & 63)) & 1); }
static inline void set(B *b, int c) { b->w[c >> 6] |= 1ULL << (c & 63); }
static inline void clear(B *b, int c) { b->w[c >> 6] &= ~(1ULL << (c & 63)); }
static inline B band(B a, B b) {
    for (int i = 0; i < 4; i++) a.w[i] &= b.w[i];
    return a;
}
static inline B bor(B a, B b) {
    for (int i = 0; i < 4; i++) a.w[i] |= b.w[i];
    return a;
}
static inline B bandnot(B a, B b) {
    for (int i = 0; i < 4; i++) a.w[i] &= ~b.w[i];
    return a;
}
static inline int empty(B a) { return !(a.w[0] | a.w[1] | a.w[2] | a.w[3]); }
static inline int count(B a) {
    int n = 0;
    for (int i = 0; i < 4; i++) n += __builtin_popcountll(a.w[i]);
    return n;
}
/* the lowest set cell of a non-empty set, removed from it */
static inline int pop_low(B *a) {
    for (int i = 0; i < 4; i++)
        if (a->w[i]) {
            int c = 64 * i + __builtin_ctzll(a->w[i]);
            a->w[i] &= a->w[i] - 1;
            return c;
        }
    return -1;
}

static const int DX[8] = {1, -1, 0, 0, 1, 1, -1, -1}, DY[8] = {0, 0, 1, -1, 1, -1, 1, -1};
static B AROUND[CELLS]; /* the squares next to each, as a set */
static int STEP[8];    /* a direction's move in cell numbers: 16 * DY + DX */
static B HOP_ROOM[8];  /* the squares with a square two away in a direction on the board */

/* a shifted towards higher cells by n (lower, n < 0), 0 < |n| < 64; cells past the
   board's ends are lost, so only masked results (HOP_ROOM) are meaningful across a row */
static inline B shift_by(B a, int n) {
    B r;
    if (n > 0) {
        int m = 64 - n;
        r.w[0] = a.w[0] << n;
        for (int i = 1; i < 4; i++) r.w[i] = (a.w[i] << n) | (a.w[i - 1] >> m);
    } else {
        int k = -n, m = 64 - k;
        r.w[3] = a.w[3] >> k;
        for (int i = 0; i < 3; i++) r.w[i] = (a.w[i] >> k) | (a.w[i + 1] << m);
    }
    return r;
}
static B CAMP[2], FURTHER[2][CELLS];
static int DIST[2][CELLS], COST[2][CELLS];
/* the evaluation's per-square parts: FIXED, a piece's score that does not depend on the
   target's holes (COST, and for a piece beyond NEAR_CORNER its distance past the camp's
   edge); NEAR, the squares outside the target whose part depends on them */
static int FIXED[2][CELLS];
static B NEAR[2];

static const int CAMP_ROWS[5] = {5, 5, 4, 3, 2};

#define W_STEP 10
#define W_STRAGGLER 6
#define W_LANE 2
#define W_CAMP 8
#define CAMP_EDGE 5
#define W_HOLE 5
#define NEAR_CORNER (CAMP_EDGE + 3)

void halma_init(void) {
    memset(CAMP, 0, sizeof CAMP);
    memset(AROUND, 0, sizeof AROUND);
    memset(HOP_ROOM, 0, sizeof HOP_ROOM);
    for (int d = 0; d < 8; d++) STEP[d] = 16 * DY[d] + DX[d];
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < CAMP_ROWS[y]; x++) {
            set(&CAMP[0], 16 * y + x);
            set(&CAMP[1], CELLS - 1 - (16 * y + x));
        }
    for (int c = 0; c < CELLS; c++) {
        int x = c % SIZE, y = c / SIZE;
        for (int d = 0; d < 8; d++) {
            int x1 = x + DX[d], y1 = y + DY[d], x2 = x + 2 * DX[d], y2 = y + 2 * DY[d];
            if (x1 >= 0 && x1 < SIZE && y1 >= 0 && y1 < SIZE) set(&AROUND[c], 16 * y1 + x1);
            if (x2 >= 0 && x2 < SIZE && y2 >= 0 && y2 < SIZE) set(&HOP_ROOM[d], c);
        }
        for (int p = 0; p < 2; p++) {
            B f = {{0, 0, 0, 0}};
            for (int t = 0; t < CELLS; t++) {
                int tx = t % SIZE, ty = t / SIZE;
                int further = p == 0 ? (tx >= x && ty >= y) : (tx <= x && ty <= y);
                if (further && t != c) set(&f, t);
            }
            FURTHER[p][c] = f;
            int d = p == 0 ? 2 * (SIZE - 1) - x - y : x + y;
            DIST[p][c] = has(&CAMP[1 - p], c) ? d : imax(d, CAMP_EDGE + 1);
            COST[p][c] = W_STEP * DIST[p][c] + W_LANE * iabs(x - y);
        }
    }
    for (int p = 0; p < 2; p++) {
        NEAR[p] = (B){{0, 0, 0, 0}};
        for (int c = 0; c < CELLS; c++) {
            FIXED[p][c] = COST[p][c];
            if (has(&CAMP[1 - p], c)) continue;
            if (DIST[p][c] <= NEAR_CORNER)
                set(&NEAR[p], c);
            else
                FIXED[p][c] += W_HOLE * (DIST[p][c] - CAMP_EDGE);
        }
    }
}

static B steps_from(int start, B occupied) { return bandnot(AROUND[start], occupied); }

/* the squares hop chains from start reach (start's square empty), each with its
   landing before it on a shortest chain in prev (breadth first, as hop_paths): the
   chains the rules' own move list shows */
static B hop_chains(int start, B occupied, int16_t *prev) {
    clear(&occupied, start);
    B reached = {{0, 0, 0, 0}};
    int16_t queue[CELLS + 1];
    int head = 0, tail = 0;
    queue[tail++] = (int16_t)start;
    while (head < tail) {
        int at = queue[head++];
        for (int d = 0; d < 8; d++) {
            if (!has(&HOP_ROOM[d], at)) continue;
            int over = at + STEP[d], land = over + STEP[d];
            if (has(&occupied, over) && !has(&occupied, land) && !has(&reached, land)) {
                set(&reached, land);
                prev[land] = (int16_t)at;
                queue[tail++] = (int16_t)land;
            }
        }
    }
    return reached;
}

/* The hops open on the whole board, by direction: open[d] holds the squares from which
   a hop in direction d goes over a piece onto an empty square, every piece on the
   board. Made once a position by shifts, it serves every piece's chains (hops_from),
   which then test one bit a direction where they tested three squares. */
typedef struct {
    B open[8];
    B any; /* the squares with a hop open in some direction */
} HopTable;

static void hop_table(B occupied, HopTable *t) {
    t->any = (B){{0, 0, 0, 0}};
    for (int d = 0; d < 8; d++) {
        t->open[d] = bandnot(band(HOP_ROOM[d], shift_by(occupied, -STEP[d])),
                             shift_by(occupied, -2 * STEP[d]));
        t->any = bor(t->any, t->open[d]);
    }
}

/* the squares hop chains from start reach (start's square empty), from the position's
   table, which counts start's piece as on the board. That changes nothing: a chain
   lands only an even number of squares from start each way, so never next to it to
   hop over it; and a hop back onto start (barred by the table) reaches nothing start's
   own hops did not, nor is start a move's end */
static B hops_from(const HopTable *t, int start) {
    B reached = {{0, 0, 0, 0}};
    int16_t pending[CELLS + 1];
    int n = 0;
    pending[n++] = (int16_t)start;
    while (n) {
        int at = pending[--n], w = at >> 6, bit = at & 63;
        if (!((t->any.w[w] >> bit) & 1)) continue;
        for (int d = 0; d < 8; d++) {
            if (!((t->open[d].w[w] >> bit) & 1)) continue;
            int land = at + 2 * STEP[d];
            if (has(&reached, land)) continue;
            set(&reached, land);
            pending[n++] = (int16_t)land;
        }
    }
    return reached;
}

static B allowed(int p, int start, B ends) {
    if (!has(&CAMP[p], start)) ends = bandnot(ends, CAMP[p]);
    if (has(&CAMP[1 - p], start)) ends = band(ends, CAMP[1 - p]);
    return ends;
}

static B reach(int p, int start, B occupied, const HopTable *hops) {
    B ends = bor(steps_from(start, occupied), hops_from(hops, start));
    clear(&ends, start);
    return allowed(p, start, ends);
}

static int has_crossed(const HState *s, int p) {
    B target = CAMP[1 - p];
    B mine = band(s->p[p], target);
    return !empty(mine) && empty(bandnot(bandnot(target, s->p[1 - p]), mine));
}

static int decided(const HState *s) {
    if (has_crossed(s, 1 - s->to_move)) return OUT_LOSS;
    if (has_crossed(s, s->to_move)) return OUT_WIN;
    if (s->ply >= s->max_plies) return OUT_DRAW;
    return OUT_NONE;
}

/* every piece's ends after all the camp rules (ends[i] for pieces[i]); the number of
   pieces */
static int destinations(const HState *s, int *pieces, B *ends) {
    int p = s->to_move;
    B occupied = bor(s->p[0], s->p[1]);
    HopTable hops;
    hop_table(occupied, &hops);
    int n = 0;
    for (B b = s->p[p]; !empty(b);) {
        int a = pop_low(&b);
        pieces[n] = a;
        ends[n++] = reach(p, a, occupied, &hops);
    }
    /* camp rule 1(b): out of the camp first, then further from the corner within it */
    int any_home = 0, any_out = 0, any_within = 0;
    for (int i = 0; i < n; i++)
        if (has(&CAMP[p], pieces[i])) {
            any_home = 1;
            if (!empty(bandnot(ends[i], CAMP[p]))) any_out = 1;
            if (!empty(band(band(ends[i], CAMP[p]), FURTHER[p][pieces[i]]))) any_within = 1;
        }
    if (any_home && (any_out || any_within))
        for (int i = 0; i < n; i++) {
            if (!has(&CAMP[p], pieces[i]))
                ends[i] = (B){{0, 0, 0, 0}};
            else if (any_out)
                ends[i] = bandnot(ends[i], CAMP[p]);
            else
                ends[i] = band(band(ends[i], CAMP[p]), FURTHER[p][pieces[i]]);
        }
    return n;
}

static int h_gen(const void *vs, move_t *out, int cap) {
    const HState *s = vs;
    if (decided(s) != OUT_NONE) return 0;
    int pieces[CELLS];
    B ends[CELLS];
    int np = destinations(s, pieces, ends), n = 0;
    for (int i = 0; i < np; i++)
        for (B e = ends[i]; !empty(e);) {
            int b = pop_low(&e);
            if (n < cap) out[n] = (move_t)(256 * pieces[i] + b);
            n++;
        }
    return n;
}

static int h_count(const void *vs) {
    const HState *s = vs;
    if (decided(s) != OUT_NONE) return 0;
    int pieces[CELLS];
    B ends[CELLS];
    int np = destinations(s, pieces, ends), n = 0;
    for (int i = 0; i < np; i++) n += count(ends[i]);
    return n;
}

static void h_apply(const void *vs, move_t m, void *vout) {
    const HState *s = vs;
    HState *o = vout;
    *o = *s;
    int p = s->to_move;
    clear(&o->p[p], (int)(m >> 8));
    set(&o->p[p], (int)(m & 255));
    o->to_move = 1 - p;
    o->ply = s->ply + 1;
}

static int h_outcome(const void *vs) {
    const HState *s = vs;
    int d = decided(s);
    if (d != OUT_NONE) return d;
    int p = s->to_move;
    B occupied = bor(s->p[0], s->p[1]);
    /* rule 1(b) only narrows moves that exist: any move by 1(a) will do; steps first */
    for (B b = s->p[p]; !empty(b);) {
        int a = pop_low(&b);
        if (!empty(allowed(p, a, steps_from(a, occupied)))) return OUT_NONE;
    }
    HopTable hops;
    hop_table(occupied, &hops);
    for (B b = s->p[p]; !empty(b);) {
        int a = pop_low(&b);
        if (!empty(reach(p, a, occupied, &hops))) return OUT_NONE;
    }
    return OUT_LOSS;
}

static int side(const HState *s, int p) {
    B holes = bandnot(CAMP[1 - p], bor(s->p[0], s->p[1]));
    int have_holes = !empty(holes);
    int total = 0, rear = 0, away = 0;
    /* every leaf of a search scores both sides: the pieces are read a word at a time,
       each piece's part that the holes leave alone is one lookup (FIXED) */
    for (int w = 0; w < 4; w++)
        for (uint64_t bits = s->p[p].w[w]; bits; bits &= bits - 1) {
            int c = 64 * w + __builtin_ctzll(bits);
            total += FIXED[p][c];
            rear = imax(rear, DIST[p][c]);
        }
    /* the pieces near the target, outside it: the way to its nearest hole */
    for (B near = band(s->p[p], NEAR[p]); !empty(near);) {
        int c = pop_low(&near);
        if (!have_holes) {
            away += DIST[p][c] - CAMP_EDGE;
            continue;
        }
        int x = c % SIZE, y = c / SIZE, best = 1 << 30;
        for (B h = holes; !empty(h);) {
            int k = pop_low(&h);
            int dd = iabs(x - k % SIZE) + iabs(y - k / SIZE);
            if (dd < best) best = dd;
        }
        away += best;
    }
    int camp = count(band(s->p[p], CAMP[p]));
    return -total - W_STRAGGLER * rear - W_CAMP * camp - W_HOLE * away;
}

static int h_evaluate(const void *vs) {
    const HState *s = vs;
    return side(s, s->to_move) - side(s, 1 - s->to_move);
}

static int h_hint(const void *vs, move_t m) {
    const HState *s = vs;
    const int *dist = DIST[s->to_move];
    int a = (int)(m >> 8), b = (int)(m & 255);
    return (dist[a] - dist[b]) * 64 + dist[a];
}

static uint64_t h_hash(const void *vs) {
    const HState *s = vs;
    uint64_t h = mix64((uint64_t)s->to_move);
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < 4; i++) h = mix64(h ^ s->p[p].w[i]);
    return h;
}

/* -- the board's view, for the learning environments ------------------------------ */

static void h_squares(const void *vs, int8_t *out) {
    const HState *s = vs;
    for (int c = 0; c < CELLS; c++)
        out[c] = (int8_t)(has(&s->p[0], c) * PIECE_FIRST + has(&s->p[1], c) * PIECE_SECOND);
}

/* a move is one leg, start to end, however many hops it takes */
static int h_path(const void *vs, move_t m, uint8_t *out) {
    (void)vs;
    out[0] = (uint8_t)(m >> 8);
    out[1] = (uint8_t)(m & 255);
    return 2;
}

static int h_to_move(const void *vs) { return ((const HState *)vs)->to_move; }

const GameVT HALMA_VT = {
    "halma", sizeof(HState), h_gen, h_count, h_apply, h_outcome, h_evaluate,
    NULL, h_hint, NULL, h_hash, CELLS, h_squares, h_path, h_to_move,
};

/* -- the rules' own primitive: the legal moves with their hop chains ---------------- */

static PyObject *py_halma_moves(PyObject *self, PyObject *arg) {
    (void)self;
    HState s;
    if (!state_arg(&HALMA_VT, arg, &s)) return NULL;
    PyObject *list = PyList_New(0);
    if (!list || decided(&s) != OUT_NONE) return list;
    int pieces[CELLS];
    B ends[CELLS];
    int np = destinations(&s, pieces, ends);
    B occupied = bor(s.p[0], s.p[1]);
    for (int i = 0; i < np; i++) {
        if (empty(ends[i])) continue;
        int16_t prev[CELLS];
        B hopped = hop_chains(pieces[i], occupied, prev);
        for (B e = ends[i]; !empty(e);) {
            int b = pop_low(&e);
            int chain[CELLS], k = 0;
            if (has(&hopped, b)) /* a hop chain's landings, back from b to the start */
                for (int at = b;; at = prev[at]) {
                    chain[k++] = at;
                    if (prev[at] == pieces[i]) break;
                }
            PyObject *hops = PyTuple_New(k);
            if (!hops) goto fail;
            for (int j = 0; j < k; j++) PyTuple_SET_ITEM(hops, j, PyLong_FromLong(chain[k - 1 - j]));
            PyObject *item = Py_BuildValue("(iiN)", pieces[i], b, hops);
            if (!item || PyList_Append(list, item) < 0) {
                Py_XDECREF(item);
                goto fail;
            }
            Py_DECREF(item);
        }
    }
    return list;
fail:
    Py_DECREF(list);
    return NULL;
}

PyMethodDef HALMA_METHODS[] = {
    {"halma_moves", py_halma_moves, METH_O,
     "halma_moves(state, /)\n--\n\nThe legal moves of a packed halma state: (start, end, hop landings) each."},
    {NULL, NULL, 0, NULL},
};
