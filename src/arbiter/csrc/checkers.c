/* American checkers: the kernel of arbiter.games.checkers.rules and the evaluation of
 * arbiter.games.checkers.evaluate, bit for bit. Cells are square - 1 (0..31).
 *
 * A move's code is its origin (bits 0-4), its number of jumps (bits 5-8, 0 for a
 * step) and the direction of the step or of each jump in turn (2 bits each from bit
 * 9): a path is its origin and its directions, so every jump path is its own code.
 * The state carries the positions since the last capture or man move (the
 * repetition rule); apply copies only the ones in use. */
#include "paths.h"

#include <string.h>

#define HIST 80
#define NO_PROGRESS 80

typedef struct {
    uint32_t red, white, kings, side;
} CKey;

typedef struct {
    uint32_t p[2];
    uint32_t kings;
    int32_t to_move, ply, quiet, max_plies, plain_draws, nhist;
    CKey hist[HIST];
} CState;

#define HEADER offsetof(CState, hist)

static int8_t STEP[32][4];
static int8_t JUMP_OVER[32][4], JUMP_LAND[32][4];
static const int FORWARD[2][2] = {{0, 1}, {2, 3}};
static uint32_t CROWN_ROW[2], BACK_ROW[2], CENTRE, INNER, CONE[2][32];
static int ROW[32], COL[32], ROWS_TO_GO[2][32];
/* for each direction, the cells a jump can start from and how far the jumped cell
   (by the row's parity) and the landing cell are from it in cell numbers: a jump's
   landing is always 8 rows-of-four and one cell away, its jumped cell 4 and 0 or 1 */
static uint32_t JUMP_FROM[4];
static int OVER_SHIFT[4][2], LAND_SHIFT[4];

static int cell_at(int row, int col) {
    if (row < 0 || row >= 8 || col < 0 || col >= 8 || (row + col) % 2 == 0) return -1;
    return 4 * row + col / 2;
}

void checkers_init(void) {
    static const int DR[4] = {1, 1, -1, -1}, DC[4] = {-1, 1, -1, 1};
    for (int cell = 0; cell < 32; cell++) {
        int r = cell / 4, c = 2 * (cell % 4) + (r % 2 == 0 ? 1 : 0);
        ROW[cell] = r;
        COL[cell] = c;
        for (int d = 0; d < 4; d++) {
            STEP[cell][d] = (int8_t)cell_at(r + DR[d], c + DC[d]);
            int over = cell_at(r + DR[d], c + DC[d]), land = cell_at(r + 2 * DR[d], c + 2 * DC[d]);
            JUMP_OVER[cell][d] = (int8_t)(over >= 0 && land >= 0 ? over : -1);
            JUMP_LAND[cell][d] = (int8_t)(over >= 0 && land >= 0 ? land : -1);
        }
    }
    for (int d = 0; d < 4; d++) {
        JUMP_FROM[d] = 0;
        LAND_SHIFT[d] = 8 * DR[d] + DC[d];
        OVER_SHIFT[d][0] = 4 * DR[d] + (DC[d] > 0 ? 1 : 0); /* from an even row */
        OVER_SHIFT[d][1] = 4 * DR[d] + (DC[d] > 0 ? 0 : -1); /* from an odd row */
        for (int cell = 0; cell < 32; cell++)
            if (JUMP_OVER[cell][d] >= 0) JUMP_FROM[d] |= 1u << cell;
    }
    CROWN_ROW[0] = 0xF0000000u;
    CROWN_ROW[1] = 0x0000000Fu;
    BACK_ROW[0] = 0x0000000Fu;
    BACK_ROW[1] = 0xF0000000u;
    CENTRE = INNER = 0;
    for (int c = 0; c < 32; c++) {
        if (ROW[c] >= 2 && ROW[c] <= 5 && COL[c] >= 2 && COL[c] <= 5) CENTRE |= 1u << c;
        if (ROW[c] >= 3 && ROW[c] <= 4 && COL[c] >= 2 && COL[c] <= 5) INNER |= 1u << c;
        ROWS_TO_GO[0][c] = 7 - ROW[c];
        ROWS_TO_GO[1][c] = ROW[c];
    }
    for (int side = 0; side < 2; side++)
        for (int cell = 0; cell < 32; cell++) {
            uint32_t m = 0;
            int step = side == 0 ? 1 : -1;
            for (int c = 0; c < 32; c++) {
                int dr = (ROW[c] - ROW[cell]) * step;
                if (dr > 0 && iabs(COL[c] - COL[cell]) <= dr + 1) m |= 1u << c;
            }
            CONE[side][cell] = m;
        }
}

static inline int pop32(uint32_t b) { return __builtin_popcount(b); }

/* -- moves ------------------------------------------------------------------------ */

#define CODE ((PathCode){5, 4, 2})

typedef struct {
    int n; /* -1 once memory ran out */
    uint32_t enemy, crown;
    const int *dirs;
    int ndirs;
} JumpSearch;

static void jumps(JumpSearch *J, int cell, uint32_t empty, uint32_t taken, Path *cur) {
    int extended = 0;
    for (int i = 0; i < J->ndirs; i++) {
        int d = J->dirs[i];
        int over = JUMP_OVER[cell][d], land = JUMP_LAND[cell][d];
        if (over < 0) continue;
        if (((J->enemy >> over) & 1) && !((taken >> over) & 1) && ((empty >> land) & 1)) {
            extended = 1;
            cur->path[cur->len] = (int8_t)land;
            cur->dirs[cur->jumps] = (int8_t)d;
            cur->len++;
            cur->jumps++;
            if ((J->crown >> land) & 1)
                J->n = paths_add(J->n, cur); /* crowned: the move ends */
            else
                jumps(J, land, empty, taken | (1u << over), cur);
            cur->len--;
            cur->jumps--;
        }
    }
    if (!extended && cur->jumps) J->n = paths_add(J->n, cur);
}

static int ended(const CState *s) {
    if (s->ply >= s->max_plies || s->quiet >= NO_PROGRESS) return 1;
    return 0;
}

static int repetitions(const CState *s) {
    int n = 0;
    for (int i = 0; i < s->nhist; i++) {
        const CKey *k = &s->hist[i];
        if (k->red == s->p[0] && k->white == s->p[1] && k->kings == s->kings &&
            k->side == (uint32_t)s->to_move)
            n++;
    }
    return n;
}

static int all_dirs[4] = {0, 1, 2, 3};

/* the cells whose (k > 0) k-th following or (k < 0) -k-th preceding cell is in b */
static inline uint32_t cells_before(uint32_t b, int k) { return k > 0 ? b >> k : b << -k; }

#define EVEN_ROWS 0x0F0F0F0Fu

/* the side to move's pieces that can make a first jump: a bit test a direction
   instead of a path search from every piece, most of which have none */
static uint32_t jumpers(const CState *s) {
    int p = s->to_move;
    uint32_t own = s->p[p], enemy = s->p[1 - p];
    uint32_t empty = ~(own | enemy);
    uint32_t found = 0;
    for (int d = 0; d < 4; d++) {
        uint32_t movers = (d == FORWARD[p][0] || d == FORWARD[p][1]) ? own : own & s->kings;
        uint32_t over = (cells_before(enemy, OVER_SHIFT[d][0]) & EVEN_ROWS) |
                        (cells_before(enemy, OVER_SHIFT[d][1]) & ~EVEN_ROWS);
        found |= movers & JUMP_FROM[d] & over & cells_before(empty, LAND_SHIFT[d]);
    }
    return found;
}

/* the captures into the scratch: their number, or -1 when memory ran out */
static int captures(const CState *s) {
    int p = s->to_move;
    uint32_t own = s->p[p], enemy = s->p[1 - p];
    uint32_t empty = ~(own | enemy);
    JumpSearch J = {0, enemy, 0, NULL, 0};
    for (uint32_t b = jumpers(s); b; b &= b - 1) {
        int cell = __builtin_ctz(b);
        Path cur;
        cur.path[0] = (int8_t)cell;
        cur.len = 1;
        cur.jumps = 0;
        if ((s->kings >> cell) & 1) {
            J.dirs = all_dirs;
            J.ndirs = 4;
            J.crown = 0;
        } else {
            J.dirs = FORWARD[p];
            J.ndirs = 2;
            J.crown = CROWN_ROW[p];
        }
        jumps(&J, cell, empty | (1u << cell), 0, &cur);
    }
    return J.n;
}

/* the directions (a bit each) in which p's piece on cell may step, given the
   occupied cells: for the step generator and the no-move test */
static unsigned step_dirs(const CState *s, int p, int cell, uint32_t occupied) {
    int king = (s->kings >> cell) & 1;
    unsigned dirs = 0;
    for (int d = 0; d < 4; d++) {
        if (!king && d != FORWARD[p][0] && d != FORWARD[p][1]) continue;
        int t = STEP[cell][d];
        if (t >= 0 && !((occupied >> t) & 1)) dirs |= 1u << d;
    }
    return dirs;
}

/* the steps into the scratch (at most 48): their number, or -1 when memory ran out */
static int steps(const CState *s) {
    Path *out = paths_room(48);
    if (!out) return -1;
    int p = s->to_move, n = 0;
    uint32_t occupied = s->p[0] | s->p[1];
    for (uint32_t b = s->p[p]; b; b &= b - 1) {
        int cell = __builtin_ctz(b);
        for (unsigned dirs = step_dirs(s, p, cell, occupied); dirs; dirs &= dirs - 1) {
            int d = __builtin_ctz(dirs);
            path_step(&out[n++], cell, STEP[cell][d], d);
        }
    }
    return n;
}

static int has_step(const CState *s) {
    int p = s->to_move;
    uint32_t occupied = s->p[0] | s->p[1];
    for (uint32_t b = s->p[p]; b; b &= b - 1)
        if (step_dirs(s, p, __builtin_ctz(b), occupied)) return 1;
    return 0;
}

/* the legal moves into the scratch (captures when any), or 0 once the game is over */
static int moves(const CState *s) {
    if (ended(s) || repetitions(s) >= 2) return 0;
    int n = captures(s);
    return n ? n : steps(s);
}

static int c_gen(const void *vs, move_t *out, int cap) {
    return paths_finish(moves(vs), CODE, out, cap);
}

static int c_count(const void *vs) { return moves(vs); }

static int c_noisy(const void *vs, move_t *out, int cap) {
    return paths_finish(captures(vs), CODE, out, cap);
}

static void c_apply(const void *vs, move_t m, void *vout) {
    const CState *s = vs;
    CState *o = vout;
    int p = s->to_move;
    int origin = (int)(m & 31), njumps = (int)((m >> 5) & 15);
    int cell = origin;
    uint32_t taken = 0;
    if (!njumps) {
        cell = STEP[origin][(m >> 9) & 3];
    } else {
        for (int i = 0; i < njumps; i++) {
            int d = (int)((m >> (9 + 2 * i)) & 3);
            taken |= 1u << JUMP_OVER[cell][d];
            cell = JUMP_LAND[cell][d];
        }
    }
    int target = cell;
    uint32_t own = (s->p[p] & ~(1u << origin)) | (1u << target);
    uint32_t enemy = s->p[1 - p] & ~taken;
    uint32_t kings = s->kings & ~taken;
    int was_king = (kings >> origin) & 1;
    if (was_king)
        kings = (kings & ~(1u << origin)) | (1u << target);
    else if ((CROWN_ROW[p] >> target) & 1)
        kings |= 1u << target;
    if (njumps || !was_king) {
        o->quiet = 0;
        o->nhist = 0;
    } else {
        int n = s->nhist;
        int drop = n >= HIST ? 1 : 0; /* never in a real game: 80 quiet plies end it */
        memmove(o->hist, s->hist + drop, (size_t)(n - drop) * sizeof(CKey));
        CKey *k = &o->hist[n - drop];
        k->red = s->p[0];
        k->white = s->p[1];
        k->kings = s->kings;
        k->side = (uint32_t)p;
        o->nhist = n - drop + 1;
        o->quiet = s->quiet + 1;
    }
    o->p[p] = own;
    o->p[1 - p] = enemy;
    o->kings = kings;
    o->to_move = 1 - p;
    o->ply = s->ply + 1;
    o->max_plies = s->max_plies;
    o->plain_draws = s->plain_draws;
}

static int by_count(const CState *s) {
    int red = pop32(s->p[0]), white = pop32(s->p[1]);
    if (s->plain_draws || red == white) return OUT_DRAW;
    int winner = red > white ? 0 : 1;
    return winner == s->to_move ? OUT_WIN : OUT_LOSS;
}

static int c_outcome(const void *vs) {
    const CState *s = vs;
    if (!s->p[s->to_move]) return OUT_LOSS;
    if (s->ply >= s->max_plies) return OUT_DRAW;
    if (repetitions(s) >= 2) return by_count(s);
    if (s->quiet >= NO_PROGRESS) return by_count(s);
    if (!has_step(s) && !captures(s)) return OUT_LOSS;
    return OUT_NONE;
}

/* -- evaluation ------------------------------------------------------------------- */

#define MAN 100
#define KING 140
#define W_ADVANCE 3
#define W_BACK 12
#define W_CENTRE 6
#define W_KING_CENTRE 4
#define W_MOBILITY 2
#define W_RUNAWAY 50

static int side_score(const CState *s, int p) {
    uint32_t own = s->p[p], enemy = s->p[1 - p];
    uint32_t kings = s->kings & own, men = own & ~kings;
    int score = MAN * pop32(men) + KING * pop32(kings);
    int advance = 0, runaway = 0;
    for (uint32_t b = men; b; b &= b - 1) {
        int cell = __builtin_ctz(b);
        int rows = ROWS_TO_GO[p][cell];
        advance += 7 - rows;
        if (!(CONE[p][cell] & enemy)) runaway += W_RUNAWAY - 6 * rows;
    }
    score += W_ADVANCE * advance + runaway;
    if (enemy & ~s->kings) score += W_BACK * pop32(men & BACK_ROW[p]);
    score += W_CENTRE * pop32(own & CENTRE) + W_KING_CENTRE * pop32(kings & INNER);
    return score;
}

/* counted here, not through step_dirs: the evaluation's hot loop, measured faster */
static int mobility(const CState *s, int p) {
    uint32_t occupied = s->p[0] | s->p[1];
    int n = 0;
    for (uint32_t b = s->p[p]; b; b &= b - 1) {
        int cell = __builtin_ctz(b);
        int king = (s->kings >> cell) & 1;
        for (int d = 0; d < 4; d++) {
            if (!king && d != FORWARD[p][0] && d != FORWARD[p][1]) continue;
            int t = STEP[cell][d];
            if (t >= 0 && !((occupied >> t) & 1)) n++;
        }
    }
    return n;
}

static int c_evaluate(const void *vs) {
    const CState *s = vs;
    int p = s->to_move;
    return side_score(s, p) - side_score(s, 1 - p) + W_MOBILITY * (mobility(s, p) - mobility(s, 1 - p));
}

static int c_hint(const void *vs, move_t m) {
    const CState *s = vs;
    int origin = (int)(m & 31), njumps = (int)((m >> 5) & 15);
    int cell = origin;
    if (!njumps)
        cell = STEP[origin][(m >> 9) & 3];
    else
        for (int i = 0; i < njumps; i++) cell = JUMP_LAND[cell][(m >> (9 + 2 * i)) & 3];
    int hint = 4 * njumps;
    if (!((s->kings >> origin) & 1) && ROWS_TO_GO[s->to_move][cell] == 0) hint += 3;
    return hint;
}

static uint64_t c_hash(const void *vs) {
    const CState *s = vs;
    return mix64(((uint64_t)s->p[0] << 32 | s->p[1]) ^
                 mix64((uint64_t)s->kings << 1 | (uint64_t)s->to_move));
}

/* -- the board's view, for the learning environments ------------------------------ */

static void c_squares(const void *vs, int8_t *out) {
    const CState *s = vs;
    for (int c = 0; c < 32; c++)
        out[c] = (int8_t)(((s->p[0] >> c) & 1) * PIECE_FIRST + ((s->p[1] >> c) & 1) * PIECE_SECOND +
                          ((s->kings >> c) & 1) * PIECE_KING);
}

/* a move's path from its code, as c_apply walks it */
static int c_path(const void *vs, move_t m, uint8_t *out) {
    (void)vs;
    int cell = (int)(m & 31), njumps = (int)((m >> 5) & 15);
    out[0] = (uint8_t)cell;
    if (!njumps) {
        out[1] = (uint8_t)STEP[cell][(m >> 9) & 3];
        return 2;
    }
    for (int i = 0; i < njumps; i++) {
        cell = JUMP_LAND[cell][(m >> (9 + 2 * i)) & 3];
        out[i + 1] = (uint8_t)cell;
    }
    return njumps + 1;
}

static int c_to_move(const void *vs) { return ((const CState *)vs)->to_move; }

const GameVT CHECKERS_VT = {
    "checkers", sizeof(CState), c_gen, c_count, c_apply, c_outcome, c_evaluate,
    NULL, c_hint, c_noisy, c_hash, 32, c_squares, c_path, c_to_move,
};
