/* Jump paths: checkers' and Alquerque's moves as the cells they visit.
 *
 * A generator collects the paths of a position in the thread's scratch list, then
 * paths_finish sorts them as the Python engines sort their moves (by the cells
 * visited) and codes them: the origin, the number of jumps (0 for a step), then the
 * direction of the step or of each jump in turn, each field as wide as the game's
 * PathCode says. Included by both games' kernels, so each compiles it with its own
 * constant coding and its own scratch (it is on the search's every node). */
#ifndef ARBITER_PATHS_H
#define ARBITER_PATHS_H

#include "core.h"

#include <stdlib.h>

#define PATH_MAX_JUMPS 17 /* Alquerque's longest chain; checkers' runs to 12 */

typedef struct {
    int8_t path[PATH_MAX_JUMPS + 2];
    int8_t dirs[PATH_MAX_JUMPS + 1];
    int len; /* cells in the path */
    int jumps;
} Path;

typedef struct {
    int origin_bits, jump_bits, dir_bits;
} PathCode;

/* this thread's scratch list of paths (one position's at a time), grown as needed */
static _Thread_local Path *scratch;
static _Thread_local int scratch_cap;

/* the scratch with room for need paths, or NULL when memory ran out */
static inline Path *paths_room(int need) {
    return grow((void **)&scratch, &scratch_cap, sizeof(Path), need) ? scratch : NULL;
}

/* appends m as path n of the scratch: n + 1, or -1 (also when n is -1) */
static inline int paths_add(int n, const Path *m) {
    if (n < 0 || !paths_room(n + 1)) return -1;
    scratch[n] = *m;
    return n + 1;
}

/* the one-step path from cell to t in direction d */
static inline void path_step(Path *m, int cell, int t, int d) {
    m->path[0] = (int8_t)cell;
    m->path[1] = (int8_t)t;
    m->dirs[0] = (int8_t)d;
    m->len = 2;
    m->jumps = 0;
}

/* Python's tuple order on the cells visited */
static inline int path_less(const Path *a, const Path *b) {
    int n = a->len < b->len ? a->len : b->len;
    for (int i = 0; i < n; i++)
        if (a->path[i] != b->path[i]) return a->path[i] < b->path[i];
    return a->len < b->len;
}

static int path_cmp(const void *a, const void *b) {
    return path_less(a, b) ? -1 : path_less(b, a) ? 1 : 0;
}

static inline move_t path_encode(const Path *m, PathCode code) {
    move_t c = (move_t)m->path[0] | ((move_t)m->jumps << code.origin_bits);
    int first = code.origin_bits + code.jump_bits;
    int ndirs = m->jumps ? m->jumps : 1;
    for (int i = 0; i < ndirs; i++) c |= (move_t)m->dirs[i] << (first + code.dir_bits * i);
    return c;
}

/* writes the codes of the scratch's first n paths, already in order, as many as fit in
   out: n, or -1 when n is -1 (a generator that makes its paths sorted: Alquerque's) */
static inline int paths_code(int n, PathCode code, move_t *out, int cap) {
    if (n < 0) return -1;
    for (int i = 0; i < n && i < cap; i++) out[i] = path_encode(&scratch[i], code);
    return n;
}

/* sorts the scratch's first n paths and writes the codes of as many as fit in out:
   n, or -1 when n is -1 (memory ran out) */
static inline int paths_finish(int n, PathCode code, move_t *out, int cap) {
    if (n < 0) return -1;
    Path *paths = scratch;
    if (n > 16) {
        qsort(paths, (size_t)n, sizeof(Path), path_cmp);
    } else { /* insertion sort: most positions have a handful of moves */
        for (int i = 1; i < n; i++) {
            Path m = paths[i];
            int j = i;
            while (j > 0 && path_less(&m, &paths[j - 1])) {
                paths[j] = paths[j - 1];
                j--;
            }
            paths[j] = m;
        }
    }
    return paths_code(n, code, out, cap);
}

#endif
