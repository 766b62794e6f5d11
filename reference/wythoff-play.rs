//! Reference player for `wythoff-play`. The lost positions are the pairs
//! (⌊kφ⌋, ⌊kφ⌋ + k), k ≥ 0, in either order; the lower heap of such a pair is
//! the "cold" value c(k) = ⌊kφ⌋ = ⌊(k + ⌊√(5k²)⌋) / 2⌋, computed exactly in
//! `u128` because heaps reach 10^18 (5k² needs 123 bits, and no float holds
//! φ·10^18 to the unit). From a won pair lo ≤ hi with k = hi − lo:
//!
//! - lo > c(k): take lo − c(k) from both heaps, reaching (c(k), c(k) + k);
//! - lo < c(k): lo belongs to exactly one lost pair (the lower and upper
//!   members ⌊jφ⌋ and ⌊jφ²⌋ together cover every number once), and its
//!   partner is smaller than hi, so hi goes down to that partner. With
//!   f = ⌊lo/φ⌋, lo is a lower member exactly when c(f + 1) = lo (partner
//!   lo + f + 1), and otherwise an upper member whose partner is f.
//!
//! The move is written in the order of the position line, which is not
//! sorted. The judge's lines are read as tokens, and a `-1` anywhere ends
//! the run: the judge has stopped and nothing more will come.

use std::io::{self, BufRead, BufWriter, Write};

/// Whitespace-separated numbers from the judge, one at a time. `None` is
/// the end of the run: end of input, `-1`, or something unreadable.
struct Judge<R> {
    input: R,
    pending: Vec<String>,
}

impl<R: BufRead> Judge<R> {
    fn next(&mut self) -> Option<u64> {
        while self.pending.is_empty() {
            let mut line = String::new();
            if self.input.read_line(&mut line).ok()? == 0 {
                return None;
            }
            self.pending = line.split_whitespace().rev().map(String::from).collect();
        }
        self.pending.pop()?.parse().ok()
    }
}

/// ⌊√n⌋ exactly: the float estimate is only a starting point.
fn isqrt(n: u128) -> u128 {
    let mut x = (n as f64).sqrt() as u128;
    while x * x > n {
        x -= 1;
    }
    while (x + 1) * (x + 1) <= n {
        x += 1;
    }
    x
}

/// ⌊kφ⌋, the lower heap of the k-th lost pair.
fn cold(k: u64) -> u64 {
    let k = u128::from(k);
    // ⌊kφ⌋ ≤ 1.62 · 10^18 fits in u64 for every k the game can produce.
    ((k + isqrt(5 * k * k)) / 2) as u64
}

fn mover_wins(a: u64, b: u64) -> bool {
    let (lo, hi) = (a.min(b), a.max(b));
    cold(hi - lo) != lo
}

/// The winning move as new sizes in the position's order, or, from a lost
/// position (which a correct player never faces), one stone taken.
fn choose_move(a: u64, b: u64) -> (u64, u64) {
    let (lo, hi) = (a.min(b), a.max(b));
    let c = cold(hi - lo);
    if lo > c {
        let d = lo - c;
        return (a - d, b - d);
    }
    let new_hi = if lo == c {
        hi - 1
    } else {
        let l = u128::from(lo);
        let f = ((isqrt(5 * l * l) - l) / 2) as u64;
        if cold(f + 1) == lo {
            lo + f + 1
        } else {
            f
        }
    };
    if a <= b {
        (a, new_hi)
    } else {
        (new_hi, b)
    }
}

fn play(judge: &mut Judge<impl BufRead>, out: &mut impl Write) -> Option<()> {
    let games = judge.next()?;
    for _ in 0..games {
        let (mut a, mut b) = (judge.next()?, judge.next()?);
        let mut my_turn = mover_wins(a, b);
        writeln!(out, "{}", if my_turn { "first" } else { "second" }).ok()?;
        out.flush().ok()?;
        while a > 0 || b > 0 {
            (a, b) = if my_turn {
                let (na, nb) = choose_move(a, b);
                writeln!(out, "{na} {nb}").ok()?;
                out.flush().ok()?;
                (na, nb)
            } else {
                (judge.next()?, judge.next()?)
            };
            my_turn = !my_turn;
        }
    }
    Some(())
}

fn main() {
    let stdin = io::stdin();
    let mut judge = Judge {
        input: stdin.lock(),
        pending: Vec::new(),
    };
    let mut out = BufWriter::new(io::stdout().lock());
    // Whether the run ended normally or the judge stopped it with -1, the
    // player has nothing more to say: exit 0 either way.
    let _ = play(&mut judge, &mut out);
}
