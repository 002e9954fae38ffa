/* A minimal Votey Checkers (Lines of Action) player for the contest's referee:
 * started as `player 1` (black, moves first) or `player 2` (white); each move is one
 * line FFTT (from square, to square, each 10 * row + column), negated when it wins;
 * it stops at -1, at the opponent's winning (negative) move, or at the end of input.
 *
 * Make it your own: choose() is where a strategy goes. board[r][c] for r, c in 1..8
 * holds 'b', 'w' or 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static char board[10][10];
static const int DR[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
static const int DC[8] = {-1, 0, 1, -1, 1, -1, 0, 1};

static int on_board(int r, int c) { return r >= 1 && r <= 8 && c >= 1 && c <= 8; }

/* Pieces on the whole line through (r, c) in direction d. */
static int line_count(int r, int c, int d) {
    int n = 1;
    for (int sign = -1; sign <= 1; sign += 2)
        for (int rr = r + sign * DR[d], cc = c + sign * DC[d]; on_board(rr, cc);
             rr += sign * DR[d], cc += sign * DC[d])
            n += board[rr][cc] != 0;
    return n;
}

static int moves[8 * 12 * 2], count;

static void generate(char me) {
    count = 0;
    for (int r = 1; r <= 8; r++)
        for (int c = 1; c <= 8; c++) {
            if (board[r][c] != me) continue;
            for (int d = 0; d < 8; d++) {
                int n = line_count(r, c, d), tr = r + n * DR[d], tc = c + n * DC[d], ok = 1;
                if (!on_board(tr, tc) || board[tr][tc] == me) continue;
                for (int k = 1; k < n; k++) { /* over its own pieces, never the opponent's */
                    char p = board[r + k * DR[d]][c + k * DC[d]];
                    if (p && p != me) ok = 0;
                }
                if (ok) moves[count++] = 1000 * r + 100 * c + 10 * tr + tc;
            }
        }
}

static char apply(int m) { /* returns what was captured, to undo */
    char taken = board[m / 10 % 10][m % 10];
    board[m / 10 % 10][m % 10] = board[m / 1000][m / 100 % 10];
    board[m / 1000][m / 100 % 10] = 0;
    return taken;
}

static void undo(int m, char taken) {
    board[m / 1000][m / 100 % 10] = board[m / 10 % 10][m % 10];
    board[m / 10 % 10][m % 10] = taken;
}

static int connected(char who) {
    int seen[10][10] = {{0}}, stack[64][2], top = 0, total = 0, reached = 0;
    for (int r = 1; r <= 8; r++)
        for (int c = 1; c <= 8; c++)
            if (board[r][c] == who) {
                total++;
                if (!top && !reached) { stack[top][0] = r; stack[top][1] = c; top++; seen[r][c] = 1; }
            }
    while (top) {
        top--;
        int r = stack[top][0], c = stack[top][1];
        reached++;
        for (int d = 0; d < 8; d++) {
            int rr = r + DR[d], cc = c + DC[d];
            if (on_board(rr, cc) && board[rr][cc] == who && !seen[rr][cc]) {
                seen[rr][cc] = 1;
                stack[top][0] = rr; stack[top][1] = cc; top++;
            }
        }
    }
    return total > 0 && reached == total;
}

/* The move to play: here a winning move if there is one, else any move. */
static int choose(char me) {
    for (int i = 0; i < count; i++) {
        char taken = apply(moves[i]);
        int wins = connected(me);
        undo(moves[i], taken);
        if (wins) return moves[i];
    }
    return moves[rand() % count];
}

static int read_move(int *m) {
    char line[64];
    do {
        if (!fgets(line, sizeof line, stdin)) return 0;
    } while (strcmp(line, "0\n") == 0); /* the sheet's development play(0) may send 0 first */
    *m = atoi(line);
    return *m > 0; /* -1, or the opponent's winning move: the game is over */
}

int main(int argc, char **argv) {
    char me = argc > 1 && strcmp(argv[1], "1") == 0 ? 'b' : 'w';
    int m;
    srand((unsigned)time(NULL));
    for (int i = 2; i <= 7; i++) board[1][i] = board[8][i] = 'b', board[i][1] = board[i][8] = 'w';
    if (me == 'w') {
        if (!read_move(&m)) return 0;
        apply(m);
    }
    for (;;) {
        generate(me);
        if (!count) return 0;
        m = choose(me);
        apply(m);
        int wins = connected(me);
        printf("%d\n", wins ? -m : m);
        fflush(stdout);
        if (wins || !read_move(&m)) return 0;
        apply(m);
    }
}
