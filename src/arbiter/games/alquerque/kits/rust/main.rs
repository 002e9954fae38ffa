//! A minimal Alquerque player for the CodeCup 2008 jury: it reads Start or white's
//! first move, then plays a legal move (a capture when one is due, the longest
//! capture chain first) and reads the opponent's in turn, until Quit, a win or the tie.
//!
//! Make it your own: `choose` is where a strategy goes. A point is 7 * rank + file,
//! file 0..6 for a..g, rank 0..6 for 1..7; a move is its points, start first.
use std::io::{self, BufRead, Write};

const EMPTY: u8 = 0;
const WHITE: u8 = 1;
const BLACK: u8 = 2;
const DF: [i32; 8] = [1, -1, 0, 0, 1, 1, -1, -1];
const DR: [i32; 8] = [0, 0, 1, -1, 1, -1, 1, -1];

type Move = Vec<usize>;

/// Lines through a point: the four diagonals only where file + rank is even.
fn lines(sq: usize) -> usize {
    if (sq % 7 + sq / 7) % 2 == 0 { 8 } else { 4 }
}

fn at(f: i32, r: i32) -> Option<usize> {
    if (0..7).contains(&f) && (0..7).contains(&r) { Some((7 * r + f) as usize) } else { None }
}

fn is_capture(m: &Move) -> bool {
    (m[0] % 7).abs_diff(m[1] % 7) == 2 || (m[0] / 7).abs_diff(m[1] / 7) == 2
}

/// Every capture chain from the last point of `m`, added when it can go no further.
fn chains(board: &mut [u8; 49], m: &mut Move, me: u8, out: &mut Vec<Move>) {
    let sq = *m.last().unwrap();
    let (f, r) = ((sq % 7) as i32, (sq / 7) as i32);
    let mut found = false;
    for d in 0..lines(sq) {
        let (over, land) = match (at(f + DF[d], r + DR[d]), at(f + 2 * DF[d], r + 2 * DR[d])) {
            (Some(over), Some(land)) => (over, land),
            _ => continue,
        };
        if board[over] == EMPTY || board[over] == me || board[land] != EMPTY {
            continue;
        }
        found = true;
        let taken = board[over];
        board[over] = EMPTY;
        board[sq] = EMPTY;
        board[land] = me;
        m.push(land);
        chains(board, m, me, out);
        m.pop();
        board[land] = EMPTY;
        board[sq] = me;
        board[over] = taken;
    }
    if !found && m.len() > 1 {
        out.push(m.clone());
    }
}

/// The legal moves of `me`; `last` is its previous normal move, if any.
fn legal_moves(board: &mut [u8; 49], me: u8, last: &Option<Move>) -> Vec<Move> {
    let mut out = Vec::new();
    for sq in 0..49 {
        if board[sq] == me {
            chains(board, &mut vec![sq], me, &mut out);
        }
    }
    if !out.is_empty() {
        return out; // capturing is compulsory
    }
    for sq in 0..49 {
        if board[sq] != me {
            continue;
        }
        for d in 0..lines(sq) {
            if let Some(to) = at((sq % 7) as i32 + DF[d], (sq / 7) as i32 + DR[d]) {
                let back = matches!(last, Some(l) if l[0] == to && l[1] == sq); // no going back
                if board[to] == EMPTY && !back {
                    out.push(vec![sq, to]);
                }
            }
        }
    }
    out
}

fn apply(board: &mut [u8; 49], m: &Move, me: u8) {
    board[m[0]] = EMPTY;
    if is_capture(m) {
        for pair in m.windows(2) {
            board[(pair[0] + pair[1]) / 2] = EMPTY;
        }
    }
    board[*m.last().unwrap()] = me;
}

fn text(m: &Move) -> String {
    let sep = if is_capture(m) { "*" } else { "-" };
    let names: Vec<String> = m.iter().map(|&s| format!("{}{}", (b'a' + (s % 7) as u8) as char, s / 7 + 1)).collect();
    names.join(sep)
}

fn parse(line: &str) -> Move {
    let b = line.as_bytes();
    (0..b.len() / 3 + 1)
        .filter(|i| 3 * i + 1 < b.len())
        .map(|i| 7 * (b[3 * i + 1] - b'1') as usize + (b[3 * i] - b'a') as usize)
        .collect()
}

/// A small random number generator (no crates needed): xorshift, seeded by the clock.
struct Rng(u64);
impl Rng {
    fn new() -> Rng {
        let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
        Rng(t.as_nanos() as u64 | 1)
    }
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The move to play: here the longest capture, else any move.
fn choose(moves: Vec<Move>, rng: &mut Rng) -> Move {
    let longest = moves.iter().map(|m| m.len()).max().unwrap();
    let mut best: Vec<Move> = moves.into_iter().filter(|m| m.len() == longest).collect();
    let i = rng.below(best.len());
    best.swap_remove(i)
}

fn main() {
    let mut board = [EMPTY; 49];
    for sq in 0..49 {
        let (f, r) = (sq % 7, sq / 7);
        board[sq] = if r < 3 || (r == 3 && f >= 4) {
            WHITE
        } else if r > 3 || (r == 3 && f <= 2) {
            BLACK
        } else {
            EMPTY
        };
    }
    let mut rng = Rng::new();
    let mut input = io::stdin().lock().lines();
    let mut line = match input.next() {
        Some(Ok(l)) => l.trim().to_string(),
        _ => return,
    };
    let me = if line.starts_with("Start") { WHITE } else { BLACK };
    let other = 3 - me;
    let (mut last_mine, mut last_theirs): (Option<Move>, Option<Move>) = (None, None);
    let mut plies = 0;
    loop {
        if line.starts_with("Quit") {
            return;
        }
        if !line.starts_with("Start") {
            let m = parse(&line);
            last_theirs = if is_capture(&m) { None } else { Some(m.clone()) };
            apply(&mut board, &m, other);
            plies += 1;
            if plies == 200 {
                return; // both made 100 moves: a tie; stop by ourselves
            }
        }
        let moves = legal_moves(&mut board, me, &last_mine);
        if moves.is_empty() {
            return; // we lost; the jury says Quit
        }
        let m = choose(moves, &mut rng);
        println!("{}", text(&m));
        io::stdout().flush().unwrap();
        last_mine = if is_capture(&m) { None } else { Some(m.clone()) };
        apply(&mut board, &m, me);
        plies += 1;
        if plies == 200 || legal_moves(&mut board, other, &last_theirs).is_empty() {
            return; // a tie or our win
        }
        line = match input.next() {
            Some(Ok(l)) => l.trim().to_string(),
            _ => return,
        };
    }
}
