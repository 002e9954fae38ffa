/* arbiter._core: the compiled kernels of the five games and the search over them.
 *
 * Generic functions take a game's name and its state as bytes (packed by the game's
 * Python rules): legal, apply, outcome, evaluate, hint, perft. Each game adds its
 * own primitives for its Python rules (votey_moves_from, ...). */
#include "core.h"

#include <string.h>

#ifndef ARBITER_SOURCES
#define ARBITER_SOURCES "unknown"
#endif

/* the game and a copy of its state from a call (game, state, ...) of want arguments;
   NULL with the error set (a TypeError showing usage when the call does not fit) */
static const GameVT *game_args(PyObject *const *args, Py_ssize_t n, Py_ssize_t want,
                               const char *usage, unsigned char *out) {
    if (n != want) {
        PyErr_SetString(PyExc_TypeError, usage);
        return NULL;
    }
    const char *game = PyUnicode_AsUTF8(args[0]);
    if (!game) return NULL;
    const GameVT *vt = find_vt(game);
    if (!vt) {
        PyErr_Format(PyExc_ValueError, "no compiled kernel for %s", game);
        return NULL;
    }
    return state_arg(vt, args[1], out) ? vt : NULL;
}

static int move_arg(PyObject *o, move_t *m) {
    *m = PyLong_AsUnsignedLongLong(o);
    return !PyErr_Occurred();
}

/* legal(game, state) or noisy(game, state) */
static PyObject *move_codes(PyObject *const *args, Py_ssize_t n, int noisy) {
    _Alignas(16) unsigned char s[STATE_MAX];
    const GameVT *vt =
        game_args(args, n, 2, noisy ? "noisy(game, state)" : "legal(game, state)", s);
    if (!vt) return NULL;
    Moves m = {NULL, 0};
    int k = list_moves(vt, s, &m, noisy);
    PyObject *out = k < 0 ? PyErr_NoMemory() : codes_list(m.at, k);
    moves_free(&m);
    return out;
}

static PyObject *py_legal(PyObject *self, PyObject *const *args, Py_ssize_t n) {
    (void)self;
    return move_codes(args, n, 0);
}

static PyObject *py_noisy(PyObject *self, PyObject *const *args, Py_ssize_t n) {
    (void)self;
    return move_codes(args, n, 1);
}

static PyObject *py_apply(PyObject *self, PyObject *const *args, Py_ssize_t n) {
    (void)self;
    _Alignas(16) unsigned char s[STATE_MAX];
    _Alignas(16) unsigned char out[STATE_MAX];
    move_t m;
    const GameVT *vt = game_args(args, n, 3, "apply(game, state, move)", s);
    if (!vt || !move_arg(args[2], &m)) return NULL;
    memset(out, 0, sizeof out);
    vt->apply(s, m, out);
    return PyBytes_FromStringAndSize((const char *)out, vt->state_size);
}

static PyObject *py_outcome(PyObject *self, PyObject *const *args, Py_ssize_t n) {
    (void)self;
    _Alignas(16) unsigned char s[STATE_MAX];
    const GameVT *vt = game_args(args, n, 2, "outcome(game, state)", s);
    return vt ? PyLong_FromLong(vt->outcome(s)) : NULL;
}

static PyObject *py_evaluate(PyObject *self, PyObject *const *args, Py_ssize_t n) {
    (void)self;
    _Alignas(16) unsigned char s[STATE_MAX];
    const GameVT *vt = game_args(args, n, 2, "evaluate(game, state)", s);
    return vt ? PyLong_FromLong(vt->evaluate(s)) : NULL;
}

static PyObject *py_hint(PyObject *self, PyObject *const *args, Py_ssize_t n) {
    (void)self;
    _Alignas(16) unsigned char s[STATE_MAX];
    move_t m;
    const GameVT *vt = game_args(args, n, 3, "hint(game, state, move)", s);
    if (!vt || !move_arg(args[2], &m)) return NULL;
    return PyLong_FromLong(vt->hint(s, m));
}

#define PERFT_MOST 64

/* move sequences of depth plies from s, leaves counted in bulk; -1 when memory ran
   out (lists: one move list per level) */
static long long perft(const GameVT *vt, const unsigned char *s, int depth, Moves *lists) {
    if (depth <= 1) {
        if (depth < 1) return 1;
        if (vt->count) return vt->count(s);
        return list_moves(vt, s, lists, 0);
    }
    _Alignas(16) unsigned char child[STATE_MAX];
    int n = list_moves(vt, s, lists, 0);
    if (n < 0) return -1;
    long long total = 0;
    for (int i = 0; i < n; i++) {
        vt->apply(s, lists->at[i], child);
        long long below = perft(vt, child, depth - 1, lists + 1);
        if (below < 0) return -1;
        total += below;
    }
    return total;
}

static PyObject *py_perft(PyObject *self, PyObject *const *args, Py_ssize_t n) {
    (void)self;
    _Alignas(16) unsigned char s[STATE_MAX];
    const GameVT *vt = game_args(args, n, 3, "perft(game, state, depth)", s);
    if (!vt) return NULL;
    long depth = PyLong_AsLong(args[2]);
    if (PyErr_Occurred()) return NULL;
    if (depth > PERFT_MOST) {
        PyErr_Format(PyExc_ValueError, "perft depth at most %d", PERFT_MOST);
        return NULL;
    }
    Moves lists[PERFT_MOST + 1] = {{NULL, 0}};
    long long total;
    Py_BEGIN_ALLOW_THREADS;
    total = perft(vt, s, (int)depth, lists);
    Py_END_ALLOW_THREADS;
    for (int i = 0; i <= PERFT_MOST; i++) moves_free(&lists[i]);
    if (total < 0) return PyErr_NoMemory();
    return PyLong_FromLongLong(total);
}

static PyMethodDef GENERIC[] = {
    {"legal", FASTCALL(py_legal), "legal(game, state, /)\n--\n\n"
     "Returns the legal move codes, in order."},
    {"noisy", FASTCALL(py_noisy), "noisy(game, state, /)\n--\n\n"
     "Returns the forced move codes."},
    {"apply", FASTCALL(py_apply), "apply(game, state, move, /)\n--\n\n"
     "Returns the state after the move."},
    {"outcome", FASTCALL(py_outcome), "outcome(game, state, /)\n--\n\n"
     "Returns 0 on, 1 won, 2 lost, 3 drawn."},
    {"evaluate", FASTCALL(py_evaluate), "evaluate(game, state, /)\n--\n\n"
     "Returns the evaluation."},
    {"hint", FASTCALL(py_hint), "hint(game, state, move, /)\n--\n\n"
     "Returns the move's ordering hint."},
    {"perft", FASTCALL(py_perft), "perft(game, state, depth, /)\n--\n\n"
     "Returns move sequences, leaves in bulk."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "arbiter._core",
    "The compiled kernels of arbiter's games and the search over them.", -1, NULL,
};

static int add_methods(PyObject *module, PyMethodDef *defs) {
    for (PyMethodDef *d = defs; d->ml_name; d++) {
        PyObject *f = PyCFunction_NewEx(d, NULL, NULL);
        if (!f || PyModule_AddObject(module, d->ml_name, f) < 0) {
            Py_XDECREF(f);
            return -1;
        }
    }
    return 0;
}

PyMODINIT_FUNC PyInit__core(void) {
#ifdef __POPCNT__
    /* built to count bits in one instruction (setup.py, -mpopcnt): on a processor
       without it, refuse to load before any table is made (arbiter then runs on its
       pure path and says why) instead of dying of an illegal instruction */
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("popcnt")) {
        PyErr_SetString(PyExc_ImportError,
                        "the compiled core was built for a processor with the popcnt "
                        "instruction and this one has none (build it with ARBITER_PORTABLE=1)");
        return NULL;
    }
#endif
    votey_init();
    checkers_init();
    alquerque_init();
    chinese_checkers_init();
    halma_init();
    if (PyType_Ready(&SearcherType) < 0 || PyType_Ready(&BatchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m) return NULL;
    if (add_methods(m, GENERIC) < 0 || add_methods(m, VOTEY_METHODS) < 0 ||
        add_methods(m, HALMA_METHODS) < 0) goto fail;
    Py_INCREF(&SearcherType);
    if (PyModule_AddObject(m, "Searcher", (PyObject *)&SearcherType) < 0) {
        Py_DECREF(&SearcherType);
        goto fail;
    }
    Py_INCREF(&BatchType);
    if (PyModule_AddObject(m, "Batch", (PyObject *)&BatchType) < 0) {
        Py_DECREF(&BatchType);
        goto fail;
    }
    PyObject *names = PyTuple_New(GAME_COUNT);
    if (!names) goto fail;
    for (size_t i = 0; i < GAME_COUNT; i++)
        PyTuple_SET_ITEM(names, i, PyUnicode_FromString(GAMES[i]->name));
    if (PyModule_AddObject(m, "GAMES", names) < 0) {
        Py_DECREF(names);
        goto fail;
    }
    /* the digest of the sources this build was made from (setup.py), which
       arbiter.core compares with the sources beside it: a stale build is not used */
    if (PyModule_AddStringConstant(m, "SOURCES", ARBITER_SOURCES) < 0) goto fail;
    /* the processor's optional instructions this build uses */
#ifdef __POPCNT__
    PyObject *features = Py_BuildValue("(s)", "popcnt");
#else
    PyObject *features = PyTuple_New(0);
#endif
    if (!features || PyModule_AddObject(m, "FEATURES", features) < 0) {
        Py_XDECREF(features);
        goto fail;
    }
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
