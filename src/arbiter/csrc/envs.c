/* The learning environments' step in C: n games of one game held at once, each
 * masked, observed and stepped without a Python call per game (arbiter.envs.batch,
 * and the AEC environment as a batch of one).
 *
 * It knows no game: a kernel gives its board's cells, each cell's piece and each
 * move's path (core.h), and Python gives where each cell lies on the observation's
 * grid. The encoding is arbiter.envs.encoding's, which stays the reference: an action
 * is a leg a * cells + b, a move is the legs of its path played in turn by the same
 * seat, and an observation is (rows, columns, 6) planes from one seat's side: its
 * pieces, the other's, kings, the path of the move being made, the cells that exist,
 * and ones for the second seat.
 *
 * The arrays a learner reads (observation, legal_action_mask, current_player,
 * rewards, terminated, truncated) are Python's, handed over at creation and written in
 * place. A mask row is cleared by the entries it set, not whole: Halma's has 65,536.
 */
#include "core.h"

#include <stdlib.h>
#include <string.h>

#define PLANES 6
enum { MINE = 0, THEIRS = 1, KINGS = 2, PATH = 3, BOARD = 4, SECOND = 5 };
enum { ACT_ILLEGAL = 0, ACT_LEG = 1, ACT_MOVE = 2, ACT_OVER = 3 };

/* one game of the batch */
typedef struct {
    Moves moves;       /* the legal moves of the position */
    uint8_t *paths;    /* each move's cells, PATH_MOST apart */
    uint8_t *lens;     /* each move's number of cells */
    int *live;         /* the moves whose first legs are the ones played */
    int nmoves, nlive, cap;
    uint8_t played[PATH_MOST]; /* the cells of the move being made so far */
    int k;                     /* its legs played */
    int *set;                  /* the mask entries set, to clear */
    int nset, setcap;
    int over;                  /* the game has ended: OUT_* for the side to move */
    move_t last;               /* the last complete move */
    int has_last;
    uint64_t rng, draws;
} Game;

typedef struct {
    PyObject_HEAD
    const GameVT *vt;
    Py_ssize_t n, stride, obs_size, actions;
    unsigned char *states; /* n states, stride bytes apart, 16-aligned */
    unsigned char *befores; /* each game's state before its last complete move */
    unsigned char *start;  /* the start position */
    Game *games;
    int rows, columns, opening, auto_reset;
    int rival;             /* the seat a random opponent plays here, or -1 */
    int *place;            /* each cell's offset in an observation */
    int8_t *blank[2];      /* an observation with no pieces, from each seat */
    Py_buffer obs, mask, player, rewards, terminated, truncated;
    int views;             /* how many of the buffers above are held */
} Batch;

static inline void *state_of(Batch *B, Py_ssize_t i) { return B->states + i * B->stride; }
static inline void *before_of(Batch *B, Py_ssize_t i) { return B->befores + i * B->stride; }

/* the j-th draw of a game's generator: mix64 of its base plus j (envs/batch.py, pure) */
static inline uint64_t draw(Game *g) { return mix64(g->rng + g->draws++); }

/* room for need moves' paths in g; 0 when memory ran out */
static int room(Game *g, int need) {
    if (need <= g->cap) return 1;
    int cap = g->cap ? g->cap : FEW_MOVES;
    while (cap < need) cap *= 2;
    uint8_t *paths = realloc(g->paths, (size_t)cap * PATH_MOST);
    if (!paths) return 0;
    g->paths = paths;
    uint8_t *lens = realloc(g->lens, (size_t)cap);
    if (!lens) return 0;
    g->lens = lens;
    int *live = realloc(g->live, (size_t)cap * sizeof(int));
    if (!live) return 0;
    g->live = live;
    g->cap = cap;
    return 1;
}

/* the action of leg j of live move m */
static inline Py_ssize_t leg(const Batch *B, const Game *g, int m, int j) {
    const uint8_t *p = g->paths + (size_t)m * PATH_MOST;
    return (Py_ssize_t)p[j] * B->vt->cells + p[j + 1];
}

/* game i's mask row: the next legs of its live moves (cleared by the entries set) */
static int write_mask(Batch *B, Py_ssize_t i) {
    Game *g = &B->games[i];
    int8_t *row = (int8_t *)B->mask.buf + i * B->actions;
    for (int j = 0; j < g->nset; j++) row[g->set[j]] = 0;
    g->nset = 0;
    if (g->over) return 1;
    if (!grow((void **)&g->set, &g->setcap, sizeof(int), g->nlive)) return 0;
    for (int j = 0; j < g->nlive; j++) {
        Py_ssize_t a = leg(B, g, g->live[j], g->k);
        if (!row[a]) {
            row[a] = 1;
            g->set[g->nset++] = (int)a;
        }
    }
    return 1;
}

/* game i's observation from seat's side into out */
static void write_obs(Batch *B, Py_ssize_t i, int seat, int8_t *out) {
    const GameVT *vt = B->vt;
    int8_t squares[256];
    vt->squares(state_of(B, i), squares);
    memcpy(out, B->blank[seat], (size_t)B->obs_size);
    int8_t mine = seat ? PIECE_SECOND : PIECE_FIRST, theirs = seat ? PIECE_FIRST : PIECE_SECOND;
    for (int c = 0; c < vt->cells; c++) {
        int8_t q = squares[c];
        if (!q) continue;
        int8_t *at = out + B->place[c];
        at[MINE] = (q & mine) != 0;
        at[THEIRS] = (q & theirs) != 0;
        at[KINGS] = (q & PIECE_KING) != 0;
    }
    Game *g = &B->games[i];
    for (int j = 0; g->k && j <= g->k; j++) out[B->place[g->played[j]] + PATH] = 1;
}

/* the learner's arrays of game i after a step; rewards stay as the step set them */
static int publish(Batch *B, Py_ssize_t i) {
    int seat = B->vt->to_move(state_of(B, i));
    ((int32_t *)B->player.buf)[i] = seat;
    write_obs(B, i, seat, (int8_t *)B->obs.buf + i * B->obs_size);
    return write_mask(B, i);
}

/* game i's rewards for an end whose code is for seat, the side to move */
static void reward(Batch *B, Py_ssize_t i, int seat, int code) {
    float *r = (float *)B->rewards.buf + 2 * i;
    float mover = code == OUT_WIN ? 1.0f : code == OUT_LOSS ? -1.0f : 0.0f;
    r[seat] = mover;
    r[1 - seat] = -mover;
    ((uint8_t *)B->terminated.buf)[i] = 1;
}

/* makes game i's state its position: its legal moves and paths, or its end; 0 when
   memory ran out */
static int enter(Batch *B, Py_ssize_t i) {
    const GameVT *vt = B->vt;
    Game *g = &B->games[i];
    void *s = state_of(B, i);
    g->k = 0;
    g->nmoves = g->nlive = 0;
    g->over = vt->outcome(s);
    if (g->over) {
        reward(B, i, vt->to_move(s), g->over);
        return 1;
    }
    int n = list_moves(vt, s, &g->moves, 0);
    if (n < 0 || !room(g, n)) return 0;
    for (int j = 0; j < n; j++) {
        g->lens[j] = (uint8_t)vt->path(s, g->moves.at[j], g->paths + (size_t)j * PATH_MOST);
        g->live[j] = j;
    }
    g->nmoves = g->nlive = n;
    return 1;
}

/* game i from the start, with its opening's random moves; 0 when memory ran out */
static int restart(Batch *B, Py_ssize_t i) {
    const GameVT *vt = B->vt;
    Game *g = &B->games[i];
    _Alignas(16) unsigned char next[STATE_MAX];
    memcpy(state_of(B, i), B->start, (size_t)vt->state_size);
    g->has_last = 0;
    for (int ply = 0; ply < B->opening; ply++) {
        void *s = state_of(B, i);
        if (vt->outcome(s)) break;
        int n = list_moves(vt, s, &g->moves, 0);
        if (n < 0) return 0;
        if (!n) break;
        vt->apply(s, g->moves.at[draw(g) % (uint64_t)n], next);
        memcpy(s, next, (size_t)vt->state_size);
    }
    ((uint8_t *)B->terminated.buf)[i] = 0;
    return enter(B, i);
}

/* plays action a for game i's side to move: ACT_* */
static int act(Batch *B, Py_ssize_t i, long long a) {
    const GameVT *vt = B->vt;
    Game *g = &B->games[i];
    if (g->over) return ACT_OVER;
    void *s = state_of(B, i);
    int seat = vt->to_move(s);
    int kept = 0, done = -1;
    if (a >= 0 && a < B->actions) {
        for (int j = 0; j < g->nlive; j++) {
            int m = g->live[j];
            if (leg(B, g, m, g->k) != a) continue;
            g->live[kept++] = m;
            if (done < 0 && g->lens[m] == g->k + 2) done = m;
        }
    }
    if (!kept) { /* not a leg of any legal move: the mover loses, as in every contest */
        g->over = OUT_LOSS;
        g->nlive = 0;
        reward(B, i, seat, OUT_LOSS);
        return ACT_ILLEGAL;
    }
    g->nlive = kept;
    if (done < 0) { /* a chain's next jump: the same seat acts again */
        if (!g->k) g->played[0] = (uint8_t)(a / vt->cells);
        g->k++;
        g->played[g->k] = (uint8_t)(a % vt->cells);
        return ACT_LEG;
    }
    _Alignas(16) unsigned char next[STATE_MAX];
    g->last = g->moves.at[done];
    g->has_last = 1;
    memcpy(before_of(B, i), s, (size_t)vt->state_size);
    vt->apply(s, g->last, next);
    memcpy(s, next, (size_t)vt->state_size);
    return ACT_MOVE;
}

/* one action for game i within a step: its end rewarded (this sets rewards and
   terminated, never clears them) and, where the batch resets by itself, the next game
   begun; 0 when memory ran out */
static int step_game(Batch *B, Py_ssize_t i, long long a) {
    Game *g = &B->games[i];
    if (g->over) return 1;
    int done = act(B, i, a);
    if (done == ACT_MOVE && !enter(B, i)) return 0;
    if (g->over && B->auto_reset) {
        if (!restart(B, i)) return 0;
        ((uint8_t *)B->terminated.buf)[i] = 1; /* the end is reported; the arrays show the
                                                  next game */
    }
    return publish(B, i);
}

/* the random opponent's legs while game i waits for it, drawn from the game's
   generator as random() draws them; 0 when memory ran out */
static int answer(Batch *B, Py_ssize_t i) {
    Game *g = &B->games[i];
    while (B->rival >= 0 && !g->over && g->nset && B->vt->to_move(state_of(B, i)) == B->rival)
        if (!step_game(B, i, g->set[draw(g) % (uint64_t)g->nset])) return 0;
    return 1;
}

/* -- Python ---------------------------------------------------------------------- */

/* holds a writable C-contiguous buffer of want bytes; 0 with the error set */
static int hold(Batch *B, PyObject *o, Py_buffer *view, Py_ssize_t want, const char *what) {
    if (PyObject_GetBuffer(o, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return 0;
    B->views++;
    if (view->len != want) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, not %zd", what, view->len, want);
        return 0;
    }
    return 1;
}

static void Batch_dealloc(Batch *B) {
    Py_buffer *views[] = {&B->obs, &B->mask, &B->player, &B->rewards, &B->terminated,
                          &B->truncated};
    for (int v = 0; v < B->views; v++) PyBuffer_Release(views[v]);
    if (B->games) {
        for (Py_ssize_t i = 0; i < B->n; i++) {
            Game *g = &B->games[i];
            moves_free(&g->moves);
            free(g->paths);
            free(g->lens);
            free(g->live);
            free(g->set);
        }
    }
    free(B->games);
    free(B->states);
    free(B->befores);
    free(B->start);
    free(B->place);
    free(B->blank[0]);
    free(B->blank[1]);
    Py_TYPE(B)->tp_free((PyObject *)B);
}

static PyObject *Batch_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    static char *names[] = {"game", "start", "n", "rows", "columns", "places", "seed",
                            "opening", "auto_reset", "observation", "legal_action_mask",
                            "current_player", "rewards", "terminated", "truncated", "rival",
                            NULL};
    const char *game;
    PyObject *start, *places, *arrays[6];
    Py_ssize_t n;
    int rows, columns, opening, auto_reset, rival = -1;
    unsigned long long seed;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "sSniiSKipOOOOOO|i", names, &game, &start, &n,
                                     &rows, &columns, &places, &seed, &opening, &auto_reset,
                                     &arrays[0], &arrays[1], &arrays[2], &arrays[3],
                                     &arrays[4], &arrays[5], &rival))
        return NULL;
    const GameVT *vt = find_vt(game);
    if (!vt) return PyErr_Format(PyExc_ValueError, "no compiled kernel for %s", game);
    if (n < 1 || rows < 1 || columns < 1 || opening < 0 || rival < -1 || rival > 1)
        return PyErr_Format(PyExc_ValueError, "a batch of %zd games, %dx%d, opening %d, rival %d",
                            n, rows, columns, opening, rival);
    if (PyBytes_GET_SIZE(places) != 2 * vt->cells)
        return PyErr_Format(PyExc_ValueError, "places: %d cells' rows and columns wanted",
                            vt->cells);
    Batch *B = (Batch *)type->tp_alloc(type, 0);
    if (!B) return NULL;
    B->vt = vt;
    B->n = n;
    B->stride = (vt->state_size + 15) / 16 * 16;
    B->rows = rows;
    B->columns = columns;
    B->obs_size = (Py_ssize_t)rows * columns * PLANES;
    B->actions = (Py_ssize_t)vt->cells * vt->cells;
    B->opening = opening;
    B->auto_reset = auto_reset;
    B->rival = rival;
    const Py_ssize_t sizes[6] = {n * B->obs_size, n * B->actions, n * 4, n * 8, n, n};
    const char *what[6] = {"observation", "legal_action_mask", "current_player", "rewards",
                           "terminated", "truncated"};
    Py_buffer *views[6] = {&B->obs, &B->mask, &B->player, &B->rewards, &B->terminated,
                           &B->truncated};
    for (int v = 0; v < 6; v++)
        if (!hold(B, arrays[v], views[v], sizes[v], what[v])) goto fail;
    B->states = aligned_alloc(16, (size_t)(n * B->stride));
    B->befores = aligned_alloc(16, (size_t)(n * B->stride));
    B->start = malloc((size_t)B->stride);
    B->games = calloc((size_t)n, sizeof(Game));
    B->place = malloc((size_t)vt->cells * sizeof(int));
    B->blank[0] = calloc((size_t)B->obs_size, 1);
    B->blank[1] = calloc((size_t)B->obs_size, 1);
    if (!B->states || !B->befores || !B->start || !B->games || !B->place || !B->blank[0] || !B->blank[1]) {
        PyErr_NoMemory();
        goto fail;
    }
    if (!state_arg(vt, start, B->start)) goto fail;
    const unsigned char *at = (const unsigned char *)PyBytes_AS_STRING(places);
    for (int c = 0; c < vt->cells; c++) {
        if (at[2 * c] >= rows || at[2 * c + 1] >= columns) {
            PyErr_Format(PyExc_ValueError, "places: cell %d is off the %dx%d grid", c, rows,
                         columns);
            goto fail;
        }
        B->place[c] = (at[2 * c] * columns + at[2 * c + 1]) * PLANES;
        B->blank[0][B->place[c] + BOARD] = B->blank[1][B->place[c] + BOARD] = 1;
    }
    for (Py_ssize_t x = SECOND; x < B->obs_size; x += PLANES) B->blank[1][x] = 1;
    for (Py_ssize_t i = 0; i < n; i++) B->games[i].rng = mix64(mix64((uint64_t)i) ^ seed);
    memset(B->truncated.buf, 0, (size_t)n);
    return (PyObject *)B;
fail:
    Py_DECREF(B);
    return NULL;
}

/* every game from the start (its opening drawn), rewards 0 */
static PyObject *Batch_init(Batch *B, PyObject *unused) {
    (void)unused;
    memset(B->rewards.buf, 0, (size_t)B->rewards.len);
    for (Py_ssize_t i = 0; i < B->n; i++)
        if (!restart(B, i) || !publish(B, i) || !answer(B, i)) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

/* one action per game (an int64 buffer of n): each game's end rewarded, and
   restarted when the batch resets by itself; a game over and not restarted stays */
static PyObject *Batch_step(Batch *B, PyObject *actions) {
    Py_buffer a;
    if (PyObject_GetBuffer(actions, &a, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return NULL;
    if (a.itemsize != 8 || a.len != B->n * 8 || !a.format || !strchr("qlQL", a.format[0])) {
        PyBuffer_Release(&a);
        return PyErr_Format(PyExc_ValueError, "actions: %zd int64 wanted", B->n);
    }
    const long long *acts = a.buf;
    uint8_t *terminated = B->terminated.buf;
    memset(B->rewards.buf, 0, (size_t)B->rewards.len);
    int failed = 0;
    for (Py_ssize_t i = 0; i < B->n && !failed; i++) {
        Game *g = &B->games[i];
        terminated[i] = g->over != 0;
        if (!g->over) failed = !step_game(B, i, acts[i]) || !answer(B, i);
    }
    PyBuffer_Release(&a);
    if (failed) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

/* random(out): into the int64 buffer out, for each game one of the actions its side to
   move may play, drawn uniformly from the game's generator (the mask's entries in the
   order its moves set them); -1 for a game that is over */
static PyObject *Batch_random(Batch *B, PyObject *out) {
    Py_buffer a;
    if (PyObject_GetBuffer(out, &a, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return NULL;
    if (a.itemsize != 8 || a.len != B->n * 8 || !a.format || !strchr("qlQL", a.format[0])) {
        PyBuffer_Release(&a);
        return PyErr_Format(PyExc_ValueError, "out: %zd int64 wanted", B->n);
    }
    long long *acts = a.buf;
    for (Py_ssize_t i = 0; i < B->n; i++) {
        Game *g = &B->games[i];
        acts[i] = g->over || !g->nset ? -1 : g->set[draw(g) % (uint64_t)g->nset];
    }
    PyBuffer_Release(&a);
    Py_RETURN_NONE;
}

static int index_arg(Batch *B, PyObject *o, Py_ssize_t *i) {
    *i = PyLong_AsSsize_t(o);
    if (*i == -1 && PyErr_Occurred()) return 0;
    if (*i < 0 || *i >= B->n) {
        PyErr_Format(PyExc_IndexError, "game %zd of a batch of %zd", *i, B->n);
        return 0;
    }
    return 1;
}

/* play(i, action): one more action for game i within the step under way (an engine
   opponent's, played from Python): its end adds to the step's rewards and ends */
static PyObject *Batch_play(Batch *B, PyObject *const *args, Py_ssize_t nargs) {
    Py_ssize_t i;
    if (nargs != 2) return PyErr_Format(PyExc_TypeError, "play(i, action)");
    if (!index_arg(B, args[0], &i)) return NULL;
    long long a = PyLong_AsLongLong(args[1]);
    if (a == -1 && PyErr_Occurred()) return NULL;
    if (!step_game(B, i, a)) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

/* waiting(seat): the games going on whose side to move is seat, in order */
static PyObject *Batch_waiting(Batch *B, PyObject *o) {
    long seat = PyLong_AsLong(o);
    if (seat == -1 && PyErr_Occurred()) return NULL;
    PyObject *out = PyList_New(0);
    for (Py_ssize_t i = 0; out && i < B->n; i++) {
        if (B->games[i].over || B->vt->to_move(state_of(B, i)) != seat) continue;
        PyObject *v = PyLong_FromSsize_t(i);
        if (!v || PyList_Append(out, v) < 0) Py_CLEAR(out);
        Py_XDECREF(v);
    }
    return out;
}

/* set(i, state): game i at a position, its rewards and end flag as entering it sets */
static PyObject *Batch_set(Batch *B, PyObject *const *args, Py_ssize_t nargs) {
    Py_ssize_t i;
    if (nargs != 2) return PyErr_Format(PyExc_TypeError, "set(i, state)");
    if (!index_arg(B, args[0], &i) || !state_arg(B->vt, args[1], state_of(B, i))) return NULL;
    float *r = (float *)B->rewards.buf + 2 * i;
    r[0] = r[1] = 0.0f;
    ((uint8_t *)B->terminated.buf)[i] = 0;
    B->games[i].has_last = 0;
    if (!enter(B, i) || !publish(B, i)) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

/* act(i, action): one action for game i alone (the AEC environment's step); ACT_* */
static PyObject *Batch_act(Batch *B, PyObject *const *args, Py_ssize_t nargs) {
    Py_ssize_t i;
    if (nargs != 2) return PyErr_Format(PyExc_TypeError, "act(i, action)");
    if (!index_arg(B, args[0], &i)) return NULL;
    long long a = PyLong_AsLongLong(args[1]);
    if (a == -1 && PyErr_Occurred()) return NULL;
    float *r = (float *)B->rewards.buf + 2 * i;
    r[0] = r[1] = 0.0f;
    int done = act(B, i, a);
    if (done == ACT_MOVE && !enter(B, i)) return PyErr_NoMemory();
    if (done != ACT_OVER && !publish(B, i)) return PyErr_NoMemory();
    return PyLong_FromLong(done);
}

/* observe(i, seat, out): game i from seat's side into the buffer out */
static PyObject *Batch_observe(Batch *B, PyObject *const *args, Py_ssize_t nargs) {
    Py_ssize_t i;
    if (nargs != 3) return PyErr_Format(PyExc_TypeError, "observe(i, seat, out)");
    if (!index_arg(B, args[0], &i)) return NULL;
    long seat = PyLong_AsLong(args[1]);
    if (seat != 0 && seat != 1)
        return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_ValueError, "seat %ld", seat);
    Py_buffer out;
    if (PyObject_GetBuffer(args[2], &out, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (out.len != B->obs_size) {
        PyBuffer_Release(&out);
        return PyErr_Format(PyExc_ValueError, "out: %zd bytes wanted", B->obs_size);
    }
    write_obs(B, i, (int)seat, out.buf);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

/* legal(i): the actions game i's side to move may play next, in its moves' order */
static PyObject *Batch_legal(Batch *B, PyObject *o) {
    Py_ssize_t i;
    if (!index_arg(B, o, &i)) return NULL;
    Game *g = &B->games[i];
    PyObject *out = PyList_New(0);
    for (int j = 0; out && j < g->nlive; j++) {
        Py_ssize_t a = leg(B, g, g->live[j], g->k);
        int seen = 0;
        for (int e = 0; e < j && !seen; e++) seen = leg(B, g, g->live[e], g->k) == a;
        PyObject *v = seen ? NULL : PyLong_FromSsize_t(a);
        if (!seen && (!v || PyList_Append(out, v) < 0)) Py_CLEAR(out);
        Py_XDECREF(v);
    }
    return out;
}

/* state(i): game i's position, as its kernel's bytes */
static PyObject *Batch_state(Batch *B, PyObject *o) {
    Py_ssize_t i;
    if (!index_arg(B, o, &i)) return NULL;
    return PyBytes_FromStringAndSize((const char *)state_of(B, i), B->vt->state_size);
}

/* before(i): game i's position before its last complete move (its start when none) */
static PyObject *Batch_before(Batch *B, PyObject *o) {
    Py_ssize_t i;
    if (!index_arg(B, o, &i)) return NULL;
    void *s = B->games[i].has_last ? before_of(B, i) : state_of(B, i);
    return PyBytes_FromStringAndSize((const char *)s, B->vt->state_size);
}

/* last(i): the code of game i's last complete move, or None since its start */
static PyObject *Batch_last(Batch *B, PyObject *o) {
    Py_ssize_t i;
    if (!index_arg(B, o, &i)) return NULL;
    Game *g = &B->games[i];
    return g->has_last ? PyLong_FromUnsignedLongLong(g->last) : Py_NewRef(Py_None);
}

static PyMethodDef Batch_methods[] = {
    {"init", (PyCFunction)Batch_init, METH_NOARGS, "init($self, /)\n--\n\n"
     "Starts every game (and its opening)."},
    {"step", (PyCFunction)Batch_step, METH_O, "step($self, actions, /)\n--\n\n"
     "Plays one action in each game."},
    {"random", (PyCFunction)Batch_random, METH_O, "random($self, out, /)\n--\n\n"
     "Writes a legal action of each game into out."},
    {"set", FASTCALL(Batch_set), "set($self, i, state, /)\n--\n\n"
     "Sets game i to a position."},
    {"play", FASTCALL(Batch_play), "play($self, i, action, /)\n--\n\n"
     "Plays one more action in game i within this step."},
    {"waiting", (PyCFunction)Batch_waiting, METH_O, "waiting($self, seat, /)\n--\n\n"
     "Returns the games seat moves in."},
    {"act", FASTCALL(Batch_act), "act($self, i, action, /)\n--\n\n"
     "Returns 0 illegal, 1 a leg, 2 a move, 3 over."},
    {"observe", FASTCALL(Batch_observe), "observe($self, i, seat, out, /)\n--\n\n"
     "Writes game i as seat sees it into out."},
    {"legal", (PyCFunction)Batch_legal, METH_O, "legal($self, i, /)\n--\n\n"
     "Returns the actions game i may play."},
    {"state", (PyCFunction)Batch_state, METH_O, "state($self, i, /)\n--\n\n"
     "Returns game i's position as bytes."},
    {"before", (PyCFunction)Batch_before, METH_O, "before($self, i, /)\n--\n\n"
     "Returns the position before it."},
    {"last", (PyCFunction)Batch_last, METH_O, "last($self, i, /)\n--\n\n"
     "Returns game i's last move's code, or None."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject BatchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "arbiter._core.Batch",
    .tp_doc = "Batch(game, start, n, rows, columns, places, seed, opening, auto_reset, "
              "observation, legal_action_mask, current_player, rewards, terminated, "
              "truncated, rival=-1)\n--\n\n"
              "n games of one game, stepped at once (arbiter.envs.batch)",
    .tp_basicsize = sizeof(Batch),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = Batch_new,
    .tp_dealloc = (destructor)Batch_dealloc,
    .tp_methods = Batch_methods,
};
