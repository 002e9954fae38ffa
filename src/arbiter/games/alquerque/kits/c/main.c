/* A minimal Alquerque player for the CodeCup 2008 jury: it reads Start or white's
 * first move, then plays a legal move (a capture when one is due, the longest
 * capture chain first) and reads the opponent's in turn, until Quit, a win or the tie.
 *
 * Make it your own: choose() is where a strategy goes. A point is 7 * rank + file,
 * file 0..6 for a..g, rank 0..6 for 1..7; a move is its points, start first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { EMPTY = 0, WHITE = 1, BLACK = 2, MAXLEN = 32, MAXMOVES = 512 };

typedef struct { int n; int sq[MAXLEN]; } Move;

static int board[49];
static const int DF[8] = {1, -1, 0, 0, 1, 1, -1, -1};
static const int DR[8] = {0, 0, 1, -1, 1, -1, 1, -1};

/* Lines through a point: the four diagonals only where file + rank is even. */
static int lines(int sq) { return ((sq % 7) + (sq / 7)) % 2 == 0 ? 8 : 4; }

static int at(int f, int r) { return f >= 0 && f < 7 && r >= 0 && r < 7 ? 7 * r + f : -1; }

static Move moves[MAXMOVES];
static int count;

static void add(const Move *m) { if (count < MAXMOVES) moves[count++] = *m; }

/* Every capture chain from the last point of m, added when it can go no further. */
static void chains(Move *m, int me) {
    int sq = m->sq[m->n - 1], found = 0;
    for (int d = 0; d < lines(sq); d++) {
        int over = at(sq % 7 + DF[d], sq / 7 + DR[d]);
        int land = at(sq % 7 + 2 * DF[d], sq / 7 + 2 * DR[d]);
        if (land < 0 || board[over] == EMPTY || board[over] == me || board[land] != EMPTY)
            continue;
        if (m->n >= MAXLEN) continue;
        found = 1;
        int taken = board[over];
        board[over] = EMPTY; board[sq] = EMPTY; board[land] = me;
        m->sq[m->n++] = land;
        chains(m, me);
        m->n--;
        board[land] = EMPTY; board[sq] = me; board[over] = taken;
    }
    if (!found && m->n > 1) add(m);
}

/* The legal moves of me; last is its previous normal move (or NULL). */
static void generate(int me, const Move *last) {
    count = 0;
    for (int sq = 0; sq < 49; sq++)
        if (board[sq] == me) { Move m = {1, {sq}}; chains(&m, me); }
    if (count) return; /* capturing is compulsory */
    for (int sq = 0; sq < 49; sq++) {
        if (board[sq] != me) continue;
        for (int d = 0; d < lines(sq); d++) {
            int to = at(sq % 7 + DF[d], sq / 7 + DR[d]);
            if (to < 0 || board[to] != EMPTY) continue;
            if (last && last->sq[0] == to && last->sq[1] == sq) continue; /* no going back */
            Move m = {2, {sq, to}};
            add(&m);
        }
    }
}

static int is_capture(const Move *m) {
    int a = m->sq[0], b = m->sq[1];
    return abs(a % 7 - b % 7) == 2 || abs(a / 7 - b / 7) == 2;
}

static void apply(const Move *m, int me) {
    board[m->sq[0]] = EMPTY;
    for (int i = 0; i + 1 < m->n; i++) {
        int a = m->sq[i], b = m->sq[i + 1];
        if (is_capture(m)) board[(a + b) / 2] = EMPTY;
    }
    board[m->sq[m->n - 1]] = me;
}

static void print_move(const Move *m) {
    for (int i = 0; i < m->n; i++) {
        if (i) putchar(is_capture(m) ? '*' : '-');
        printf("%c%d", 'a' + m->sq[i] % 7, m->sq[i] / 7 + 1);
    }
    putchar('\n');
    fflush(stdout);
}

static int parse(const char *line, Move *m) {
    m->n = 0;
    for (const char *p = line; p[0] >= 'a' && p[0] <= 'g' && p[1] >= '1' && p[1] <= '7'; p += 3) {
        if (m->n < MAXLEN) m->sq[m->n++] = 7 * (p[1] - '1') + (p[0] - 'a');
        if (p[2] != '-' && p[2] != '*') break;
    }
    return m->n >= 2;
}

/* The move to play: here the longest capture, else any move. */
static const Move *choose(void) {
    int longest = 0, best = 0, ties = 0;
    for (int i = 0; i < count; i++) if (moves[i].n > longest) longest = moves[i].n;
    for (int i = 0; i < count; i++)
        if (moves[i].n == longest && rand() % ++ties == 0) best = i;
    return &moves[best];
}

int main(void) {
    char line[256];
    Move last[3] = {{0}}, m;
    int has_last[3] = {0}, plies = 0;
    srand((unsigned)time(NULL));
    for (int sq = 0; sq < 49; sq++) {
        int f = sq % 7, r = sq / 7;
        board[sq] = (r < 3 || (r == 3 && f >= 4)) ? WHITE : (r > 3 || (r == 3 && f <= 2)) ? BLACK : EMPTY;
    }
    if (!fgets(line, sizeof line, stdin)) return 0;
    int me = strncmp(line, "Start", 5) == 0 ? WHITE : BLACK, other = 3 - me;
    for (;;) {
        if (strncmp(line, "Quit", 4) == 0) return 0;
        if (strncmp(line, "Start", 5) != 0) {
            if (!parse(line, &m)) { fprintf(stderr, "cannot read move %s", line); return 1; }
            has_last[other] = !is_capture(&m);
            last[other] = m;
            apply(&m, other);
            if (++plies == 200) return 0; /* both made 100 moves: a tie; stop by ourselves */
        }
        generate(me, has_last[me] ? &last[me] : NULL);
        if (!count) return 0; /* we lost; the jury says Quit */
        m = *choose();
        print_move(&m);
        has_last[me] = !is_capture(&m);
        last[me] = m;
        apply(&m, me);
        ++plies;
        generate(other, has_last[other] ? &last[other] : NULL);
        if (plies == 200 || !count) return 0; /* a tie or our win: stop by ourselves */
        if (!fgets(line, sizeof line, stdin)) return 0;
    }
}
