/* The compiled core's contract: what each game's kernel gives the generic search.
 *
 * A game's state is a fixed-size plain struct, handed to and from Python as bytes
 * (the Python rules pack and unpack it). A move is a 64-bit code that identifies it
 * among the legal moves of its position (the game chooses the coding); the search
 * never looks inside it. Scores are for the side to move, on the scale of the
 * game's Python evaluation, which each kernel reproduces exactly.
 */
#ifndef ARBITER_CORE_H
#define ARBITER_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>

#define FEW_MOVES 256 /* a move list's first capacity; lists grow when a position has more */
#define STATE_MAX 1536 /* bytes: the largest state (checkers', with its repetition list) fits;
                          a multiple of 16, and state buffers are 16-aligned (128-bit boards) */
#define MAX_PLY 128    /* search plies, quiescence included */

typedef uint64_t move_t;

enum { OUT_NONE = 0, OUT_WIN = 1, OUT_LOSS = 2, OUT_DRAW = 3 };

typedef struct {
    const char *name;
    Py_ssize_t state_size;
    /* the legal moves in the Python engine's order, none once the game is over: at
       most cap written to out, the whole count returned (call again with more room
       when it is larger), -1 when memory ran out */
    int (*gen)(const void *s, move_t *out, int cap);
    /* the number of legal moves without coding them (bulk perft), or -1 as gen */
    int (*count)(const void *s);
    /* the position after the legal move m */
    void (*apply)(const void *s, move_t m, void *out);
    /* OUT_NONE while the game goes on, else its end for the side to move */
    int (*outcome)(const void *s);
    int (*evaluate)(const void *s);
    /* a drawn end's score for the side to move; NULL when every draw scores 0 */
    int (*draw_value)(const void *s);
    int (*hint)(const void *s, move_t m);
    /* forced moves a quiescence search plays out, as gen; NULL when the game has none */
    int (*noisy)(const void *s, move_t *out, int cap);
    uint64_t (*hash)(const void *s);
    /* for the learning environments (envs.c), which know no game: a state's squares
       are numbered as the game's board numbers its cells, 0 .. cells - 1 */
    int cells;
    /* each cell's piece into out[cells]: 0 empty, PIECE_FIRST or PIECE_SECOND for the
       seat that owns it, PIECE_KING added for a king */
    void (*squares)(const void *s, int8_t *out);
    /* the cells the legal move m visits, its start and then each landing, into
       out[PATH_MOST]: their number (2 for a move of one leg) */
    int (*path)(const void *s, move_t m, uint8_t *out);
    /* the seat to move (0 the first) */
    int (*to_move)(const void *s);
} GameVT;

enum { PIECE_FIRST = 1, PIECE_SECOND = 2, PIECE_KING = 4 };
#define PATH_MOST 20 /* cells a move visits, at most: Alquerque's 17 captures and its start */

static inline uint64_t mix64(uint64_t x) {
    /* splitmix64's finaliser: a position's words folded into a table key */
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* Python's floor division and its absolute value, for evaluations ported exactly */
static inline int floordiv(int a, int b) {
    int q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1;
    return q;
}
static inline int iabs(int a) { return a < 0 ? -a : a; }
static inline int imax(int a, int b) { return a > b ? a : b; }
static inline int imin(int a, int b) { return a < b ? a : b; }

/* a move list that grows as positions need (Alquerque's capture chains run to
   thousands in a position); -1 from list_moves when memory ran out */
typedef struct {
    move_t *at;
    int cap;
} Moves;
int list_moves(const GameVT *vt, const void *s, Moves *m, int noisy);
void moves_free(Moves *m);

/* grows a game's scratch array *buf (of *cap items of size item) to hold need items;
   0 when memory ran out (the array is then left as it was) */
int grow(void **buf, int *cap, size_t item, int need);

/* each game's table, and its own Python functions (NULL-terminated) */
extern const GameVT VOTEY_VT;
extern PyMethodDef VOTEY_METHODS[];
void votey_init(void);
extern const GameVT CHECKERS_VT;
void checkers_init(void);
extern const GameVT ALQUERQUE_VT;
void alquerque_init(void);
extern const GameVT CHINESE_CHECKERS_VT;
void chinese_checkers_init(void);
extern const GameVT HALMA_VT;
extern PyMethodDef HALMA_METHODS[];
void halma_init(void);

/* Python glue (glue.c) shared by module.c, search.c and the games' own functions: a state
   from bytes (1, or 0 with a ValueError naming the size wanted) and a list of move
   codes (NULL when memory ran out) */
int state_arg(const GameVT *vt, PyObject *bytes, void *out);
PyObject *codes_list(const move_t *moves, int n);
/* a METH_FASTCALL function's entry in a PyMethodDef table */
#define FASTCALL(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL

/* the search type and the learning environments' batch, registered by module.c */
extern PyTypeObject SearcherType;
extern PyTypeObject BatchType;
/* the compiled games (games.c): the table, its length, and a kernel by its name
   (NULL for a game with none) */
extern const GameVT *const GAMES[];
extern const size_t GAME_COUNT;
const GameVT *find_vt(const char *name);

#endif
