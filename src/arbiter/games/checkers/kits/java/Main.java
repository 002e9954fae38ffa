// A minimal American checkers engine for the AI Wars 2011 referee: started as
// `java Main 1` (red, moves first, from squares 1-12 towards 32) or `java Main 2`
// (white); each turn it reads the 8 board rows (8 digits: 0 empty, 1 red, 2 white,
// 3 red king, 4 white king) and writes one move over squares 1..32: `9-13` for a
// step, `22x15x6` for captures with every landing square. It stops when its input
// ends.
//
// Make it your own: choose() is where a strategy goes. board[row][col], both 0..7,
// row 0 at the top; dark squares have row + col odd.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

public class Main {
    static final char[][] board = new char[8][];
    static char me, king;
    static final Random random = new Random();

    static boolean mine(char p) { return p == me || p == king; }

    static boolean theirs(char p) { return p != '0' && !mine(p); }

    static int number(int[] s) { return s[0] * 4 + s[1] / 2 + 1; }

    static boolean inside(int r, int c) { return r >= 0 && r < 8 && c >= 0 && c < 8; }

    // Row steps a piece may take: men forward only, kings both ways.
    static int[] rowsFor(char p) {
        return p == '1' ? new int[] {1} : p == '2' ? new int[] {-1} : new int[] {1, -1};
    }

    // Every complete capture chain from the last square of m.
    static void jumps(List<int[]> m, char piece, List<List<int[]>> out) {
        int r = m.get(m.size() - 1)[0], c = m.get(m.size() - 1)[1];
        boolean crowned = m.size() > 1 && ((piece == '1' && r == 7) || (piece == '2' && r == 0));
        boolean found = false;
        if (!crowned) // a man crowned ends its move there
            for (int dr : rowsFor(piece))
                for (int dc = -1; dc <= 1; dc += 2) {
                    int orow = r + dr, ocol = c + dc, lr = r + 2 * dr, lc = c + 2 * dc;
                    if (!inside(lr, lc) || !theirs(board[orow][ocol]) || board[lr][lc] != '0') continue;
                    found = true;
                    char taken = board[orow][ocol];
                    board[orow][ocol] = '0';
                    board[r][c] = '0';
                    board[lr][lc] = piece;
                    m.add(new int[] {lr, lc});
                    jumps(m, piece, out);
                    m.remove(m.size() - 1);
                    board[lr][lc] = '0';
                    board[r][c] = piece;
                    board[orow][ocol] = taken;
                }
        if (!found && m.size() > 1) out.add(new ArrayList<>(m));
    }

    static List<List<int[]>> legalMoves() {
        List<List<int[]>> out = new ArrayList<>();
        for (int r = 0; r < 8; r++)
            for (int c = 0; c < 8; c++)
                if (mine(board[r][c])) {
                    List<int[]> m = new ArrayList<>();
                    m.add(new int[] {r, c});
                    jumps(m, board[r][c], out);
                }
        if (!out.isEmpty()) return out; // capturing is compulsory
        for (int r = 0; r < 8; r++)
            for (int c = 0; c < 8; c++)
                if (mine(board[r][c]))
                    for (int dr : rowsFor(board[r][c]))
                        for (int dc = -1; dc <= 1; dc += 2)
                            if (inside(r + dr, c + dc) && board[r + dr][c + dc] == '0')
                                out.add(List.of(new int[] {r, c}, new int[] {r + dr, c + dc}));
        return out;
    }

    // The move to play: here the longest capture, else any move.
    static List<int[]> choose(List<List<int[]>> moves) {
        int longest = 0;
        for (List<int[]> m : moves) longest = Math.max(longest, m.size());
        List<List<int[]>> best = new ArrayList<>();
        for (List<int[]> m : moves) if (m.size() == longest) best.add(m);
        return best.get(random.nextInt(best.size()));
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        me = args.length > 0 && args[0].equals("1") ? '1' : '2';
        king = (char) (me + 2);
        while (true) {
            for (int row = 0; row < 8; ) {
                String line = in.readLine();
                if (line == null) return; // the game is over
                if (line.trim().length() >= 8) board[row++] = line.trim().substring(0, 8).toCharArray();
            }
            List<List<int[]>> moves = legalMoves();
            if (moves.isEmpty()) return;
            List<int[]> m = choose(moves);
            boolean capture = Math.abs(m.get(0)[0] - m.get(1)[0]) == 2;
            StringBuilder text = new StringBuilder().append(number(m.get(0)));
            for (int i = 1; i < m.size(); i++) text.append(capture ? 'x' : '-').append(number(m.get(i)));
            System.out.println(text);
            System.out.flush();
        }
    }
}
