// A minimal Halma player for the homework's referee: run once per move in its own
// folder, it reads input.txt (SINGLE or GAME, BLACK or WHITE, the seconds left, 16
// rows of W, B and .) and writes one legal move to output.txt: `E x,y x,y` for a
// step, or one `J x,y x,y` line per hop of a jump chain. Black's camp is by 0,0,
// white's by 15,15; the camp rules 1(a) and 1(b) and "a piece in the opposing camp
// stays there" are kept.
//
// Make it your own: choose() is where a strategy goes. board[y][x]; a square is
// 16 * y + x.
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

public class Main {
    static char[][] board = new char[16][];
    static char me;

    // a plain class, not a record: a record's methods are made at run time, which
    // costs a program started once a move some 20 ms of CPU
    static final class Move {
        final int from, to;
        final boolean jump;
        final List<Integer> path;

        Move(int from, int to, boolean jump, List<Integer> path) {
            this.from = from;
            this.to = to;
            this.jump = jump;
            this.path = path;
        }

        int from() { return from; }
        int to() { return to; }
        boolean jump() { return jump; }
        List<Integer> path() { return path; }
    }

    static boolean inBlackCamp(int x, int y) {
        int[] row = {5, 5, 4, 3, 2};
        return y < 5 && x < row[y];
    }

    static boolean inCamp(char who, int s) {
        int x = s % 16, y = s / 16;
        return who == 'B' ? inBlackCamp(x, y) : inBlackCamp(15 - x, 15 - y);
    }

    static boolean inside(int x, int y) { return x >= 0 && x < 16 && y >= 0 && y < 16; }

    // Every end of the piece on start: steps to an empty neighbour and chains of hops.
    static List<Move> ends(int start) {
        List<Move> out = new ArrayList<>();
        int x = start % 16, y = start / 16;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                if ((dx != 0 || dy != 0) && inside(x + dx, y + dy) && board[y + dy][x + dx] == '.') {
                    int to = 16 * (y + dy) + x + dx;
                    out.add(new Move(start, to, false, List.of(start, to)));
                }
        Map<Integer, List<Integer>> paths = new LinkedHashMap<>();
        paths.put(start, List.of(start));
        ArrayDeque<Integer> todo = new ArrayDeque<>(List.of(start));
        while (!todo.isEmpty()) {
            int a = todo.pop(), ax = a % 16, ay = a / 16;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int ox = ax + dx, oy = ay + dy, lx = ax + 2 * dx, ly = ay + 2 * dy, land = 16 * ly + lx;
                    if ((dx == 0 && dy == 0) || !inside(lx, ly) || paths.containsKey(land)) continue;
                    boolean jumped = 16 * oy + ox != start && board[oy][ox] != '.'; // its start is empty now
                    boolean free = land == start || board[ly][lx] == '.';
                    if (!jumped || !free) continue;
                    List<Integer> path = new ArrayList<>(paths.get(a));
                    path.add(land);
                    paths.put(land, path);
                    todo.push(land);
                }
        }
        for (Map.Entry<Integer, List<Integer>> e : paths.entrySet())
            if (e.getKey() != start) out.add(new Move(start, e.getKey(), true, e.getValue()));
        return out;
    }

    static boolean further(int a, int b, int corner) {
        int dx = Math.abs(b % 16 - corner) - Math.abs(a % 16 - corner);
        int dy = Math.abs(b / 16 - corner) - Math.abs(a / 16 - corner);
        return dx >= 0 && dy >= 0 && (dx > 0 || dy > 0);
    }

    static List<Move> legalMoves() {
        char other = me == 'B' ? 'W' : 'B';
        int corner = me == 'B' ? 0 : 15;
        List<Move> moves = new ArrayList<>(), leaving = new ArrayList<>(), deeper = new ArrayList<>();
        boolean home = false;
        for (int s = 0; s < 256; s++) {
            if (board[s / 16][s % 16] != me) continue;
            home |= inCamp(me, s);
            for (Move m : ends(s)) {
                if (!inCamp(me, m.from()) && inCamp(me, m.to())) continue; // 1(a)
                if (inCamp(other, m.from()) && !inCamp(other, m.to())) continue; // it stays there
                moves.add(m);
                if (inCamp(me, m.from()) && !inCamp(me, m.to())) leaving.add(m);
                if (inCamp(me, m.from()) && inCamp(me, m.to()) && further(m.from(), m.to(), corner)) deeper.add(m);
            }
        }
        if (home && !leaving.isEmpty()) return leaving; // 1(b): out of the camp first,
        if (home && !deeper.isEmpty()) return deeper; // else further from its corner
        return moves;
    }

    // The move to play: here one that goes furthest towards the opposing corner.
    static Move choose(List<Move> moves) {
        int goal = me == 'B' ? 15 : 0, best = -99;
        List<Move> top = new ArrayList<>();
        for (Move m : moves) {
            int gain = Math.abs(m.from() % 16 - goal) + Math.abs(m.from() / 16 - goal)
                    - Math.abs(m.to() % 16 - goal) - Math.abs(m.to() / 16 - goal);
            if (gain > best) {
                best = gain;
                top.clear();
            }
            if (gain == best) top.add(m);
        }
        return top.get(new Random().nextInt(top.size()));
    }

    public static void main(String[] args) throws Exception {
        List<String> lines = Files.readAllLines(Path.of("input.txt"));
        me = lines.get(1).trim().equals("BLACK") ? 'B' : 'W';
        for (int y = 0; y < 16; y++) board[y] = lines.get(3 + y).trim().toCharArray();
        List<Move> moves = legalMoves();
        if (moves.isEmpty()) return;
        Move m = choose(moves);
        StringBuilder text = new StringBuilder(); // not printf: its formatter is slow to load
        List<Integer> p = m.path();
        for (int i = 0; i + 1 < p.size(); i++) {
            int a = p.get(i), b = p.get(i + 1);
            text.append(m.jump() ? 'J' : 'E').append(' ').append(a % 16).append(',').append(a / 16)
                    .append(' ').append(b % 16).append(',').append(b / 16).append('\n');
        }
        try (PrintWriter out = new PrintWriter("output.txt")) {
            out.print(text);
        }
    }
}
