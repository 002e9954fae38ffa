// A minimal Chinese checkers player for the 1997 ACM Hong Kong mediator: it reads
// `1` (it moves first) or `2`, then writes one move `FROM TO` and reads the
// opponent's in turn. Every player sees the board from its own side: its home is
// holes 1-10 at the bottom, the opponent's 112-121 at the top, where it must bring
// its ten marbles. It stops when its input ends.
//
// Make it your own: choose() is where a strategy goes. Holes are numbered 1..121
// from the bottom, left to right; hole h sits at (X[h], Y[h]), x in half-steps.
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <utility>
#include <vector>

enum Holder { EMPTY, MINE, THEIRS };
static const int ROWS[17] = {1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1};
static const int DX[6] = {2, -2, 1, -1, 1, -1}, DY[6] = {0, 0, 1, 1, -1, -1};
static const std::set<int> NEUTRAL = {11, 12, 13, 14, 24, 25, 26, 36, 37, 47, 20, 21, 22, 23,
    33, 34, 35, 45, 46, 56, 66, 76, 77, 87, 88, 89, 99, 100, 101, 102, 75, 85, 86, 96, 97, 98,
    108, 109, 110, 111};

static std::vector<int> X(122), Y(122), board(122, EMPTY);
static std::map<std::pair<int, int>, int> hole_at;
static std::mt19937 rng{std::random_device{}()};

static int hole(int x, int y) {
    auto it = hole_at.find({x, y});
    return it == hole_at.end() ? 0 : it->second;
}

// Where one long hop from a lands on each line: the first marble at distance k, the
// landing hole at 2k, every hole between them and the landing empty.
static std::vector<int> hops(int a) {
    std::vector<int> out;
    for (int d = 0; d < 6; d++) {
        int k = 1, h;
        while ((h = hole(X[a] + k * DX[d], Y[a] + k * DY[d])) && board[h] == EMPTY) k++;
        if (!h) continue;
        int land = 0;
        bool ok = true;
        for (int j = k + 1; j <= 2 * k && ok; j++) {
            land = hole(X[a] + j * DX[d], Y[a] + j * DY[d]);
            ok = land && board[land] == EMPTY;
        }
        if (ok) out.push_back(land);
    }
    return out;
}

static std::vector<std::pair<int, int>> legal_moves() {
    std::set<std::pair<int, int>> moves;
    for (int from = 1; from <= 121; from++) {
        if (board[from] != MINE) continue;
        board[from] = EMPTY;  // the moving marble's hole counts as empty
        for (int d = 0; d < 6; d++) {
            int to = hole(X[from] + DX[d], Y[from] + DY[d]);
            if (to && board[to] == EMPTY) moves.insert({from, to});
        }
        std::set<int> seen{from};
        std::vector<int> todo{from};
        while (!todo.empty()) {  // chains of long hops
            int a = todo.back();
            todo.pop_back();
            for (int land : hops(a))
                if (seen.insert(land).second) {
                    todo.push_back(land);
                    moves.insert({from, land});
                }
        }
        board[from] = MINE;
    }
    std::vector<std::pair<int, int>> out;
    for (auto m : moves)
        if (m.second != m.first && !NEUTRAL.count(m.second)) out.push_back(m);  // never ends neutral
    return out;
}

// The move to play: here one that goes furthest up the board.
static std::pair<int, int> choose(const std::vector<std::pair<int, int>>& moves) {
    int best = -99;
    std::vector<std::pair<int, int>> top;
    for (auto m : moves) {
        int gain = Y[m.second] - Y[m.first];
        if (gain > best) best = gain, top.clear();
        if (gain == best) top.push_back(m);
    }
    return top[std::uniform_int_distribution<size_t>(0, top.size() - 1)(rng)];
}

static bool read_move() {
    int from, to;
    if (!(std::cin >> from >> to)) return false;  // the game is over
    board[to] = board[from];
    board[from] = EMPTY;
    return true;
}

int main() {
    for (int y = 0, h = 1; y < 17; y++)
        for (int i = 0; i < ROWS[y]; i++, h++) {
            X[h] = 2 * i - (ROWS[y] - 1);
            Y[h] = y;
            hole_at[{X[h], y}] = h;
        }
    for (int h = 1; h <= 10; h++) board[h] = MINE, board[122 - h] = THEIRS;
    int first;
    if (!(std::cin >> first)) return 0;
    if (first == 2 && !read_move()) return 0;
    for (;;) {
        auto moves = legal_moves();
        if (moves.empty()) return 0;
        auto [from, to] = choose(moves);
        std::cout << from << ' ' << to << std::endl;
        board[to] = MINE;
        board[from] = EMPTY;
        if (!read_move()) return 0;
    }
}
