/* Votey Checkers (Lines of Action): the kernel of arbiter.games.votey.rules and the
 * evaluation of arbiter.games.votey.evaluate, bit for bit. Cells are 8 * row + column
 * (0..63), a move's code is 64 * origin + target. */
#include "core.h"

#include <string.h>

typedef struct {
    uint64_t p[2];
    int32_t to_move, ply, winner, max_plies; /* winner: -1 for none */
} VState;

#define COL1 0x0101010101010101ULL
#define COL8 0x8080808080808080ULL

static uint64_t LINES[64][4];
static int8_t TARGET[64][8][9];
static uint64_t BETWEEN[64][8][9];
static const int LINE_OF[8] = {0, 1, 2, 3, 3, 2, 1, 0};
static const int DR[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
static const int DC[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
static uint64_t RING[4];
/* ROW_BIT[j] (COL_BIT[j]): the cells whose row (column) has bit j set, so a set's sum
   of rows is three counts; AROUND[cell][d]: the cells d king's steps from cell */
static uint64_t ROW_BIT[3], COL_BIT[3], AROUND[64][8];
/* the 46 lines (15 diagonals, 8 columns, 15 anti-diagonals, 8 rows) and each cell's
   four: a position's pieces per line are counted once for both sides' moves */
#define VOTEY_LINES 46
static const int KIND_FIRST[5] = {0, 15, 23, 38, VOTEY_LINES}; /* each kind's first line */
static uint64_t LINE_MASK[VOTEY_LINES];
static uint8_t LINE_ID[64][4];
/* FROM_OK[d][k]: the cells from which k steps in direction d stay on the board */
static uint64_t FROM_OK[8][9];
static int DELTA[8];
static const int RING_BONUS[4] = {16, 10, 4, -6};
static int MIN_SPREAD[13];

void votey_init(void) {
    for (int cell = 0; cell < 64; cell++) {
        int r = cell >> 3, c = cell & 7;
        uint64_t diag = 0, col = 0, anti = 0, row = 0;
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 8; j++) {
                uint64_t bit = 1ULL << (8 * i + j);
                if (i - j == r - c) diag |= bit;
                if (j == c) col |= bit;
                if (i + j == r + c) anti |= bit;
                if (i == r) row |= bit;
            }
        LINES[cell][0] = diag;
        LINES[cell][1] = col;
        LINES[cell][2] = anti;
        LINES[cell][3] = row;
        LINE_ID[cell][0] = (uint8_t)(KIND_FIRST[0] + r - c + 7);
        LINE_ID[cell][1] = (uint8_t)(KIND_FIRST[1] + c);
        LINE_ID[cell][2] = (uint8_t)(KIND_FIRST[2] + r + c);
        LINE_ID[cell][3] = (uint8_t)(KIND_FIRST[3] + r);
        for (int l = 0; l < 4; l++) LINE_MASK[LINE_ID[cell][l]] = LINES[cell][l];
        for (int d = 0; d < 8; d++) {
            TARGET[cell][d][0] = -1;
            BETWEEN[cell][d][0] = 0;
            for (int n = 1; n <= 8; n++) {
                int tr = r + DR[d] * n, tc = c + DC[d] * n;
                TARGET[cell][d][n] = -1;
                BETWEEN[cell][d][n] = 0;
                if (tr >= 0 && tr < 8 && tc >= 0 && tc < 8) {
                    TARGET[cell][d][n] = (int8_t)(8 * tr + tc);
                    uint64_t b = 0;
                    for (int k = 1; k < n; k++) b |= 1ULL << (8 * (r + DR[d] * k) + c + DC[d] * k);
                    BETWEEN[cell][d][n] = b;
                }
            }
        }
    }
    for (int d = 0; d < 8; d++) {
        DELTA[d] = 8 * DR[d] + DC[d];
        for (int k = 0; k <= 8; k++) {
            FROM_OK[d][k] = 0;
            for (int cell = 0; cell < 64; cell++)
                if (TARGET[cell][d][k] >= 0) FROM_OK[d][k] |= 1ULL << cell;
        }
    }
    for (int j = 0; j < 3; j++) {
        ROW_BIT[j] = COL_BIT[j] = 0;
        for (int i = 0; i < 8; i++)
            if ((i >> j) & 1) {
                ROW_BIT[j] |= 0xFFULL << (8 * i);
                COL_BIT[j] |= COL1 << i;
            }
    }
    for (int cell = 0; cell < 64; cell++) {
        for (int d = 0; d < 8; d++) AROUND[cell][d] = 0;
        for (int other = 0; other < 64; other++) {
            int d = imax(iabs((cell >> 3) - (other >> 3)), iabs((cell & 7) - (other & 7)));
            AROUND[cell][d] |= 1ULL << other;
        }
    }
    for (int k = 0; k < 4; k++) RING[k] = 0;
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++) {
            int k = imax(iabs(2 * r - 7), iabs(2 * c - 7)) / 2;
            RING[k] |= 1ULL << (8 * r + c);
        }
    for (int n = 0; n < 13; n++) {
        int total = 0, ring = 1, left = n - 1;
        while (left > 0) {
            int take = imin(left, 8 * ring);
            total += take * ring;
            left -= take;
            ring++;
        }
        MIN_SPREAD[n] = total;
    }
}

static inline int popcount(uint64_t b) { return __builtin_popcountll(b); }

static inline uint64_t spread(uint64_t b) {
    uint64_t h = b | ((b >> 1) & ~COL8) | ((b << 1) & ~COL1);
    return h | (h << 8) | (h >> 8);
}

static int connected(uint64_t b) {
    if (!b) return 0;
    uint64_t group = b & (~b + 1);
    for (;;) {
        uint64_t grown = spread(group) & b;
        if (grown == group) return group == b;
        group = grown;
    }
}

static int groups(uint64_t b) {
    int n = 0;
    while (b) {
        uint64_t group = b & (~b + 1);
        for (;;) {
            uint64_t grown = spread(group) & b;
            if (grown == group) break;
            group = grown;
        }
        b &= ~group;
        n++;
    }
    return n;
}

/* codes 64 * origin + target, ascending (the Python engine's sorted order) */
static int moves_from(uint64_t own, uint64_t enemy, move_t *out) {
    uint64_t occupied = own | enemy;
    int n = 0;
    for (uint64_t b = own; b; b &= b - 1) {
        int cell = __builtin_ctzll(b);
        int counts[4];
        for (int l = 0; l < 4; l++) counts[l] = popcount(occupied & LINES[cell][l]);
        int first = n;
        for (int d = 0; d < 8; d++) {
            int k = counts[LINE_OF[d]];
            int t = TARGET[cell][d][k];
            if (t >= 0 && !((own >> t) & 1) && !(BETWEEN[cell][d][k] & enemy)) {
                /* insert in target order among this origin's moves */
                move_t code = ((move_t)cell << 6) | (move_t)t;
                int i = n++;
                while (i > first && out[i - 1] > code) {
                    out[i] = out[i - 1];
                    i--;
                }
                out[i] = code;
            }
        }
    }
    return n;
}

/* the cells of the lines holding k pieces, per line kind (LINES' order) and k: a
   piece on such a line moves exactly k steps along it */
typedef struct {
    uint64_t on[4][9];
    int top[4]; /* the most pieces on a line of the kind */
} LineSets;

static void line_sets(uint64_t occupied, LineSets *sets) {
    for (int kind = 0; kind < 4; kind++) {
        int first = KIND_FIRST[kind], last = KIND_FIRST[kind + 1], count[15], top = 0;
        for (int i = first; i < last; i++) {
            count[i - first] = popcount(occupied & LINE_MASK[i]);
            top = imax(top, count[i - first]);
        }
        uint64_t *on = sets->on[kind];
        for (int k = 0; k <= top; k++) on[k] = 0;
        for (int i = first; i < last; i++) on[count[i - first]] |= LINE_MASK[i];
        sets->top[kind] = top;
    }
}

/* own's moves and captures against enemy: per direction and distance k, all pieces
   that move k steps that way at once (the pieces on lines of k, from cells where k
   steps stay on the board, none of the k - 1 cells on the way an enemy), counted
   without looking at pieces one by one */
static void count_on(const LineSets *sets, uint64_t own, uint64_t enemy, int *moves,
                     int *captures) {
    int m = 0, c = 0;
    /* directions 0-3 lower the cell number, 4-7 raise it: a shift each way */
    for (int d = 0; d < 4; d++) {
        const uint64_t *on = sets->on[LINE_OF[d]];
        int step = -DELTA[d], top = imin(sets->top[LINE_OF[d]], 7);
        uint64_t blocked = 0; /* pieces with an enemy fewer than k steps away */
        for (int k = 1; k <= top; k++) {
            uint64_t to = ((own & on[k] & FROM_OK[d][k] & ~blocked) >> (k * step)) & ~own;
            m += popcount(to);
            c += popcount(to & enemy);
            blocked |= enemy << (k * step);
        }
    }
    for (int d = 4; d < 8; d++) {
        const uint64_t *on = sets->on[LINE_OF[d]];
        int step = DELTA[d], top = imin(sets->top[LINE_OF[d]], 7);
        uint64_t blocked = 0;
        for (int k = 1; k <= top; k++) {
            uint64_t to = ((own & on[k] & FROM_OK[d][k] & ~blocked) << (k * step)) & ~own;
            m += popcount(to);
            c += popcount(to & enemy);
            blocked |= enemy >> (k * step);
        }
    }
    *moves = m;
    *captures = c;
}

static void count_moves(uint64_t own, uint64_t enemy, int *moves, int *captures) {
    LineSets sets;
    line_sets(own | enemy, &sets);
    count_on(&sets, own, enemy, moves, captures);
}

static int has_move(uint64_t own, uint64_t enemy) {
    uint64_t occupied = own | enemy;
    for (uint64_t b = own; b; b &= b - 1) {
        int cell = __builtin_ctzll(b);
        for (int d = 0; d < 8; d++) {
            int k = popcount(occupied & LINES[cell][LINE_OF[d]]);
            int t = TARGET[cell][d][k];
            if (t >= 0 && !((own >> t) & 1) && !(BETWEEN[cell][d][k] & enemy)) return 1;
        }
    }
    return 0;
}

/* -- the GameVT ------------------------------------------------------------------ */

static int v_over(const VState *s) { return s->winner >= 0 || s->ply >= s->max_plies; }

#define VOTEY_MOST 96 /* 12 pieces, 8 directions */

static int v_gen(const void *vs, move_t *out, int cap) {
    const VState *s = vs;
    if (v_over(s)) return 0;
    move_t all[VOTEY_MOST];
    int n = moves_from(s->p[s->to_move], s->p[1 - s->to_move], all);
    memcpy(out, all, (size_t)imin(n, cap) * sizeof(move_t));
    return n;
}

static int v_count(const void *vs) {
    const VState *s = vs;
    if (v_over(s)) return 0;
    int m, c;
    count_moves(s->p[s->to_move], s->p[1 - s->to_move], &m, &c);
    return m;
}

static void v_apply(const void *vs, move_t m, void *vout) {
    const VState *s = vs;
    VState *o = vout;
    int p = s->to_move, q = 1 - p;
    int origin = (int)(m >> 6), target = (int)(m & 63);
    uint64_t own = s->p[p] ^ (1ULL << origin) ^ (1ULL << target);
    uint64_t enemy = s->p[q] & ~(1ULL << target);
    o->p[p] = own;
    o->p[q] = enemy;
    o->to_move = q;
    o->ply = s->ply + 1;
    o->max_plies = s->max_plies;
    o->winner = -1;
    if (connected(own))
        o->winner = p;
    else if (enemy != s->p[q] && connected(enemy))
        o->winner = q;
}

static int v_outcome(const void *vs) {
    const VState *s = vs;
    if (s->winner >= 0) return s->winner == s->to_move ? OUT_WIN : OUT_LOSS;
    if (s->ply >= s->max_plies) return OUT_DRAW;
    if (!has_move(s->p[s->to_move], s->p[1 - s->to_move])) return OUT_LOSS;
    return OUT_NONE;
}

#define W_CONCENTRATION 24
#define W_CENTRAL 1
#define W_COM 6
#define W_QUAD 14
#define W_PAIRS 4
#define W_GROUPS 22
#define W_MOBILITY 3
#define W_CAPTURE 2

static int shape(uint64_t own) {
    int n = popcount(own);
    if (n <= 1) return 0;
    int row_sum = 0, col_sum = 0;
    for (int j = 0; j < 3; j++) {
        row_sum += popcount(own & ROW_BIT[j]) << j;
        col_sum += popcount(own & COL_BIT[j]) << j;
    }
    int cr = (2 * row_sum + n) / (2 * n), cc = (2 * col_sum + n) / (2 * n);
    int spread_sum = 0; /* the pieces' king's distances from (cr, cc) */
    for (int d = 1; d < 8; d++) spread_sum += d * popcount(own & AROUND[8 * cr + cc][d]);
    int excess = spread_sum - MIN_SPREAD[n];
    int concentration = floordiv(-W_CONCENTRATION * excess, n - 1);
    int central = 0;
    for (int k = 0; k < 4; k++) central += RING_BONUS[k] * popcount(own & RING[k]);
    int com = -W_COM * (imax(iabs(2 * cr - 7), iabs(2 * cc - 7)) / 2);
    uint64_t right = (own >> 1) & ~COL8, down = own >> 8, down_right = (own >> 9) & ~COL8;
    uint64_t quads = ((own & right & down) | (own & right & down_right) |
                      (own & down & down_right) | (right & down & down_right)) &
                     ~COL8 & (~0ULL >> 8);
    int pairs = popcount(own & right) + popcount(own & down) + popcount(own & down_right) +
                popcount(own & (own << 7) & ~COL8);
    return concentration + W_CENTRAL * central + com + W_QUAD * popcount(quads) +
           W_PAIRS * pairs - W_GROUPS * (groups(own) - 1);
}

static int mobility(const LineSets *sets, uint64_t own, uint64_t enemy) {
    int m, c;
    count_on(sets, own, enemy, &m, &c);
    return W_MOBILITY * m + W_CAPTURE * c;
}

static int v_evaluate(const void *vs) {
    const VState *s = vs;
    uint64_t own = s->p[s->to_move], enemy = s->p[1 - s->to_move];
    LineSets sets;
    line_sets(own | enemy, &sets);
    return shape(own) - shape(enemy) + mobility(&sets, own, enemy) -
           mobility(&sets, enemy, own) + 8;
}

static int v_hint(const void *vs, move_t m) {
    const VState *s = vs;
    int origin = (int)(m >> 6), target = (int)(m & 63);
    int hint = ((s->p[1 - s->to_move] >> target) & 1) ? 100 : 0;
    int rt = target >> 3, ct = target & 7, ro = origin >> 3, co = origin & 7;
    return hint + imax(iabs(2 * ro - 7), iabs(2 * co - 7)) - imax(iabs(2 * rt - 7), iabs(2 * ct - 7));
}

static uint64_t v_hash(const void *vs) {
    const VState *s = vs;
    return mix64(s->p[0] ^ mix64(s->p[1] ^ mix64((uint64_t)s->to_move)));
}

/* -- the board's view, for the learning environments ------------------------------ */

static void v_squares(const void *vs, int8_t *out) {
    const VState *s = vs;
    for (int c = 0; c < 64; c++)
        out[c] = (int8_t)(((s->p[0] >> c) & 1) * PIECE_FIRST + ((s->p[1] >> c) & 1) * PIECE_SECOND);
}

static int v_path(const void *vs, move_t m, uint8_t *out) {
    (void)vs;
    out[0] = (uint8_t)(m >> 6);
    out[1] = (uint8_t)(m & 63);
    return 2;
}

static int v_to_move(const void *vs) { return ((const VState *)vs)->to_move; }

const GameVT VOTEY_VT = {
    "votey", sizeof(VState), v_gen, v_count, v_apply, v_outcome, v_evaluate,
    NULL, v_hint, NULL, v_hash, 64, v_squares, v_path, v_to_move,
};

/* -- the rules' own primitives, for arbiter.games.votey.rules -------------------- */

static int read_board(PyObject *o, uint64_t *b) {
    *b = PyLong_AsUnsignedLongLong(o);
    return !(*b == (uint64_t)-1 && PyErr_Occurred());
}

/* the two boards of a call f(own, enemy); 0 with the error set (a TypeError showing
   usage when the call does not fit) */
static int read_sides(PyObject *const *args, Py_ssize_t n, const char *usage, uint64_t *own,
                      uint64_t *enemy) {
    if (n != 2) {
        PyErr_SetString(PyExc_TypeError, usage);
        return 0;
    }
    return read_board(args[0], own) && read_board(args[1], enemy);
}

static PyObject *py_moves_from(PyObject *self, PyObject *const *args, Py_ssize_t n) {
    (void)self;
    uint64_t own, enemy;
    if (!read_sides(args, n, "moves_from(own, enemy)", &own, &enemy)) return NULL;
    move_t codes[64 * 8];
    return codes_list(codes, moves_from(own, enemy, codes));
}

static PyObject *py_has_move(PyObject *self, PyObject *const *args, Py_ssize_t n) {
    (void)self;
    uint64_t own, enemy;
    if (!read_sides(args, n, "has_move(own, enemy)", &own, &enemy)) return NULL;
    return PyBool_FromLong(has_move(own, enemy));
}

static PyObject *py_connected(PyObject *self, PyObject *arg) {
    (void)self;
    uint64_t b;
    if (!read_board(arg, &b)) return NULL;
    return PyBool_FromLong(connected(b));
}

PyMethodDef VOTEY_METHODS[] = {
    {"votey_moves_from", FASTCALL(py_moves_from),
     "votey_moves_from(own, enemy, /)\n--\n\nVotey moves of own against enemy, as sorted codes 64 * origin + target."},
    {"votey_has_move", FASTCALL(py_has_move), "votey_has_move(own, enemy, /)\n--\n\nWhether own has a legal move against enemy."},
    {"votey_connected", py_connected, METH_O, "votey_connected(board, /)\n--\n\nWhether the cells of a bitboard form one group."},
    {NULL, NULL, 0, NULL},
};
