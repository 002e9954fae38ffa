// A minimal Votey Checkers (Lines of Action) player for the contest's referee:
// started as `java Main 1` (black, moves first) or `java Main 2` (white); each move is
// one line FFTT (from square, to square, each 10 * row + column), negated when it
// wins; it stops at -1, at the opponent's winning (negative) move, or at the end of
// input.
//
// Make it your own: choose() is where a strategy goes. board[r][c], r and c in 1..8.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

public class Main {
    static final char[][] board = new char[10][10];
    static final int[] DR = {-1, -1, -1, 0, 0, 1, 1, 1};
    static final int[] DC = {-1, 0, 1, -1, 1, -1, 0, 1};
    static final Random random = new Random();
    static BufferedReader in;

    static boolean onBoard(int r, int c) { return r >= 1 && r <= 8 && c >= 1 && c <= 8; }

    // Pieces on the whole line through (r, c) in direction d.
    static int lineCount(int r, int c, int d) {
        int n = 1;
        for (int sign = -1; sign <= 1; sign += 2)
            for (int rr = r + sign * DR[d], cc = c + sign * DC[d]; onBoard(rr, cc); rr += sign * DR[d], cc += sign * DC[d])
                if (board[rr][cc] != 0) n++;
        return n;
    }

    static List<Integer> legalMoves(char me) {
        List<Integer> out = new ArrayList<>();
        for (int r = 1; r <= 8; r++)
            for (int c = 1; c <= 8; c++) {
                if (board[r][c] != me) continue;
                for (int d = 0; d < 8; d++) {
                    int n = lineCount(r, c, d), tr = r + n * DR[d], tc = c + n * DC[d];
                    if (!onBoard(tr, tc) || board[tr][tc] == me) continue;
                    boolean blocked = false; // it passes its own pieces, never the opponent's
                    for (int k = 1; k < n; k++) {
                        char p = board[r + k * DR[d]][c + k * DC[d]];
                        if (p != 0 && p != me) blocked = true;
                    }
                    if (!blocked) out.add(1000 * r + 100 * c + 10 * tr + tc);
                }
            }
        return out;
    }

    static char apply(int m) { // returns what it captured, to undo
        char taken = board[m / 10 % 10][m % 10];
        board[m / 10 % 10][m % 10] = board[m / 1000][m / 100 % 10];
        board[m / 1000][m / 100 % 10] = 0;
        return taken;
    }

    static void undo(int m, char taken) {
        board[m / 1000][m / 100 % 10] = board[m / 10 % 10][m % 10];
        board[m / 10 % 10][m % 10] = taken;
    }

    static boolean connected(char who) {
        boolean[][] seen = new boolean[10][10];
        ArrayDeque<int[]> todo = new ArrayDeque<>();
        int total = 0, reached = 0;
        for (int r = 1; r <= 8; r++)
            for (int c = 1; c <= 8; c++)
                if (board[r][c] == who && total++ == 0) {
                    todo.push(new int[] {r, c});
                    seen[r][c] = true;
                }
        while (!todo.isEmpty()) {
            int[] s = todo.pop();
            reached++;
            for (int d = 0; d < 8; d++) {
                int rr = s[0] + DR[d], cc = s[1] + DC[d];
                if (onBoard(rr, cc) && board[rr][cc] == who && !seen[rr][cc]) {
                    seen[rr][cc] = true;
                    todo.push(new int[] {rr, cc});
                }
            }
        }
        return total > 0 && reached == total;
    }

    // The move to play: here a winning move if there is one, else any move.
    static int choose(List<Integer> moves, char me) {
        for (int m : moves) {
            char taken = apply(m);
            boolean wins = connected(me);
            undo(m, taken);
            if (wins) return m;
        }
        return moves.get(random.nextInt(moves.size()));
    }

    // The opponent's move, or 0 when the game is over (-1, a winning move, no input).
    static int readMove() throws Exception {
        String line;
        do {
            line = in.readLine();
            if (line == null) return 0;
        } while (line.trim().equals("0")); // the sheet's development play(0) may send 0 first
        int m = Integer.parseInt(line.trim());
        return m > 0 ? m : 0;
    }

    public static void main(String[] args) throws Exception {
        in = new BufferedReader(new InputStreamReader(System.in));
        char me = args.length > 0 && args[0].equals("1") ? 'b' : 'w';
        for (int i = 2; i <= 7; i++) {
            board[1][i] = board[8][i] = 'b';
            board[i][1] = board[i][8] = 'w';
        }
        if (me == 'w') {
            int m = readMove();
            if (m == 0) return;
            apply(m);
        }
        while (true) {
            List<Integer> moves = legalMoves(me);
            if (moves.isEmpty()) return;
            int m = choose(moves, me);
            apply(m);
            boolean wins = connected(me);
            System.out.println(wins ? -m : m);
            System.out.flush();
            if (wins) return;
            m = readMove();
            if (m == 0) return;
            apply(m);
        }
    }
}
