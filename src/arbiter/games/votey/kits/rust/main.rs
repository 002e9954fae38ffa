//! A minimal Votey Checkers (Lines of Action) player for the contest's referee:
//! started as `player 1` (black, moves first) or `player 2` (white); each move is one
//! line FFTT (from square, to square, each 10 * row + column), negated when it wins;
//! it stops at -1, at the opponent's winning (negative) move, or at the end of input.
//!
//! Make it your own: `choose` is where a strategy goes. `board[r][c]`, r and c in 1..8.
use std::io::{self, BufRead, Write};

const DR: [i32; 8] = [-1, -1, -1, 0, 0, 1, 1, 1];
const DC: [i32; 8] = [-1, 0, 1, -1, 1, -1, 0, 1];

type Board = [[u8; 10]; 10];

fn on_board(r: i32, c: i32) -> bool {
    (1..=8).contains(&r) && (1..=8).contains(&c)
}

/// Pieces on the whole line through (r, c) in direction d.
fn line_count(b: &Board, r: i32, c: i32, d: usize) -> i32 {
    let mut n = 1;
    for sign in [-1, 1] {
        let (mut rr, mut cc) = (r + sign * DR[d], c + sign * DC[d]);
        while on_board(rr, cc) {
            n += (b[rr as usize][cc as usize] != 0) as i32;
            rr += sign * DR[d];
            cc += sign * DC[d];
        }
    }
    n
}

fn legal_moves(b: &Board, me: u8) -> Vec<i32> {
    let mut out = Vec::new();
    for r in 1..=8 {
        for c in 1..=8 {
            if b[r as usize][c as usize] != me {
                continue;
            }
            for d in 0..8 {
                let n = line_count(b, r, c, d);
                let (tr, tc) = (r + n * DR[d], c + n * DC[d]);
                if !on_board(tr, tc) || b[tr as usize][tc as usize] == me {
                    continue;
                }
                // it passes its own pieces, never the opponent's
                let blocked = (1..n).any(|k| {
                    let p = b[(r + k * DR[d]) as usize][(c + k * DC[d]) as usize];
                    p != 0 && p != me
                });
                if !blocked {
                    out.push(1000 * r + 100 * c + 10 * tr + tc);
                }
            }
        }
    }
    out
}

fn apply(b: &Board, m: i32) -> Board {
    let mut after = *b;
    let (fr, fc, tr, tc) = ((m / 1000) as usize, (m / 100 % 10) as usize, (m / 10 % 10) as usize, (m % 10) as usize);
    after[tr][tc] = after[fr][fc];
    after[fr][fc] = 0;
    after
}

fn connected(b: &Board, who: u8) -> bool {
    let pieces: Vec<(i32, i32)> =
        (1..=8).flat_map(|r| (1..=8).map(move |c| (r, c))).filter(|&(r, c)| b[r as usize][c as usize] == who).collect();
    if pieces.is_empty() {
        return false;
    }
    let mut seen = [[false; 10]; 10];
    let mut todo = vec![pieces[0]];
    seen[pieces[0].0 as usize][pieces[0].1 as usize] = true;
    let mut reached = 0;
    while let Some((r, c)) = todo.pop() {
        reached += 1;
        for d in 0..8 {
            let (rr, cc) = (r + DR[d], c + DC[d]);
            if on_board(rr, cc) && b[rr as usize][cc as usize] == who && !seen[rr as usize][cc as usize] {
                seen[rr as usize][cc as usize] = true;
                todo.push((rr, cc));
            }
        }
    }
    reached == pieces.len()
}

/// A small random number generator (no crates needed): xorshift, seeded by the clock.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The move to play: here a winning move if there is one, else any move.
fn choose(b: &Board, moves: &[i32], me: u8, rng: &mut Rng) -> i32 {
    match moves.iter().find(|&&m| connected(&apply(b, m), me)) {
        Some(&m) => m,
        None => moves[rng.below(moves.len())],
    }
}

/// The opponent's move, or None when the game is over (-1, a winning move, no input).
fn read_move(input: &mut impl Iterator<Item = io::Result<String>>) -> Option<i32> {
    loop {
        let line = input.next()?.ok()?;
        let line = line.trim();
        if line == "0" {
            continue; // the sheet's development play(0) may send 0 first
        }
        let m: i32 = line.parse().ok()?;
        return if m > 0 { Some(m) } else { None };
    }
}

fn main() {
    let me = if std::env::args().nth(1).as_deref() == Some("1") { b'b' } else { b'w' };
    let mut b: Board = [[0; 10]; 10];
    for i in 2..=7 {
        b[1][i] = b'b';
        b[8][i] = b'b';
        b[i][1] = b'w';
        b[i][8] = b'w';
    }
    let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64;
    let mut rng = Rng(seed | 1);
    let mut input = io::stdin().lock().lines();
    if me == b'w' {
        match read_move(&mut input) {
            Some(m) => b = apply(&b, m),
            None => return,
        }
    }
    loop {
        let moves = legal_moves(&b, me);
        if moves.is_empty() {
            return;
        }
        let m = choose(&b, &moves, me, &mut rng);
        b = apply(&b, m);
        let wins = connected(&b, me);
        println!("{}", if wins { -m } else { m });
        io::stdout().flush().unwrap();
        if wins {
            return;
        }
        match read_move(&mut input) {
            Some(m) => b = apply(&b, m),
            None => return,
        }
    }
}
