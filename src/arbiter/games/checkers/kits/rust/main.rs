//! A minimal American checkers engine for the AI Wars 2011 referee: started as
//! `player 1` (red, moves first, from squares 1-12 towards 32) or `player 2` (white);
//! each turn it reads the 8 board rows (8 digits: 0 empty, 1 red, 2 white, 3 red king,
//! 4 white king) and writes one move over squares 1..32: `9-13` for a step, `22x15x6`
//! for captures with every landing square. It stops when its input ends.
//!
//! Make it your own: `choose` is where a strategy goes. `board[row][col]`, both 0..7,
//! row 0 at the top; dark squares have row + col odd.
use std::io::{self, BufRead, Write};

type Board = [[u8; 8]; 8];
type Move = Vec<(i32, i32)>;

struct Side {
    man: u8,
    king: u8,
}

impl Side {
    fn mine(&self, p: u8) -> bool {
        p == self.man || p == self.king
    }
    fn theirs(&self, p: u8) -> bool {
        p != b'0' && !self.mine(p)
    }
}

fn inside(r: i32, c: i32) -> bool {
    (0..8).contains(&r) && (0..8).contains(&c)
}

fn number(s: (i32, i32)) -> i32 {
    s.0 * 4 + s.1 / 2 + 1
}

/// Row steps a piece may take: men forward only, kings both ways.
fn rows_for(p: u8) -> &'static [i32] {
    match p {
        b'1' => &[1],
        b'2' => &[-1],
        _ => &[1, -1],
    }
}

/// Every complete capture chain from the last square of `m`.
fn jumps(b: &mut Board, side: &Side, m: &mut Move, piece: u8, out: &mut Vec<Move>) {
    let (r, c) = *m.last().unwrap();
    let crowned = m.len() > 1 && ((piece == b'1' && r == 7) || (piece == b'2' && r == 0));
    let mut found = false;
    if !crowned {
        // a man crowned ends its move there
        for &dr in rows_for(piece) {
            for dc in [-1, 1] {
                let (or, oc, lr, lc) = (r + dr, c + dc, r + 2 * dr, c + 2 * dc);
                if !inside(lr, lc) || !side.theirs(b[or as usize][oc as usize]) || b[lr as usize][lc as usize] != b'0' {
                    continue;
                }
                found = true;
                let taken = b[or as usize][oc as usize];
                b[or as usize][oc as usize] = b'0';
                b[r as usize][c as usize] = b'0';
                b[lr as usize][lc as usize] = piece;
                m.push((lr, lc));
                jumps(b, side, m, piece, out);
                m.pop();
                b[lr as usize][lc as usize] = b'0';
                b[r as usize][c as usize] = piece;
                b[or as usize][oc as usize] = taken;
            }
        }
    }
    if !found && m.len() > 1 {
        out.push(m.clone());
    }
}

fn legal_moves(b: &mut Board, side: &Side) -> Vec<Move> {
    let mut out = Vec::new();
    for r in 0..8 {
        for c in 0..8 {
            let p = b[r as usize][c as usize];
            if side.mine(p) {
                jumps(b, side, &mut vec![(r, c)], p, &mut out);
            }
        }
    }
    if !out.is_empty() {
        return out; // capturing is compulsory
    }
    for r in 0..8 {
        for c in 0..8 {
            let p = b[r as usize][c as usize];
            if !side.mine(p) {
                continue;
            }
            for &dr in rows_for(p) {
                for dc in [-1, 1] {
                    if inside(r + dr, c + dc) && b[(r + dr) as usize][(c + dc) as usize] == b'0' {
                        out.push(vec![(r, c), (r + dr, c + dc)]);
                    }
                }
            }
        }
    }
    out
}

/// The move to play: here the longest capture, else any move.
fn choose(moves: Vec<Move>, seed: &mut u64) -> Move {
    let longest = moves.iter().map(|m| m.len()).max().unwrap();
    let mut best: Vec<Move> = moves.into_iter().filter(|m| m.len() == longest).collect();
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    let i = (*seed % best.len() as u64) as usize;
    best.swap_remove(i)
}

fn main() {
    let first = std::env::args().nth(1).as_deref() == Some("1");
    let side = if first { Side { man: b'1', king: b'3' } } else { Side { man: b'2', king: b'4' } };
    let mut seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64 | 1;
    let mut input = io::stdin().lock().lines();
    loop {
        let mut b: Board = [[b'0'; 8]; 8];
        let mut row = 0;
        while row < 8 {
            let line = match input.next() {
                Some(Ok(l)) => l,
                _ => return, // the game is over
            };
            let line = line.trim().as_bytes();
            if line.len() >= 8 {
                b[row].copy_from_slice(&line[..8]);
                row += 1;
            }
        }
        let moves = legal_moves(&mut b, &side);
        if moves.is_empty() {
            return;
        }
        let m = choose(moves, &mut seed);
        let sep = if (m[0].0 - m[1].0).abs() == 2 { "x" } else { "-" };
        let squares: Vec<String> = m.iter().map(|&s| number(s).to_string()).collect();
        println!("{}", squares.join(sep));
        io::stdout().flush().unwrap();
    }
}
