// A minimal Alquerque player for the CodeCup 2008 jury: it reads Start or white's
// first move, then plays a legal move (a capture when one is due, the longest
// capture chain first) and reads the opponent's in turn, until Quit, a win or the tie.
//
// Make it your own: choose() is where a strategy goes. A point is 7 * rank + file,
// file 0..6 for a..g, rank 0..6 for 1..7; a move is its points, start first.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

public class Main {
    static final int EMPTY = 0, WHITE = 1, BLACK = 2;
    static final int[] DF = {1, -1, 0, 0, 1, 1, -1, -1};
    static final int[] DR = {0, 0, 1, -1, 1, -1, 1, -1};
    static final int[] board = new int[49];
    static final Random random = new Random();

    // Lines through a point: the four diagonals only where file + rank is even.
    static int lines(int sq) { return (sq % 7 + sq / 7) % 2 == 0 ? 8 : 4; }

    static int at(int f, int r) { return f >= 0 && f < 7 && r >= 0 && r < 7 ? 7 * r + f : -1; }

    static boolean isCapture(List<Integer> m) {
        return Math.abs(m.get(0) % 7 - m.get(1) % 7) == 2 || Math.abs(m.get(0) / 7 - m.get(1) / 7) == 2;
    }

    // Every capture chain from the last point of m, added when it can go no further.
    static void chains(List<Integer> m, int me, List<List<Integer>> out) {
        int sq = m.get(m.size() - 1);
        boolean found = false;
        for (int d = 0; d < lines(sq); d++) {
            int over = at(sq % 7 + DF[d], sq / 7 + DR[d]), land = at(sq % 7 + 2 * DF[d], sq / 7 + 2 * DR[d]);
            if (land < 0 || board[over] == EMPTY || board[over] == me || board[land] != EMPTY) continue;
            found = true;
            int taken = board[over];
            board[over] = EMPTY;
            board[sq] = EMPTY;
            board[land] = me;
            m.add(land);
            chains(m, me, out);
            m.remove(m.size() - 1);
            board[land] = EMPTY;
            board[sq] = me;
            board[over] = taken;
        }
        if (!found && m.size() > 1) out.add(new ArrayList<>(m));
    }

    // The legal moves of me; last is its previous normal move, or null.
    static List<List<Integer>> legalMoves(int me, List<Integer> last) {
        List<List<Integer>> out = new ArrayList<>();
        for (int sq = 0; sq < 49; sq++)
            if (board[sq] == me) chains(new ArrayList<>(List.of(sq)), me, out);
        if (!out.isEmpty()) return out; // capturing is compulsory
        for (int sq = 0; sq < 49; sq++) {
            if (board[sq] != me) continue;
            for (int d = 0; d < lines(sq); d++) {
                int to = at(sq % 7 + DF[d], sq / 7 + DR[d]);
                if (to < 0 || board[to] != EMPTY) continue;
                if (last != null && last.get(0) == to && last.get(1) == sq) continue; // no going back
                out.add(List.of(sq, to));
            }
        }
        return out;
    }

    static void apply(List<Integer> m, int me) {
        board[m.get(0)] = EMPTY;
        if (isCapture(m))
            for (int i = 0; i + 1 < m.size(); i++) board[(m.get(i) + m.get(i + 1)) / 2] = EMPTY;
        board[m.get(m.size() - 1)] = me;
    }

    static String text(List<Integer> m) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < m.size(); i++) {
            if (i > 0) out.append(isCapture(m) ? '*' : '-');
            out.append((char) ('a' + m.get(i) % 7)).append((char) ('1' + m.get(i) / 7));
        }
        return out.toString();
    }

    static List<Integer> parse(String line) {
        List<Integer> m = new ArrayList<>();
        for (int i = 0; i + 1 < line.length(); i += 3) m.add(7 * (line.charAt(i + 1) - '1') + (line.charAt(i) - 'a'));
        return m;
    }

    // The move to play: here the longest capture, else any move.
    static List<Integer> choose(List<List<Integer>> moves) {
        int longest = 0;
        for (List<Integer> m : moves) longest = Math.max(longest, m.size());
        List<List<Integer>> best = new ArrayList<>();
        for (List<Integer> m : moves) if (m.size() == longest) best.add(m);
        return best.get(random.nextInt(best.size()));
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (int sq = 0; sq < 49; sq++) {
            int f = sq % 7, r = sq / 7;
            board[sq] = (r < 3 || (r == 3 && f >= 4)) ? WHITE : (r > 3 || (r == 3 && f <= 2)) ? BLACK : EMPTY;
        }
        String line = in.readLine();
        if (line == null) return;
        int me = line.startsWith("Start") ? WHITE : BLACK, other = 3 - me, plies = 0;
        List<Integer> lastMine = null, lastTheirs = null; // each side's previous step
        while (true) {
            if (line.startsWith("Quit")) return;
            if (!line.startsWith("Start")) {
                List<Integer> m = parse(line.trim());
                lastTheirs = isCapture(m) ? null : m;
                apply(m, other);
                if (++plies == 200) return; // both made 100 moves: a tie; stop by ourselves
            }
            List<List<Integer>> moves = legalMoves(me, lastMine);
            if (moves.isEmpty()) return; // we lost; the jury says Quit
            List<Integer> m = choose(moves);
            System.out.println(text(m));
            System.out.flush();
            lastMine = isCapture(m) ? null : m;
            apply(m, me);
            ++plies;
            if (plies == 200 || legalMoves(other, lastTheirs).isEmpty()) return; // a tie or our win
            line = in.readLine();
            if (line == null) return;
        }
    }
}
