/* Growable move lists and scratch arrays for the kernels and the search. */
#include "core.h"

#include <stdlib.h>

int grow(void **buf, int *cap, size_t item, int need) {
    if (need <= *cap) return 1;
    int want = *cap ? *cap : FEW_MOVES;
    while (want < need) want *= 2;
    void *bigger = realloc(*buf, (size_t)want * item);
    if (!bigger) return 0;
    *buf = bigger;
    *cap = want;
    return 1;
}

int list_moves(const GameVT *vt, const void *s, Moves *m, int noisy) {
    if (noisy && !vt->noisy) return 0;
    if (!m->cap && !grow((void **)&m->at, &m->cap, sizeof(move_t), FEW_MOVES)) return -1;
    for (;;) {
        int n = noisy ? vt->noisy(s, m->at, m->cap) : vt->gen(s, m->at, m->cap);
        if (n < 0) return -1;
        if (n <= m->cap) return n;
        if (!grow((void **)&m->at, &m->cap, sizeof(move_t), n)) return -1;
    }
}

void moves_free(Moves *m) {
    free(m->at);
    m->at = NULL;
    m->cap = 0;
}
