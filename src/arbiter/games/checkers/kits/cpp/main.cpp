// A minimal American checkers engine for the AI Wars 2011 referee: started as
// `player 1` (red, moves first, from squares 1-12 towards 32) or `player 2` (white);
// each turn it reads the 8 board rows (8 digits: 0 empty, 1 red, 2 white, 3 red king,
// 4 white king) and writes one move over squares 1..32: `9-13` for a step, `22x15x6`
// for captures with every landing square. It stops when its input ends.
//
// Make it your own: choose() is where a strategy goes. board[row][col], both 0..7,
// row 0 at the top; dark squares have row + col odd.
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <utility>
#include <vector>

using Square = std::pair<int, int>;
using Move = std::vector<Square>;

static std::vector<std::string> board(8);
static char me, king;
static std::mt19937 rng{std::random_device{}()};

static bool mine(char p) { return p == me || p == king; }
static bool theirs(char p) { return p != '0' && !mine(p); }
static int number(Square s) { return s.first * 4 + s.second / 2 + 1; }
static bool inside(int r, int c) { return r >= 0 && r < 8 && c >= 0 && c < 8; }

// Row steps a piece may take: men forward only, kings both ways.
static std::vector<int> rows_for(char p) {
    if (p == '1') return {1};
    if (p == '2') return {-1};
    return {1, -1};
}

// Every complete capture chain from the last square of m.
static void jumps(Move& m, char piece, std::vector<Move>& out) {
    auto [r, c] = m.back();
    bool crowned = m.size() > 1 && ((piece == '1' && r == 7) || (piece == '2' && r == 0));
    bool found = false;
    if (!crowned)  // a man crowned ends its move there
        for (int dr : rows_for(piece))
            for (int dc : {-1, 1}) {
                int orow = r + dr, ocol = c + dc, lr = r + 2 * dr, lc = c + 2 * dc;
                if (!inside(lr, lc) || !theirs(board[orow][ocol]) || board[lr][lc] != '0') continue;
                found = true;
                char taken = board[orow][ocol];
                board[orow][ocol] = board[r][c] = '0';
                board[lr][lc] = piece;
                m.push_back({lr, lc});
                jumps(m, piece, out);
                m.pop_back();
                board[lr][lc] = '0';
                board[r][c] = piece;
                board[orow][ocol] = taken;
            }
    if (!found && m.size() > 1) out.push_back(m);
}

static std::vector<Move> legal_moves() {
    std::vector<Move> out;
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++)
            if (mine(board[r][c])) {
                Move m{{r, c}};
                jumps(m, board[r][c], out);
            }
    if (!out.empty()) return out;  // capturing is compulsory
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++)
            if (mine(board[r][c]))
                for (int dr : rows_for(board[r][c]))
                    for (int dc : {-1, 1})
                        if (inside(r + dr, c + dc) && board[r + dr][c + dc] == '0')
                            out.push_back({{r, c}, {r + dr, c + dc}});
    return out;
}

// The move to play: here the longest capture, else any move.
static Move choose(const std::vector<Move>& moves) {
    size_t longest = 0;
    for (const auto& m : moves) longest = std::max(longest, m.size());
    std::vector<Move> best;
    for (const auto& m : moves)
        if (m.size() == longest) best.push_back(m);
    return best[std::uniform_int_distribution<size_t>(0, best.size() - 1)(rng)];
}

int main(int argc, char** argv) {
    me = argc > 1 && std::string(argv[1]) == "1" ? '1' : '2';
    king = char(me + 2);
    for (;;) {
        for (int row = 0; row < 8;) {
            std::string line;
            if (!std::getline(std::cin, line)) return 0;  // the game is over
            if (line.size() >= 8) board[row++] = line.substr(0, 8);
        }
        auto moves = legal_moves();
        if (moves.empty()) return 0;
        Move m = choose(moves);
        bool capture = std::abs(m[0].first - m[1].first) == 2;
        std::string text = std::to_string(number(m[0]));
        for (size_t i = 1; i < m.size(); i++) text += (capture ? "x" : "-") + std::to_string(number(m[i]));
        std::cout << text << std::endl;
    }
}
