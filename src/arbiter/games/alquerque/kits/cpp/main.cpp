// A minimal Alquerque player for the CodeCup 2008 jury: it reads Start or white's
// first move, then plays a legal move (a capture when one is due, the longest
// capture chain first) and reads the opponent's in turn, until Quit, a win or the tie.
//
// Make it your own: choose() is where a strategy goes. A point is 7 * rank + file,
// file 0..6 for a..g, rank 0..6 for 1..7; a move is its points, start first.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <vector>

using Move = std::vector<int>;
enum Piece { EMPTY, WHITE, BLACK };

static std::array<int, 49> board;
static const int DF[8] = {1, -1, 0, 0, 1, 1, -1, -1};
static const int DR[8] = {0, 0, 1, -1, 1, -1, 1, -1};
static std::mt19937 rng{std::random_device{}()};

// Lines through a point: the four diagonals only where file + rank is even.
static int lines(int sq) { return (sq % 7 + sq / 7) % 2 == 0 ? 8 : 4; }
static int at(int f, int r) { return f >= 0 && f < 7 && r >= 0 && r < 7 ? 7 * r + f : -1; }

static bool is_capture(const Move& m) {
    return std::abs(m[0] % 7 - m[1] % 7) == 2 || std::abs(m[0] / 7 - m[1] / 7) == 2;
}

// Every capture chain from the last point of m, added when it can go no further.
static void chains(Move& m, int me, std::vector<Move>& out) {
    int sq = m.back();
    bool found = false;
    for (int d = 0; d < lines(sq); d++) {
        int over = at(sq % 7 + DF[d], sq / 7 + DR[d]), land = at(sq % 7 + 2 * DF[d], sq / 7 + 2 * DR[d]);
        if (land < 0 || board[over] == EMPTY || board[over] == me || board[land] != EMPTY) continue;
        found = true;
        int taken = board[over];
        board[over] = board[sq] = EMPTY;
        board[land] = me;
        m.push_back(land);
        chains(m, me, out);
        m.pop_back();
        board[land] = EMPTY;
        board[sq] = me;
        board[over] = taken;
    }
    if (!found && m.size() > 1) out.push_back(m);
}

// The legal moves of me; last is its previous normal move, if any.
static std::vector<Move> legal_moves(int me, const std::optional<Move>& last) {
    std::vector<Move> out;
    for (int sq = 0; sq < 49; sq++)
        if (board[sq] == me) {
            Move m{sq};
            chains(m, me, out);
        }
    if (!out.empty()) return out;  // capturing is compulsory
    for (int sq = 0; sq < 49; sq++) {
        if (board[sq] != me) continue;
        for (int d = 0; d < lines(sq); d++) {
            int to = at(sq % 7 + DF[d], sq / 7 + DR[d]);
            if (to < 0 || board[to] != EMPTY) continue;
            if (last && (*last)[0] == to && (*last)[1] == sq) continue;  // no going back
            out.push_back({sq, to});
        }
    }
    return out;
}

static void apply(const Move& m, int me) {
    board[m[0]] = EMPTY;
    if (is_capture(m))
        for (size_t i = 0; i + 1 < m.size(); i++) board[(m[i] + m[i + 1]) / 2] = EMPTY;
    board[m.back()] = me;
}

static std::string text(const Move& m) {
    std::string out;
    for (size_t i = 0; i < m.size(); i++) {
        if (i) out += is_capture(m) ? '*' : '-';
        out += char('a' + m[i] % 7);
        out += char('1' + m[i] / 7);
    }
    return out;
}

static Move parse(const std::string& line) {
    Move m;
    for (size_t i = 0; i + 1 < line.size(); i += 3) m.push_back(7 * (line[i + 1] - '1') + (line[i] - 'a'));
    return m;
}

// The move to play: here the longest capture, else any move.
static Move choose(const std::vector<Move>& moves) {
    size_t longest = 0;
    for (const auto& m : moves) longest = std::max(longest, m.size());
    std::vector<Move> best;
    std::copy_if(moves.begin(), moves.end(), std::back_inserter(best),
                 [&](const Move& m) { return m.size() == longest; });
    return best[std::uniform_int_distribution<size_t>(0, best.size() - 1)(rng)];
}

int main() {
    for (int sq = 0; sq < 49; sq++) {
        int f = sq % 7, r = sq / 7;
        board[sq] = (r < 3 || (r == 3 && f >= 4)) ? WHITE : (r > 3 || (r == 3 && f <= 2)) ? BLACK : EMPTY;
    }
    std::string line;
    if (!std::getline(std::cin, line)) return 0;
    int me = line.rfind("Start", 0) == 0 ? WHITE : BLACK, other = 3 - me, plies = 0;
    std::optional<Move> last[3];
    for (;;) {
        if (line.rfind("Quit", 0) == 0) return 0;
        if (line.rfind("Start", 0) != 0) {
            Move m = parse(line);
            last[other] = is_capture(m) ? std::nullopt : std::optional<Move>(m);
            apply(m, other);
            if (++plies == 200) return 0;  // both made 100 moves: a tie; stop by ourselves
        }
        auto moves = legal_moves(me, last[me]);
        if (moves.empty()) return 0;  // we lost; the jury says Quit
        Move m = choose(moves);
        std::cout << text(m) << std::endl;  // endl flushes
        last[me] = is_capture(m) ? std::nullopt : std::optional<Move>(m);
        apply(m, me);
        ++plies;
        if (plies == 200 || legal_moves(other, last[other]).empty()) return 0;  // a tie or our win
        if (!std::getline(std::cin, line)) return 0;
    }
}
