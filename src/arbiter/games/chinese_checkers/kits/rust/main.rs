//! A minimal Chinese checkers player for the 1997 ACM Hong Kong mediator: it reads
//! `1` (it moves first) or `2`, then writes one move `FROM TO` and reads the
//! opponent's in turn. Every player sees the board from its own side: its home is
//! holes 1-10 at the bottom, the opponent's 112-121 at the top, where it must bring
//! its ten marbles. It stops when its input ends.
//!
//! Make it your own: `choose` is where a strategy goes. Holes are numbered 1..121
//! from the bottom, left to right; hole h sits at (x[h], y[h]), x in half-steps.
use std::collections::{BTreeSet, HashMap};
use std::io::{self, BufRead, Write};

const ROWS: [i32; 17] = [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1];
const DX: [i32; 6] = [2, -2, 1, -1, 1, -1];
const DY: [i32; 6] = [0, 0, 1, 1, -1, -1];
const NEUTRAL: [usize; 40] = [
    11, 12, 13, 14, 24, 25, 26, 36, 37, 47, 20, 21, 22, 23, 33, 34, 35, 45, 46, 56, 66, 76, 77, 87, 88,
    89, 99, 100, 101, 102, 75, 85, 86, 96, 97, 98, 108, 109, 110, 111,
];
const EMPTY: u8 = 0;
const MINE: u8 = 1;
const THEIRS: u8 = 2;

struct Board {
    x: Vec<i32>,
    y: Vec<i32>,
    hole_at: HashMap<(i32, i32), usize>,
    holder: Vec<u8>,
}

impl Board {
    fn new() -> Board {
        let mut b = Board { x: vec![0; 122], y: vec![0; 122], hole_at: HashMap::new(), holder: vec![EMPTY; 122] };
        let mut h = 1;
        for (row, &length) in ROWS.iter().enumerate() {
            for i in 0..length {
                b.x[h] = 2 * i - (length - 1);
                b.y[h] = row as i32;
                b.hole_at.insert((b.x[h], row as i32), h);
                h += 1;
            }
        }
        for h in 1..=10 {
            b.holder[h] = MINE;
            b.holder[122 - h] = THEIRS;
        }
        b
    }

    fn hole(&self, x: i32, y: i32) -> Option<usize> {
        self.hole_at.get(&(x, y)).copied()
    }

    /// Where one long hop from `a` lands on each line: the first marble at distance
    /// k, the landing hole at 2k, every hole between them and the landing empty.
    fn hops(&self, a: usize) -> Vec<usize> {
        let mut out = Vec::new();
        for d in 0..6 {
            let at = |k: i32| self.hole(self.x[a] + k * DX[d], self.y[a] + k * DY[d]);
            let mut k = 1;
            while matches!(at(k), Some(h) if self.holder[h] == EMPTY) {
                k += 1;
            }
            if at(k).is_none() {
                continue;
            }
            let clear = (k + 1..=2 * k).all(|j| matches!(at(j), Some(h) if self.holder[h] == EMPTY));
            if clear {
                out.push(at(2 * k).unwrap());
            }
        }
        out
    }

    fn legal_moves(&mut self) -> Vec<(usize, usize)> {
        let mut moves = BTreeSet::new();
        for from in 1..=121 {
            if self.holder[from] != MINE {
                continue;
            }
            self.holder[from] = EMPTY; // the moving marble's hole counts as empty
            for d in 0..6 {
                if let Some(to) = self.hole(self.x[from] + DX[d], self.y[from] + DY[d]) {
                    if self.holder[to] == EMPTY {
                        moves.insert((from, to));
                    }
                }
            }
            let mut seen = BTreeSet::from([from]);
            let mut todo = vec![from];
            while let Some(a) = todo.pop() {
                // chains of long hops
                for land in self.hops(a) {
                    if seen.insert(land) {
                        todo.push(land);
                        moves.insert((from, land));
                    }
                }
            }
            self.holder[from] = MINE;
        }
        moves.into_iter().filter(|&(a, b)| a != b && !NEUTRAL.contains(&b)).collect() // never ends neutral
    }

    fn play(&mut self, from: usize, to: usize) {
        self.holder[to] = self.holder[from];
        self.holder[from] = EMPTY;
    }
}

/// The move to play: here one that goes furthest up the board.
fn choose(b: &Board, moves: &[(usize, usize)], seed: &mut u64) -> (usize, usize) {
    let gain = |m: &(usize, usize)| b.y[m.1] - b.y[m.0];
    let best = moves.iter().map(gain).max().unwrap();
    let top: Vec<&(usize, usize)> = moves.iter().filter(|m| gain(m) == best).collect();
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *top[(*seed % top.len() as u64) as usize]
}

fn read_move(input: &mut impl Iterator<Item = io::Result<String>>) -> Option<(usize, usize)> {
    let line = input.next()?.ok()?;
    let mut parts = line.split_whitespace().map(|p| p.parse::<usize>());
    match (parts.next(), parts.next()) {
        (Some(Ok(a)), Some(Ok(b))) => Some((a, b)),
        _ => None, // the game is over
    }
}

fn main() {
    let mut b = Board::new();
    let mut seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64 | 1;
    let mut input = io::stdin().lock().lines();
    let first = match input.next() {
        Some(Ok(l)) => l.trim().to_string(),
        _ => return,
    };
    if first == "2" {
        match read_move(&mut input) {
            Some((a, c)) => b.play(a, c),
            None => return,
        }
    }
    loop {
        let moves = b.legal_moves();
        if moves.is_empty() {
            return;
        }
        let (from, to) = choose(&b, &moves, &mut seed);
        println!("{} {}", from, to);
        io::stdout().flush().unwrap();
        b.play(from, to);
        match read_move(&mut input) {
            Some((a, c)) => b.play(a, c),
            None => return,
        }
    }
}
