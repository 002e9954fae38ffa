/* A minimal Halma player for the homework's referee: run once per move in its own
 * folder, it reads input.txt (SINGLE or GAME, BLACK or WHITE, the seconds left, 16
 * rows of W, B and .) and writes one legal move to output.txt: `E x,y x,y` for a
 * step, or one `J x,y x,y` line per hop of a jump chain. Black's camp is by 0,0,
 * white's by 15,15; the camp rules 1(a) and 1(b) and "a piece in the opposing camp
 * stays there" are kept.
 *
 * Make it your own: choose() is where a strategy goes. board[y][x]. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct { int fx, fy, tx, ty, jump; } Move;

static char board[16][17], me;
static Move moves[19 * 256];
static int count;
static int parent[16][16]; /* during a jump search: the square a hop came from */

static int in_black_camp(int x, int y) {
    static const int ROW[5] = {5, 5, 4, 3, 2};
    return y < 5 && x < ROW[y];
}
static int in_camp(char who, int x, int y) {
    return who == 'B' ? in_black_camp(x, y) : in_black_camp(15 - x, 15 - y);
}
static int inside(int x, int y) { return x >= 0 && x < 16 && y >= 0 && y < 16; }

/* The camp rules 1(a) and the opposing camp's. */
static int allowed(int fx, int fy, int tx, int ty) {
    char other = me == 'B' ? 'W' : 'B';
    if (!in_camp(me, fx, fy) && in_camp(me, tx, ty)) return 0;
    if (in_camp(other, fx, fy) && !in_camp(other, tx, ty)) return 0;
    return 1;
}

static void add(int fx, int fy, int tx, int ty, int jump) {
    if ((fx != tx || fy != ty) && allowed(fx, fy, tx, ty)) {
        Move m = {fx, fy, tx, ty, jump};
        moves[count++] = m;
    }
}

/* Every square the piece on (x, y) reaches by a chain of hops (its start, empty
 * while it jumps, not counted), and for each the square its last hop came from. */
static void hops(int x, int y, int reached[16][16]) {
    int todo[256], top = 0;
    char piece = board[y][x];
    memset(reached, 0, 16 * 16 * sizeof(int));
    board[y][x] = '.';
    reached[y][x] = 1;
    todo[top++] = 16 * y + x;
    while (top) {
        int a = todo[--top], ax = a % 16, ay = a / 16;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int ox = ax + dx, oy = ay + dy, lx = ax + 2 * dx, ly = ay + 2 * dy;
                if (!(dx || dy) || !inside(lx, ly) || reached[ly][lx]) continue;
                if (board[oy][ox] == '.' || board[ly][lx] != '.') continue;
                reached[ly][lx] = 1;
                parent[ly][lx] = a;
                todo[top++] = 16 * ly + lx;
            }
    }
    board[y][x] = piece;
    reached[y][x] = 0;
}

static void generate(void) {
    count = 0;
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            if (board[y][x] != me) continue;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    if ((dx || dy) && inside(x + dx, y + dy) && board[y + dy][x + dx] == '.')
                        add(x, y, x + dx, y + dy, 0);
            int reached[16][16];
            hops(x, y, reached);
            for (int ly = 0; ly < 16; ly++)
                for (int lx = 0; lx < 16; lx++)
                    if (reached[ly][lx]) add(x, y, lx, ly, 1);
        }
    /* 1(b): while a piece is in the camp, move one out, else one further from the corner */
    int at_home = 0, out = 0, deeper = 0, cx = me == 'B' ? 0 : 15, cy = cx;
    for (int i = 0; i < count; i++) {
        Move m = moves[i];
        if (!in_camp(me, m.fx, m.fy)) continue;
        at_home = 1;
        if (!in_camp(me, m.tx, m.ty)) out = 1;
        else if (abs(m.tx - cx) >= abs(m.fx - cx) && abs(m.ty - cy) >= abs(m.fy - cy)) deeper = 1;
    }
    if (!at_home || (!out && !deeper)) return;
    int kept = 0;
    for (int i = 0; i < count; i++) {
        Move m = moves[i];
        int home = in_camp(me, m.fx, m.fy), leaves = home && !in_camp(me, m.tx, m.ty);
        int further = home && !leaves && abs(m.tx - cx) >= abs(m.fx - cx) && abs(m.ty - cy) >= abs(m.fy - cy);
        if (out ? leaves : further) moves[kept++] = m;
    }
    count = kept;
}

/* The squares of a jump from its end back to its start; returns the number of hops. */
static int path(Move m, int *xs, int *ys) {
    int reached[16][16], n = 0, at = 16 * m.ty + m.tx;
    hops(m.fx, m.fy, reached);
    while (at != 16 * m.fy + m.fx) {
        xs[n] = at % 16; ys[n] = at / 16; n++;
        at = parent[at / 16][at % 16];
    }
    xs[n] = m.fx; ys[n] = m.fy;
    return n;
}

/* The move to play: here one that goes furthest towards the opposing corner. */
static Move choose(void) {
    int gx = me == 'B' ? 15 : 0, best = -99, pick = 0, ties = 0;
    for (int i = 0; i < count; i++) {
        Move m = moves[i];
        int gain = abs(m.fx - gx) + abs(m.fy - gx) - abs(m.tx - gx) - abs(m.ty - gx);
        if (gain > best) { best = gain; pick = i; ties = 1; }
        else if (gain == best && rand() % ++ties == 0) pick = i;
    }
    return moves[pick];
}

int main(void) {
    char mode[16], colour[16], line[64];
    double seconds;
    FILE *in = fopen("input.txt", "r");
    if (!in || fscanf(in, "%15s %15s %lf", mode, colour, &seconds) != 3) return 1;
    for (int y = 0; y < 16; y++) {
        if (fscanf(in, "%63s", line) != 1 || strlen(line) != 16) return 1;
        memcpy(board[y], line, 17);
    }
    fclose(in);
    srand((unsigned)time(NULL));
    me = colour[0] == 'B' ? 'B' : 'W';
    generate();
    if (!count) return 0;
    Move m = choose();
    FILE *out = fopen("output.txt", "w");
    if (!m.jump) {
        fprintf(out, "E %d,%d %d,%d\n", m.fx, m.fy, m.tx, m.ty);
    } else {
        int xs[256], ys[256], n = path(m, xs, ys);
        for (int i = n; i > 0; i--) fprintf(out, "J %d,%d %d,%d\n", xs[i], ys[i], xs[i - 1], ys[i - 1]);
    }
    fclose(out);
    return 0;
}
