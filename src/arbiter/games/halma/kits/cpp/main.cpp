// A minimal Halma player for the homework's referee: run once per move in its own
// folder, it reads input.txt (SINGLE or GAME, BLACK or WHITE, the seconds left, 16
// rows of W, B and .) and writes one legal move to output.txt: `E x,y x,y` for a
// step, or one `J x,y x,y` line per hop of a jump chain. Black's camp is by 0,0,
// white's by 15,15; the camp rules 1(a) and 1(b) and "a piece in the opposing camp
// stays there" are kept.
//
// Make it your own: choose() is where a strategy goes. board[y][x].
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

using Square = std::pair<int, int>;  // x, y
struct Move {
    Square from, to;
    bool jump;
    std::vector<Square> path;  // every square from start to end
};

static std::vector<std::string> board(16);
static char me;

static bool in_black_camp(int x, int y) {
    static const int ROW[5] = {5, 5, 4, 3, 2};
    return y < 5 && x < ROW[y];
}
static bool in_camp(char who, Square s) {
    return who == 'B' ? in_black_camp(s.first, s.second) : in_black_camp(15 - s.first, 15 - s.second);
}
static bool inside(int x, int y) { return x >= 0 && x < 16 && y >= 0 && y < 16; }
static char at(Square s) { return board[s.second][s.first]; }

// Every end of the piece on start: steps to an empty neighbour and chains of hops.
static std::vector<Move> ends(Square start) {
    std::vector<Move> out;
    auto [x, y] = start;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            if ((dx || dy) && inside(x + dx, y + dy) && board[y + dy][x + dx] == '.')
                out.push_back({start, {x + dx, y + dy}, false, {start, {x + dx, y + dy}}});
    std::map<Square, std::vector<Square>> paths{{start, {start}}};
    std::vector<Square> todo{start};
    while (!todo.empty()) {
        Square a = todo.back();
        todo.pop_back();
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                Square over{a.first + dx, a.second + dy}, land{a.first + 2 * dx, a.second + 2 * dy};
                if (!(dx || dy) || !inside(land.first, land.second) || paths.count(land)) continue;
                bool jumped = over != start && at(over) != '.';  // its start is empty now
                bool free = land == start || at(land) == '.';
                if (!jumped || !free) continue;
                paths[land] = paths[a];
                paths[land].push_back(land);
                todo.push_back(land);
            }
    }
    for (auto& [end, path] : paths)
        if (end != start) out.push_back({start, end, true, path});
    return out;
}

static bool further(Square a, Square b, Square corner) {
    int dx = std::abs(b.first - corner.first) - std::abs(a.first - corner.first);
    int dy = std::abs(b.second - corner.second) - std::abs(a.second - corner.second);
    return dx >= 0 && dy >= 0 && (dx > 0 || dy > 0);
}

static std::vector<Move> legal_moves() {
    char other = me == 'B' ? 'W' : 'B';
    Square corner = me == 'B' ? Square{0, 0} : Square{15, 15};
    std::vector<Move> moves, leaving, deeper;
    bool home = false;
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            if (board[y][x] != me) continue;
            home |= in_camp(me, {x, y});
            for (auto& m : ends({x, y})) {
                if (!in_camp(me, m.from) && in_camp(me, m.to)) continue;  // 1(a)
                if (in_camp(other, m.from) && !in_camp(other, m.to)) continue;  // stays there
                moves.push_back(m);
                if (in_camp(me, m.from) && !in_camp(me, m.to)) leaving.push_back(m);
                if (in_camp(me, m.from) && in_camp(me, m.to) && further(m.from, m.to, corner))
                    deeper.push_back(m);
            }
        }
    if (home && !leaving.empty()) return leaving;  // 1(b): out of the camp first,
    if (home && !deeper.empty()) return deeper;    // else further from its corner
    return moves;
}

// The move to play: here one that goes furthest towards the opposing corner.
static Move choose(const std::vector<Move>& moves) {
    int goal = me == 'B' ? 15 : 0, best = -99;
    std::vector<Move> top;
    for (const auto& m : moves) {
        int gain = std::abs(m.from.first - goal) + std::abs(m.from.second - goal) -
                   std::abs(m.to.first - goal) - std::abs(m.to.second - goal);
        if (gain > best) best = gain, top.clear();
        if (gain == best) top.push_back(m);
    }
    std::mt19937 rng{std::random_device{}()};
    return top[std::uniform_int_distribution<size_t>(0, top.size() - 1)(rng)];
}

int main() {
    std::ifstream in("input.txt");
    std::string mode, colour;
    double seconds;
    if (!(in >> mode >> colour >> seconds)) return 1;
    for (auto& row : board)
        if (!(in >> row) || row.size() != 16) return 1;
    me = colour == "BLACK" ? 'B' : 'W';
    auto moves = legal_moves();
    if (moves.empty()) return 0;
    Move m = choose(moves);
    std::ofstream out("output.txt");
    for (size_t i = 0; i + 1 < m.path.size(); i++)
        out << (m.jump ? 'J' : 'E') << ' ' << m.path[i].first << ',' << m.path[i].second << ' '
            << m.path[i + 1].first << ',' << m.path[i + 1].second << '\n';
}
