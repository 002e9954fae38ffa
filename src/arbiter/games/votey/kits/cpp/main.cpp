// A minimal Votey Checkers (Lines of Action) player for the contest's referee:
// started as `player 1` (black, moves first) or `player 2` (white); each move is one
// line FFTT (from square, to square, each 10 * row + column), negated when it wins;
// it stops at -1, at the opponent's winning (negative) move, or at the end of input.
//
// Make it your own: choose() is where a strategy goes. board[r][c], r and c in 1..8.
#include <array>
#include <iostream>
#include <random>
#include <string>
#include <vector>

static std::array<std::array<char, 10>, 10> board{};
static const int DR[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
static const int DC[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
static std::mt19937 rng{std::random_device{}()};

static bool on_board(int r, int c) { return r >= 1 && r <= 8 && c >= 1 && c <= 8; }

// Pieces on the whole line through (r, c) in direction d.
static int line_count(int r, int c, int d) {
    int n = 1;
    for (int sign : {-1, 1})
        for (int rr = r + sign * DR[d], cc = c + sign * DC[d]; on_board(rr, cc);
             rr += sign * DR[d], cc += sign * DC[d])
            n += board[rr][cc] != 0;
    return n;
}

static std::vector<int> legal_moves(char me) {
    std::vector<int> out;
    for (int r = 1; r <= 8; r++)
        for (int c = 1; c <= 8; c++) {
            if (board[r][c] != me) continue;
            for (int d = 0; d < 8; d++) {
                int n = line_count(r, c, d), tr = r + n * DR[d], tc = c + n * DC[d];
                if (!on_board(tr, tc) || board[tr][tc] == me) continue;
                bool blocked = false;  // it passes its own pieces, never the opponent's
                for (int k = 1; k < n; k++) {
                    char p = board[r + k * DR[d]][c + k * DC[d]];
                    blocked |= p && p != me;
                }
                if (!blocked) out.push_back(1000 * r + 100 * c + 10 * tr + tc);
            }
        }
    return out;
}

static char apply(int m) {  // returns what it captured, to undo
    char& from = board[m / 1000][m / 100 % 10];
    char& to = board[m / 10 % 10][m % 10];
    char taken = to;
    to = from;
    from = 0;
    return taken;
}

static void undo(int m, char taken) {
    board[m / 1000][m / 100 % 10] = board[m / 10 % 10][m % 10];
    board[m / 10 % 10][m % 10] = taken;
}

static bool connected(char who) {
    std::vector<std::pair<int, int>> todo;
    std::array<std::array<bool, 10>, 10> seen{};
    int total = 0, reached = 0;
    for (int r = 1; r <= 8; r++)
        for (int c = 1; c <= 8; c++)
            if (board[r][c] == who) {
                if (!total++) todo.push_back({r, c}), seen[r][c] = true;
            }
    while (!todo.empty()) {
        auto [r, c] = todo.back();
        todo.pop_back();
        reached++;
        for (int d = 0; d < 8; d++) {
            int rr = r + DR[d], cc = c + DC[d];
            if (on_board(rr, cc) && board[rr][cc] == who && !seen[rr][cc]) {
                seen[rr][cc] = true;
                todo.push_back({rr, cc});
            }
        }
    }
    return total > 0 && reached == total;
}

// The move to play: here a winning move if there is one, else any move.
static int choose(const std::vector<int>& moves, char me) {
    for (int m : moves) {
        char taken = apply(m);
        bool wins = connected(me);
        undo(m, taken);
        if (wins) return m;
    }
    return moves[std::uniform_int_distribution<size_t>(0, moves.size() - 1)(rng)];
}

static bool read_move(int& m) {
    std::string line;
    do {
        if (!std::getline(std::cin, line)) return false;
    } while (line == "0");  // the sheet's development play(0) may send 0 first
    m = std::stoi(line);
    return m > 0;  // -1, or the opponent's winning move: the game is over
}

int main(int argc, char** argv) {
    char me = argc > 1 && std::string(argv[1]) == "1" ? 'b' : 'w';
    for (int i = 2; i <= 7; i++) board[1][i] = board[8][i] = 'b', board[i][1] = board[i][8] = 'w';
    int m;
    if (me == 'w') {
        if (!read_move(m)) return 0;
        apply(m);
    }
    for (;;) {
        auto moves = legal_moves(me);
        if (moves.empty()) return 0;
        m = choose(moves, me);
        apply(m);
        bool wins = connected(me);
        std::cout << (wins ? -m : m) << std::endl;
        if (wins || !read_move(m)) return 0;
        apply(m);
    }
}
