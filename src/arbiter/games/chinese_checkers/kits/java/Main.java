// A minimal Chinese checkers player for the 1997 ACM Hong Kong mediator: it reads
// `1` (it moves first) or `2`, then writes one move `FROM TO` and reads the
// opponent's in turn. Every player sees the board from its own side: its home is
// holes 1-10 at the bottom, the opponent's 112-121 at the top, where it must bring
// its ten marbles. It stops when its input ends.
//
// Make it your own: choose() is where a strategy goes. Holes are numbered 1..121
// from the bottom, left to right; hole h sits at (X[h], Y[h]), x in half-steps.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

public class Main {
    static final int EMPTY = 0, MINE = 1, THEIRS = 2;
    static final int[] ROWS = {1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1};
    static final int[] DX = {2, -2, 1, -1, 1, -1}, DY = {0, 0, 1, 1, -1, -1};
    static final Set<Integer> NEUTRAL = Set.of(11, 12, 13, 14, 24, 25, 26, 36, 37, 47, 20, 21, 22, 23,
            33, 34, 35, 45, 46, 56, 66, 76, 77, 87, 88, 89, 99, 100, 101, 102, 75, 85, 86, 96, 97, 98,
            108, 109, 110, 111);
    static final int[] X = new int[122], Y = new int[122], board = new int[122];
    static final Map<Integer, Integer> holeAt = new HashMap<>();
    static final Random random = new Random();

    static int hole(int x, int y) { return holeAt.getOrDefault(x * 100 + y, 0); }

    // Where one long hop from a lands on each line: the first marble at distance k, the
    // landing hole at 2k, every hole between them and the landing empty.
    static List<Integer> hops(int a) {
        List<Integer> out = new ArrayList<>();
        for (int d = 0; d < 6; d++) {
            int k = 1, h;
            while ((h = hole(X[a] + k * DX[d], Y[a] + k * DY[d])) != 0 && board[h] == EMPTY) k++;
            if (h == 0) continue;
            int land = 0;
            boolean ok = true;
            for (int j = k + 1; j <= 2 * k && ok; j++) {
                land = hole(X[a] + j * DX[d], Y[a] + j * DY[d]);
                ok = land != 0 && board[land] == EMPTY;
            }
            if (ok) out.add(land);
        }
        return out;
    }

    static List<int[]> legalMoves() {
        Set<Long> moves = new LinkedHashSet<>();
        for (int from = 1; from <= 121; from++) {
            if (board[from] != MINE) continue;
            board[from] = EMPTY; // the moving marble's hole counts as empty
            for (int d = 0; d < 6; d++) {
                int to = hole(X[from] + DX[d], Y[from] + DY[d]);
                if (to != 0 && board[to] == EMPTY) moves.add(from * 1000L + to);
            }
            Set<Integer> seen = new HashSet<>(List.of(from));
            ArrayDeque<Integer> todo = new ArrayDeque<>(List.of(from));
            while (!todo.isEmpty()) // chains of long hops
                for (int land : hops(todo.pop()))
                    if (seen.add(land)) {
                        todo.push(land);
                        moves.add(from * 1000L + land);
                    }
            board[from] = MINE;
        }
        List<int[]> out = new ArrayList<>();
        for (long m : moves) {
            int from = (int) (m / 1000), to = (int) (m % 1000);
            if (to != from && !NEUTRAL.contains(to)) out.add(new int[] {from, to}); // never ends neutral
        }
        return out;
    }

    // The move to play: here one that goes furthest up the board.
    static int[] choose(List<int[]> moves) {
        int best = -99;
        List<int[]> top = new ArrayList<>();
        for (int[] m : moves) {
            int gain = Y[m[1]] - Y[m[0]];
            if (gain > best) {
                best = gain;
                top.clear();
            }
            if (gain == best) top.add(m);
        }
        return top.get(random.nextInt(top.size()));
    }

    static boolean readMove(BufferedReader in) throws Exception {
        String line = in.readLine();
        if (line == null || line.isBlank()) return false; // the game is over
        String[] parts = line.trim().split("\\s+");
        int from = Integer.parseInt(parts[0]), to = Integer.parseInt(parts[1]);
        board[to] = board[from];
        board[from] = EMPTY;
        return true;
    }

    public static void main(String[] args) throws Exception {
        for (int y = 0, h = 1; y < 17; y++)
            for (int i = 0; i < ROWS[y]; i++, h++) {
                X[h] = 2 * i - (ROWS[y] - 1);
                Y[h] = y;
                holeAt.put(X[h] * 100 + y, h);
            }
        for (int h = 1; h <= 10; h++) {
            board[h] = MINE;
            board[122 - h] = THEIRS;
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String first = in.readLine();
        if (first == null) return;
        if (first.trim().equals("2") && !readMove(in)) return;
        while (true) {
            List<int[]> moves = legalMoves();
            if (moves.isEmpty()) return;
            int[] m = choose(moves);
            System.out.println(m[0] + " " + m[1]);
            System.out.flush();
            board[m[1]] = MINE;
            board[m[0]] = EMPTY;
            if (!readMove(in)) return;
        }
    }
}
