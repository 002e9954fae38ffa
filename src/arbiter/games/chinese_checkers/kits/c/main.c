/* A minimal Chinese checkers player for the 1997 ACM Hong Kong mediator: it reads
 * `1` (it moves first) or `2`, then writes one move `FROM TO` and reads the
 * opponent's in turn. Every player sees the board from its own side: its home is
 * holes 1-10 at the bottom, the opponent's 112-121 at the top, where it must bring
 * its ten marbles. It stops when its input ends.
 *
 * Make it your own: choose() is where a strategy goes. Holes are numbered 1..121
 * from the bottom, left to right; hole h sits at (X[h], Y[h]), x in half-steps. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { HOLES = 121, EMPTY = 0, MINE = 1, THEIRS = 2 };

static const int ROWS[17] = {1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1};
static const int DX[6] = {2, -2, 1, -1, 1, -1}, DY[6] = {0, 0, 1, 1, -1, -1};
static const int NEUTRAL[40] = {11, 12, 13, 14, 24, 25, 26, 36, 37, 47, 20, 21, 22, 23,
    33, 34, 35, 45, 46, 56, 66, 76, 77, 87, 88, 89, 99, 100, 101, 102, 75, 85, 86, 96,
    97, 98, 108, 109, 110, 111};

static int X[HOLES + 1], Y[HOLES + 1], at[40][17]; /* at[x + 20][y]: hole, or 0 */
static int board[HOLES + 1], neutral[HOLES + 1];
static int moves[4096][2], count;

static int hole_at(int x, int y) {
    return x >= -20 && x < 20 && y >= 0 && y < 17 ? at[x + 20][y] : 0;
}

static void add(int from, int to) {
    if (to == from || neutral[to]) return; /* never ends in a neutral triangle or at its start */
    for (int i = 0; i < count; i++) if (moves[i][0] == from && moves[i][1] == to) return;
    if (count < 4096) { moves[count][0] = from; moves[count][1] = to; count++; }
}

static void generate(void) {
    count = 0;
    for (int from = 1; from <= HOLES; from++) {
        if (board[from] != MINE) continue;
        board[from] = EMPTY; /* the moving marble's hole counts as empty */
        for (int d = 0; d < 6; d++) {
            int to = hole_at(X[from] + DX[d], Y[from] + DY[d]);
            if (to && board[to] == EMPTY) add(from, to);
        }
        int seen[HOLES + 1] = {0}, todo[HOLES + 1], top = 0;
        seen[from] = 1;
        todo[top++] = from;
        while (top) { /* chains of long hops */
            int a = todo[--top];
            for (int d = 0; d < 6; d++) {
                int k = 1, h;
                while ((h = hole_at(X[a] + k * DX[d], Y[a] + k * DY[d])) && board[h] == EMPTY) k++;
                if (!h) continue; /* no marble on this line */
                int ok = 1, land = 0;
                for (int j = k + 1; j <= 2 * k && ok; j++) {
                    land = hole_at(X[a] + j * DX[d], Y[a] + j * DY[d]);
                    ok = land && board[land] == EMPTY;
                }
                if (ok && !seen[land]) {
                    seen[land] = 1;
                    todo[top++] = land;
                    add(from, land);
                }
            }
        }
        board[from] = MINE;
    }
}

/* The move to play: here one that goes furthest up the board. */
static int choose(void) {
    int best = -99, pick = 0, ties = 0;
    for (int i = 0; i < count; i++) {
        int gain = Y[moves[i][1]] - Y[moves[i][0]];
        if (gain > best) { best = gain; pick = i; ties = 1; }
        else if (gain == best && rand() % ++ties == 0) pick = i;
    }
    return pick;
}

static int read_move(void) {
    int from, to;
    if (scanf("%d %d", &from, &to) != 2) return 0; /* the game is over */
    board[to] = board[from];
    board[from] = EMPTY;
    return 1;
}

int main(void) {
    int first, h = 1;
    srand((unsigned)time(NULL));
    for (int y = 0; y < 17; y++)
        for (int i = 0; i < ROWS[y]; i++, h++) {
            X[h] = 2 * i - (ROWS[y] - 1);
            Y[h] = y;
            at[X[h] + 20][y] = h;
        }
    for (int i = 0; i < 40; i++) neutral[NEUTRAL[i]] = 1;
    for (h = 1; h <= 10; h++) board[h] = MINE, board[HOLES + 1 - h] = THEIRS;
    if (scanf("%d", &first) != 1) return 0;
    if (first == 2 && !read_move()) return 0;
    for (;;) {
        generate();
        if (!count) return 0;
        int i = choose();
        printf("%d %d\n", moves[i][0], moves[i][1]);
        fflush(stdout);
        board[moves[i][1]] = MINE;
        board[moves[i][0]] = EMPTY;
        if (!read_move()) return 0;
    }
}
