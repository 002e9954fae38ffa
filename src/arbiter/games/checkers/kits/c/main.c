/* A minimal American checkers engine for the AI Wars 2011 referee: started as
 * `player 1` (red, moves first, from squares 1-12 towards 32) or `player 2` (white);
 * each turn it reads the 8 board rows (8 digits: 0 empty, 1 red, 2 white, 3 red king,
 * 4 white king) and writes one move over squares 1..32: `9-13` for a step, `22x15x6`
 * for captures with every landing square. It stops when its input ends.
 *
 * Make it your own: choose() is where a strategy goes. board[row][col], both 0..7,
 * row 0 at the top; dark squares have row + col odd. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAXLEN = 16, MAXMOVES = 256 };
typedef struct { int n, sq[MAXLEN][2]; } Move;

static char board[8][9];
static char me, king;
static Move moves[MAXMOVES];
static int count;

static int mine(char p) { return p == me || p == king; }
static int theirs(char p) { return p != '0' && !mine(p); }
static int number(int r, int c) { return r * 4 + c / 2 + 1; }
static int dirs(char p, int *out) { /* row steps: men forward only, kings both ways */
    if (p == '1') { out[0] = 1; return 1; }
    if (p == '2') { out[0] = -1; return 1; }
    out[0] = 1; out[1] = -1; return 2;
}

static void add(const Move *m) { if (count < MAXMOVES) moves[count++] = *m; }

/* Every complete capture chain from the last square of m. */
static void jumps(Move *m, char piece) {
    int r = m->sq[m->n - 1][0], c = m->sq[m->n - 1][1], d[2], found = 0;
    int crowned = m->n > 1 && ((piece == '1' && r == 7) || (piece == '2' && r == 0));
    int lines = crowned ? 0 : dirs(piece, d); /* a man crowned ends its move there */
    for (int i = 0; i < lines; i++)
        for (int dc = -1; dc <= 1; dc += 2) {
            int orow = r + d[i], ocol = c + dc, lr = r + 2 * d[i], lc = c + 2 * dc;
            if (lr < 0 || lr > 7 || lc < 0 || lc > 7) continue;
            if (!theirs(board[orow][ocol]) || board[lr][lc] != '0' || m->n >= MAXLEN) continue;
            char taken = board[orow][ocol];
            found = 1;
            board[orow][ocol] = '0'; board[r][c] = '0'; board[lr][lc] = piece;
            m->sq[m->n][0] = lr; m->sq[m->n][1] = lc; m->n++;
            jumps(m, piece);
            m->n--;
            board[lr][lc] = '0'; board[r][c] = piece; board[orow][ocol] = taken;
        }
    if (!found && m->n > 1) add(m);
}

static void generate(void) {
    count = 0;
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++)
            if (mine(board[r][c])) { Move m = {1, {{r, c}}}; jumps(&m, board[r][c]); }
    if (count) return; /* capturing is compulsory */
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++) {
            if (!mine(board[r][c])) continue;
            int d[2], n = dirs(board[r][c], d);
            for (int i = 0; i < n; i++)
                for (int dc = -1; dc <= 1; dc += 2) {
                    int tr = r + d[i], tc = c + dc;
                    if (tr >= 0 && tr < 8 && tc >= 0 && tc < 8 && board[tr][tc] == '0') {
                        Move m = {2, {{r, c}, {tr, tc}}};
                        add(&m);
                    }
                }
        }
}

/* The move to play: here the longest capture, else any move. */
static const Move *choose(void) {
    int longest = 0, best = 0, ties = 0;
    for (int i = 0; i < count; i++) if (moves[i].n > longest) longest = moves[i].n;
    for (int i = 0; i < count; i++)
        if (moves[i].n == longest && rand() % ++ties == 0) best = i;
    return &moves[best];
}

int main(int argc, char **argv) {
    char line[256];
    me = argc > 1 && strcmp(argv[1], "1") == 0 ? '1' : '2';
    king = me + 2;
    srand((unsigned)time(NULL));
    for (;;) {
        for (int row = 0; row < 8;) {
            if (!fgets(line, sizeof line, stdin)) return 0; /* the game is over */
            if (strlen(line) < 8) continue;
            memcpy(board[row], line, 8);
            board[row++][8] = 0;
        }
        generate();
        if (!count) return 0;
        const Move *m = choose();
        int capture = abs(m->sq[0][0] - m->sq[1][0]) == 2;
        printf("%d", number(m->sq[0][0], m->sq[0][1]));
        for (int i = 1; i < m->n; i++)
            printf("%c%d", capture ? 'x' : '-', number(m->sq[i][0], m->sq[i][1]));
        printf("\n");
        fflush(stdout);
    }
}
