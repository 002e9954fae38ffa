/* The compiled alpha-beta search: the same negamax as arbiter.agents.alphabeta (PVS,
 * a transposition table, table move, killers, history and the game's hint for
 * ordering, late-move reductions and late-move pruning when asked, quiescence over
 * forced moves without standing pat), over any game's GameVT, without a Python call
 * per node.
 *
 * Python keeps the iterative deepening and the time budget and calls root() once per
 * depth; root() releases the GIL, so the referee's loop runs meanwhile and halt()
 * from another thread stops it within CHECK_EVERY nodes. The table has a fixed size
 * chosen at creation (one bucket per key, replaced when the new entry is at least
 * as deep or from a newer search) and never grows.
 */
#include "core.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WIN 1000000
#define MATE_ZONE (WIN - 10000)
#define INF (10 * WIN)
#define CHECK_EVERY 256
#define HISTORY 65536
/* late-move reductions: from this move of a node on, at this depth or more, a move is
   first searched a ply shallower (as arbiter.agents.alphabeta.REDUCE_FROM) */
#define REDUCE_FROM 3
#define REDUCE_DEPTH 3
#define REDUCE_ALL 1   /* as arbiter.agents.alphabeta.Reductions */
#define REDUCE_QUIET 2
/* late-move pruning: at this depth or less (the engine option prune), a node searches
   only its first PRUNE_KEEP moves a ply (as arbiter.agents.alphabeta.PRUNE_KEEP) */
#define PRUNE_KEEP 8
#define PRUNE_MAX 4 /* as arbiter.agents.spec.OPTION_LIMITS["prune"] */
enum { EXACT = 0, LOWER = 1, UPPER = 2 };

typedef struct {
    uint64_t key;
    move_t move;
    int32_t score;
    int16_t depth;
    uint8_t flag;
    uint8_t age; /* the search that wrote it; 0: an empty entry */
} Entry;

typedef struct {
    PyObject_HEAD
    const GameVT *vt;
    Entry *table;
    size_t entries;
    uint8_t age;
    move_t killers[MAX_PLY + 1][2];
    int nkillers[MAX_PLY + 1];
    int32_t history[HISTORY];
    volatile int halted;
    int reduce; /* late-move reductions: 0 none, 1 every late move, 2 the quiet ones */
    int prune;  /* late-move pruning: at this depth or less, only the first PRUNE_KEEP
                   moves a ply left are searched; 0 none */
    int stopped, failed; /* failed: memory ran out */
    long long nodes, node_limit, next_check;
    double deadline, wall_deadline; /* < 0: none */
    int wall;
    _Alignas(16) unsigned char stack[MAX_PLY + 2][STATE_MAX]; /* rows aligned for any state */
    Moves lists[MAX_PLY + 1];   /* each ply's moves, grown as positions need */
    int64_t *keys[MAX_PLY + 1]; /* each ply's ordering keys, beside its moves */
    int keys_cap[MAX_PLY + 1];
    int64_t *scratch_keys;      /* the merge sort's scratch */
    move_t *scratch_moves;
    int scratch_cap, scratch_moves_cap;
} Searcher;

static double now_clock(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int out_of_budget(Searcher *S) {
    if (S->halted) return 1;
    S->next_check = S->nodes + CHECK_EVERY;
    if (S->node_limit >= 0) {
        if (S->nodes >= S->node_limit) return 1;
        if (S->next_check > S->node_limit) S->next_check = S->node_limit;
    }
    if (S->deadline >= 0 &&
        now_clock(S->wall ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID) >= S->deadline)
        return 1;
    /* the referee's stop, on the wall clock: a fixed-depth search is held to it too */
    if (S->wall_deadline >= 0 && now_clock(CLOCK_MONOTONIC) >= S->wall_deadline) return 1;
    return 0;
}

static inline int count_node(Searcher *S) {
    S->nodes++;
    if (S->nodes >= S->next_check && out_of_budget(S)) {
        S->stopped = 1;
        return 1;
    }
    return 0;
}

/* the end of a finished game for the side to move, or 0 with *over = 0 */
static int terminal_score(Searcher *S, const void *s, int ply, int *over) {
    int out = S->vt->outcome(s);
    *over = out != OUT_NONE;
    switch (out) {
    case OUT_WIN: return WIN - ply;
    case OUT_LOSS: return ply - WIN;
    case OUT_DRAW: return S->vt->draw_value ? S->vt->draw_value(s) : 0;
    default: return 0;
    }
}

/* the moves of the position at ply (noisy: its forced ones) in S->lists[ply]; their
   number, or -1 (the search stopped, failed) when memory ran out */
static int generate(Searcher *S, int ply, int noisy) {
    int n = list_moves(S->vt, S->stack[ply], &S->lists[ply], noisy);
    if (n < 0 || !grow((void **)&S->keys[ply], &S->keys_cap[ply], sizeof(int64_t), n)) {
        S->stopped = S->failed = 1;
        return -1;
    }
    return n;
}

/* The move order is the Python agent's: by key, highest first, stably (equal keys
   keep the generator's order). Most nodes end in a cut within their first few
   moves, so the order is found lazily: keys() scores every move, pick() brings the
   next move to its place only when the search reaches it, and after the first
   PICKED moves the rest are sorted at once (a merge sort). Each step gives the move a
   stable sort of the whole list would put there, so the search is node for node the
   same as with a full sort (tests/agents/test_search_nodes.py). */
#define PICKED 4

/* the ordering key of each of moves[0..n) in S->keys[ply] */
static void keys(Searcher *S, const void *s, const move_t *moves, int n, move_t tt_move,
                 int has_tt, int ply) {
    int64_t *keys = S->keys[ply];
    const move_t *killers = ply <= MAX_PLY ? S->killers[ply] : NULL;
    int nk = ply <= MAX_PLY ? S->nkillers[ply] : 0;
    for (int i = 0; i < n; i++) {
        move_t m = moves[i];
        int64_t k;
        if (has_tt && m == tt_move) {
            k = (int64_t)1 << 40;
        } else {
            k = S->history[mix64(m) & (HISTORY - 1)];
            for (int j = 0; j < nk; j++)
                if (killers[j] == m) k += (int64_t)1 << 30;
            k += (int64_t)S->vt->hint(s, m) * ((int64_t)1 << 20);
        }
        keys[i] = k;
    }
}

/* stable merge sort of moves[lo..hi) by keys, highest first; 0 when memory ran out */
static int sort_rest(Searcher *S, int64_t *keys, move_t *moves, int lo, int hi) {
    int n = hi - lo;
    if (n < 2) return 1;
    if (!grow((void **)&S->scratch_keys, &S->scratch_cap, sizeof(int64_t), n) ||
        !grow((void **)&S->scratch_moves, &S->scratch_moves_cap, sizeof(move_t), n))
        return 0;
    int64_t *k = keys + lo, *tk = S->scratch_keys;
    move_t *m = moves + lo, *tm = S->scratch_moves;
    for (int width = 1; width < n; width *= 2) {
        for (int a = 0; a < n; a += 2 * width) {
            int mid = a + width < n ? a + width : n, end = a + 2 * width < n ? a + 2 * width : n;
            for (int i = a, j = mid, o = a; o < end; o++) {
                /* the right run's next goes first only with a strictly higher key: stable */
                int right = j < end && (i >= mid || k[j] > k[i]);
                int from = right ? j++ : i++;
                tk[o] = k[from];
                tm[o] = m[from];
            }
        }
        memcpy(k, tk, (size_t)n * sizeof *k);
        memcpy(m, tm, (size_t)n * sizeof *m);
    }
    return 1;
}

/* puts at moves[i] the move a stable sort of moves[0..n) puts there, given that
   moves[0..i) are in their places: the first of the highest keys among moves[i..n),
   the ones before it moved up one, so the rest keep their order. At i == PICKED the
   rest are sorted at once. 0 (the search stopped, failed) when memory ran out */
static int pick(Searcher *S, int ply, move_t *moves, int i, int n) {
    int64_t *keys = S->keys[ply];
    if (i == PICKED) {
        if (sort_rest(S, keys, moves, i, n)) return 1;
        S->stopped = S->failed = 1;
        return 0;
    }
    if (i > PICKED) return 1;
    int best = i;
    for (int j = i + 1; j < n; j++)
        if (keys[j] > keys[best]) best = j;
    if (best != i) {
        int64_t k = keys[best];
        move_t m = moves[best];
        memmove(keys + i + 1, keys + i, (size_t)(best - i) * sizeof *keys);
        memmove(moves + i + 1, moves + i, (size_t)(best - i) * sizeof *moves);
        keys[i] = k;
        moves[i] = m;
    }
    return 1;
}

static int quiesce(Searcher *S, int alpha, int beta, int ply) {
    const GameVT *vt = S->vt;
    const void *s = S->stack[ply];
    if (ply >= MAX_PLY) return vt->evaluate(s);
    int n = generate(S, ply, 1);
    if (n < 0) return 0;
    if (!n) return vt->evaluate(s);
    move_t *moves = S->lists[ply].at;
    keys(S, s, moves, n, 0, 0, ply);
    int best = -INF;
    void *child = S->stack[ply + 1];
    for (int i = 0; i < n; i++) {
        if (count_node(S)) return 0;
        if (!pick(S, ply, moves, i, n)) return 0;
        vt->apply(s, moves[i], child);
        int over, score = terminal_score(S, child, ply + 1, &over);
        if (over)
            score = -score;
        else {
            score = -quiesce(S, -beta, -alpha, ply + 1);
            if (S->stopped) return 0;
        }
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                if (alpha >= beta) break;
            }
        }
    }
    return best;
}

static Entry *probe(Searcher *S, uint64_t key) {
    if (!S->entries) return NULL;
    Entry *e = &S->table[key % S->entries];
    return e->key == key && e->age ? e : NULL;
}

static void store(Searcher *S, uint64_t key, int depth, int score, int flag, move_t move) {
    if (!S->entries) return;
    Entry *e = &S->table[key % S->entries];
    if (e->age && e->key != key && e->age == S->age && e->depth > depth) return;
    e->key = key;
    e->move = move;
    e->score = score;
    e->depth = (int16_t)depth;
    e->flag = (uint8_t)flag;
    e->age = S->age;
}

static int search(Searcher *S, int depth, int alpha, int beta, int ply) {
    if (count_node(S)) return 0;
    const GameVT *vt = S->vt;
    const void *s = S->stack[ply];
    int over, terminal = terminal_score(S, s, ply, &over);
    if (over) return terminal;
    if (depth <= 0 || ply >= MAX_PLY) return quiesce(S, alpha, beta, ply);
    uint64_t key = vt->hash(s);
    move_t tt_move = 0;
    int has_tt = 0;
    Entry *e = probe(S, key);
    if (e) {
        tt_move = e->move;
        has_tt = 1;
        if (e->depth >= depth) {
            int es = e->score;
            if (es >= MATE_ZONE)
                es -= ply;
            else if (es <= -MATE_ZONE)
                es += ply;
            if (e->flag == EXACT) return es;
            if (e->flag == LOWER && es > alpha)
                alpha = es;
            else if (e->flag == UPPER && es < beta)
                beta = es;
            if (alpha >= beta) return es;
        }
    }
    int original_alpha = alpha;
    int best_score = -INF;
    move_t best_move = 0;
    int n = generate(S, ply, 0);
    if (n < 0) return 0;
    move_t *moves = S->lists[ply].at;
    keys(S, s, moves, n, tt_move, has_tt, ply);
    void *child = S->stack[ply + 1];
    int searched = depth <= S->prune && PRUNE_KEEP * depth < n ? PRUNE_KEEP * depth : n;
    for (int i = 0; i < searched; i++) {
        if (!pick(S, ply, moves, i, n)) return 0;
        move_t m = moves[i];
        vt->apply(s, m, child);
        int score;
        if (i == 0) {
            score = -search(S, depth - 1, -beta, -alpha, ply + 1);
        } else {
            if (S->reduce && i >= REDUCE_FROM && depth >= REDUCE_DEPTH &&
                (S->reduce == REDUCE_ALL || vt->hint(s, m) <= 0)) {
                /* a late move, likely worse: a shallower null-window search first, the
                   full depth only when it is not proved worse */
                score = -search(S, depth - 2, -alpha - 1, -alpha, ply + 1);
                if (!S->stopped && score > alpha)
                    score = -search(S, depth - 1, -alpha - 1, -alpha, ply + 1);
            } else {
                score = -search(S, depth - 1, -alpha - 1, -alpha, ply + 1);
            }
            if (!S->stopped && alpha < score && score < beta) {
                /* the child is still in its slot: searches below it write deeper */
                score = -search(S, depth - 1, -beta, -score, ply + 1);
            }
        }
        if (S->stopped) return 0;
        if (score > best_score) {
            best_score = score;
            best_move = m;
            if (score > alpha) {
                alpha = score;
                if (alpha >= beta) {
                    move_t *k = S->killers[ply];
                    int nk = S->nkillers[ply];
                    if (!(nk > 0 && k[0] == m) && !(nk > 1 && k[1] == m)) {
                        k[1] = k[0];
                        k[0] = m;
                        if (nk < 2) S->nkillers[ply] = nk + 1;
                    }
                    S->history[mix64(m) & (HISTORY - 1)] += depth * depth;
                    break;
                }
            }
        }
    }
    int stored = best_score;
    if (stored >= MATE_ZONE)
        stored += ply;
    else if (stored <= -MATE_ZONE)
        stored -= ply;
    int flag = best_score <= original_alpha ? UPPER : best_score >= beta ? LOWER : EXACT;
    store(S, key, depth, stored, flag, best_move);
    return best_score;
}

/* -- the Python type ------------------------------------------------------------- */

static PyObject *Searcher_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    static char *names[] = {"game", "hash_mb", "reduce", "prune", NULL};
    const char *game;
    double hash_mb = 16;
    int reduce = 0, prune = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s|dii", names, &game, &hash_mb, &reduce,
                                     &prune))
        return NULL;
    if (reduce < 0 || reduce > REDUCE_QUIET) {
        PyErr_Format(PyExc_ValueError, "reduce must be 0, 1 or 2, not %d", reduce);
        return NULL;
    }
    if (prune < 0 || prune > PRUNE_MAX) {
        PyErr_Format(PyExc_ValueError, "prune must be 0 to %d, not %d", PRUNE_MAX, prune);
        return NULL;
    }
    const GameVT *vt = find_vt(game);
    if (!vt) {
        PyErr_Format(PyExc_ValueError, "no compiled kernel for %s", game);
        return NULL;
    }
    if (hash_mb < 0) {
        PyErr_SetString(PyExc_ValueError, "hash_mb must not be negative");
        return NULL;
    }
    Searcher *S = (Searcher *)type->tp_alloc(type, 0);
    if (!S) return NULL;
    S->vt = vt;
    S->reduce = reduce;
    S->prune = prune;
    S->node_limit = -1;
    S->deadline = S->wall_deadline = -1;
    S->entries = (size_t)(hash_mb * 1048576.0) / sizeof(Entry);
    if (S->entries) {
        S->table = PyMem_RawCalloc(S->entries, sizeof(Entry));
        if (!S->table) {
            Py_DECREF(S);
            return PyErr_NoMemory();
        }
        /* zeroed, so empty: its pages are only touched as the search fills them */
    }
    return (PyObject *)S;
}

static void Searcher_dealloc(Searcher *S) {
    PyMem_RawFree(S->table);
    for (int i = 0; i <= MAX_PLY; i++) {
        moves_free(&S->lists[i]);
        free(S->keys[i]);
    }
    free(S->scratch_keys);
    free(S->scratch_moves);
    Py_TYPE(S)->tp_free((PyObject *)S);
}

static PyObject *Searcher_clear(Searcher *S, PyObject *unused) {
    (void)unused;
    if (S->entries) memset(S->table, 0, S->entries * sizeof(Entry));
    memset(S->history, 0, sizeof S->history);
    S->age = 0;
    Py_RETURN_NONE;
}

static PyObject *Searcher_begin(Searcher *S, PyObject *args, PyObject *kw) {
    /* a new move's search: its budgets, killers and node count; the table and history
       are kept from the moves before */
    static char *names[] = {"node_limit", "deadline", "wall_deadline", "wall", NULL};
    long long node_limit = -1;
    double deadline = -1, wall_deadline = -1;
    int wall = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|Lddp", names, &node_limit, &deadline,
                                     &wall_deadline, &wall))
        return NULL;
    S->node_limit = node_limit;
    S->deadline = deadline;
    S->wall_deadline = wall_deadline;
    S->wall = wall;
    S->nodes = 0;
    S->next_check = 0;
    S->halted = 0;
    S->age = (uint8_t)(S->age == 255 ? 1 : S->age + 1); /* never 0, which marks empty */
    memset(S->nkillers, 0, sizeof S->nkillers);
    Py_RETURN_NONE;
}

static PyObject *Searcher_root(Searcher *S, PyObject *args) {
    /* root(state, moves, depth) -> (score, index of the best move, finished): one
       iteration over the root moves in the order given; when stopped part way, the
       best move found so far (index -1 if none) and finished False */
    PyObject *state, *list;
    int depth;
    if (!PyArg_ParseTuple(args, "SO!i", &state, &PyList_Type, &list, &depth)) return NULL;
    const GameVT *vt = S->vt;
    Py_ssize_t n = PyList_GET_SIZE(list);
    if (n < 1 || n > INT32_MAX || depth < 1 || depth > MAX_PLY - 1) {
        PyErr_Format(PyExc_ValueError, "root: a move or more, depth 1..%d", MAX_PLY - 1);
        return NULL;
    }
    if (!state_arg(vt, state, S->stack[0])) return NULL;
    move_t *moves = PyMem_Malloc((size_t)n * sizeof(move_t));
    if (!moves) return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < n; i++) {
        moves[i] = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(list, i));
        if (PyErr_Occurred()) {
            PyMem_Free(moves);
            return NULL;
        }
    }
    int alpha = -INF, best = 0, partial = -1, partial_score = 0;
    S->stopped = 0;
    Py_BEGIN_ALLOW_THREADS;
    void *child = S->stack[1];
    for (Py_ssize_t i = 0; i < n; i++) {
        vt->apply(S->stack[0], moves[i], child);
        int score;
        if (i == 0) {
            score = -search(S, depth - 1, -INF, INF, 1);
        } else {
            score = -search(S, depth - 1, -alpha - 1, -alpha, 1);
            if (!S->stopped && score > alpha) {
                score = -search(S, depth - 1, -INF, -score, 1);
            }
        }
        if (S->stopped) break;
        if (score > alpha) {
            alpha = score;
            best = (int)i;
            partial = (int)i;
            partial_score = score;
        }
    }
    if (!S->stopped) store(S, vt->hash(S->stack[0]), depth, alpha, EXACT, moves[best]);
    Py_END_ALLOW_THREADS;
    PyMem_Free(moves);
    if (S->failed) {
        S->failed = 0;
        return PyErr_NoMemory();
    }
    if (S->stopped) return Py_BuildValue("(iiO)", partial_score, partial, Py_False);
    return Py_BuildValue("(iiO)", alpha, best, Py_True);
}

static PyObject *Searcher_halt(Searcher *S, PyObject *unused) {
    (void)unused;
    S->halted = 1;
    Py_RETURN_NONE;
}

static PyObject *Searcher_nodes(Searcher *S, void *closure) {
    (void)closure;
    return PyLong_FromLongLong(S->nodes);
}

static PyObject *Searcher_entries(Searcher *S, void *closure) {
    (void)closure;
    return PyLong_FromSize_t(S->entries);
}

static PyMethodDef Searcher_methods[] = {
    {"clear", (PyCFunction)Searcher_clear, METH_NOARGS, "clear($self, /)\n--\n\nEmpties the table and history."},
    {"begin", (PyCFunction)(void (*)(void))Searcher_begin, METH_VARARGS | METH_KEYWORDS,
     "begin($self, /, node_limit=-1, deadline=-1.0, wall_deadline=-1.0, wall=False)\n--\n\n"
     "Starts a new move's search with its budgets."},
    {"root", (PyCFunction)Searcher_root, METH_VARARGS, "root($self, state, moves, depth, /)\n--\n\nOne iteration at a depth."},
    {"halt", (PyCFunction)Searcher_halt, METH_NOARGS, "halt($self, /)\n--\n\nStops a running search soon."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Searcher_getset[] = {
    {"nodes", (getter)Searcher_nodes, NULL, "Nodes searched since begin().", NULL},
    {"entries", (getter)Searcher_entries, NULL, "The table's fixed number of entries.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject SearcherType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "arbiter._core.Searcher",
    .tp_basicsize = sizeof(Searcher),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Searcher(game, hash_mb=16.0, reduce=0, prune=0)\n--\n\n"
              "An alpha-beta search over a game's compiled kernel, with a fixed-size table.",
    .tp_new = Searcher_new,
    .tp_dealloc = (destructor)Searcher_dealloc,
    .tp_methods = Searcher_methods,
    .tp_getset = Searcher_getset,
};
