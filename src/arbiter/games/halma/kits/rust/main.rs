//! A minimal Halma player for the homework's referee: run once per move in its own
//! folder, it reads input.txt (SINGLE or GAME, BLACK or WHITE, the seconds left, 16
//! rows of W, B and .) and writes one legal move to output.txt: `E x,y x,y` for a
//! step, or one `J x,y x,y` line per hop of a jump chain. Black's camp is by 0,0,
//! white's by 15,15; the camp rules 1(a) and 1(b) and "a piece in the opposing camp
//! stays there" are kept.
//!
//! Make it your own: `choose` is where a strategy goes. `board[y][x]`; a square is (x, y).
use std::collections::BTreeMap;
use std::fs;

type Square = (i32, i32);

struct Move {
    from: Square,
    to: Square,
    jump: bool,
    path: Vec<Square>,
}

fn in_black_camp(x: i32, y: i32) -> bool {
    const ROW: [i32; 5] = [5, 5, 4, 3, 2];
    (0..5).contains(&y) && x < ROW[y as usize]
}

fn in_camp(who: u8, s: Square) -> bool {
    if who == b'B' { in_black_camp(s.0, s.1) } else { in_black_camp(15 - s.0, 15 - s.1) }
}

fn inside(x: i32, y: i32) -> bool {
    (0..16).contains(&x) && (0..16).contains(&y)
}

/// Every end of the piece on `start`: steps to an empty neighbour and chains of hops.
fn ends(board: &[Vec<u8>], start: Square) -> Vec<Move> {
    let at = |s: Square| board[s.1 as usize][s.0 as usize];
    let mut out = Vec::new();
    for dy in -1..=1 {
        for dx in -1..=1 {
            let to = (start.0 + dx, start.1 + dy);
            if (dx, dy) != (0, 0) && inside(to.0, to.1) && at(to) == b'.' {
                out.push(Move { from: start, to, jump: false, path: vec![start, to] });
            }
        }
    }
    let mut paths: BTreeMap<Square, Vec<Square>> = BTreeMap::new();
    paths.insert(start, vec![start]);
    let mut todo = vec![start];
    while let Some(a) = todo.pop() {
        for dy in -1..=1 {
            for dx in -1..=1 {
                let (over, land) = ((a.0 + dx, a.1 + dy), (a.0 + 2 * dx, a.1 + 2 * dy));
                if (dx, dy) == (0, 0) || !inside(land.0, land.1) || paths.contains_key(&land) {
                    continue;
                }
                let jumped = over != start && at(over) != b'.'; // its start is empty now
                let free = land == start || at(land) == b'.';
                if jumped && free {
                    let mut path = paths[&a].clone();
                    path.push(land);
                    paths.insert(land, path);
                    todo.push(land);
                }
            }
        }
    }
    for (end, path) in paths {
        if end != start {
            out.push(Move { from: start, to: end, jump: true, path });
        }
    }
    out
}

fn further(a: Square, b: Square, corner: i32) -> bool {
    let dx = (b.0 - corner).abs() - (a.0 - corner).abs();
    let dy = (b.1 - corner).abs() - (a.1 - corner).abs();
    dx >= 0 && dy >= 0 && (dx > 0 || dy > 0)
}

fn legal_moves(board: &[Vec<u8>], me: u8) -> Vec<Move> {
    let other = if me == b'B' { b'W' } else { b'B' };
    let corner = if me == b'B' { 0 } else { 15 };
    let (mut moves, mut leaving, mut deeper) = (Vec::new(), Vec::new(), Vec::new());
    let mut home = false;
    for y in 0..16 {
        for x in 0..16 {
            if board[y as usize][x as usize] != me {
                continue;
            }
            home |= in_camp(me, (x, y));
            for m in ends(board, (x, y)) {
                if !in_camp(me, m.from) && in_camp(me, m.to) {
                    continue; // 1(a)
                }
                if in_camp(other, m.from) && !in_camp(other, m.to) {
                    continue; // it stays there
                }
                if in_camp(me, m.from) && !in_camp(me, m.to) {
                    leaving.push(moves.len());
                } else if in_camp(me, m.from) && further(m.from, m.to, corner) {
                    deeper.push(moves.len());
                }
                moves.push(m);
            }
        }
    }
    // 1(b): while a piece is in the camp, move one out, else one further from the corner
    let keep = if home && !leaving.is_empty() {
        leaving
    } else if home && !deeper.is_empty() {
        deeper
    } else {
        return moves;
    };
    moves.into_iter().enumerate().filter(|(i, _)| keep.contains(i)).map(|(_, m)| m).collect()
}

/// The move to play: here one that goes furthest towards the opposing corner.
fn choose(moves: Vec<Move>, me: u8) -> Move {
    let goal = if me == b'B' { 15 } else { 0 };
    let gain = |m: &Move| {
        (m.from.0 - goal).abs() + (m.from.1 - goal).abs() - (m.to.0 - goal).abs() - (m.to.1 - goal).abs()
    };
    let best = moves.iter().map(gain).max().unwrap();
    let mut top: Vec<Move> = moves.into_iter().filter(|m| gain(m) == best).collect();
    let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
    let i = seed as usize % top.len();
    top.swap_remove(i)
}

fn main() {
    let text = fs::read_to_string("input.txt").expect("input.txt");
    let lines: Vec<&str> = text.lines().map(|l| l.trim()).collect();
    let me = if lines[1] == "BLACK" { b'B' } else { b'W' };
    let board: Vec<Vec<u8>> = lines[3..19].iter().map(|l| l.as_bytes().to_vec()).collect();
    let moves = legal_moves(&board, me);
    if moves.is_empty() {
        return;
    }
    let m = choose(moves, me);
    let kind = if m.jump { 'J' } else { 'E' };
    let out: String = m
        .path
        .windows(2)
        .map(|w| format!("{} {},{} {},{}\n", kind, w[0].0, w[0].1, w[1].0, w[1].1))
        .collect();
    fs::write("output.txt", out).expect("output.txt");
}
