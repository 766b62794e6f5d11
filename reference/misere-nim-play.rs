//! Reference player for `misere-nim-play`, where whoever takes the last
//! stone loses. While two or more piles hold more than one stone, the
//! winning positions and moves are those of normal Nim (non-zero nim-sum;
//! leave `a_i XOR s`), and such a move always keeps a pile above one. The
//! rule changes the moment only one pile holds more than one stone: then
//! the player to move wins by emptying that pile or leaving one stone in
//! it, whichever leaves an odd number of single stones. With single stones
//! only, the player to move wins exactly when their number is even.
//!
//! The judge's lines are read as tokens, and a `-1` anywhere ends the run:
//! the judge has stopped and nothing more will come.

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

/// Whether the player to move wins.
fn mover_wins(piles: &[u64]) -> bool {
    if piles.iter().all(|&a| a <= 1) {
        piles.iter().filter(|&&a| a == 1).count() % 2 == 0
    } else {
        piles.iter().fold(0, |acc, &a| acc ^ a) != 0
    }
}

/// The winning move `(pile, stones left)`, or, from a lost position (which
/// a correct player never faces), one stone taken so the game goes on.
fn choose_move(piles: &[u64]) -> (usize, u64) {
    let ones = piles.iter().filter(|&&a| a == 1).count();
    let mut big = piles.iter().enumerate().filter(|&(_, &a)| a > 1);
    match (big.next(), big.next()) {
        // The endgame: leave an odd number of single stones.
        (Some((i, _)), None) => return (i, if ones % 2 == 1 { 0 } else { 1 }),
        (None, _) if ones % 2 == 0 => {
            if let Some(i) = piles.iter().position(|&a| a == 1) {
                return (i, 0);
            }
        }
        _ => {
            let s = piles.iter().fold(0, |acc, &a| acc ^ a);
            if let Some(i) = piles.iter().position(|&a| a ^ s < a) {
                return (i, piles[i] ^ s);
            }
        }
    }
    let i = piles.iter().position(|&a| a > 0).unwrap_or(0);
    (i, piles[i].saturating_sub(1))
}

fn play(judge: &mut Judge<impl BufRead>, out: &mut impl Write) -> Option<()> {
    let games = judge.next()?;
    for _ in 0..games {
        let n = usize::try_from(judge.next()?).ok()?;
        let mut piles = Vec::with_capacity(n);
        for _ in 0..n {
            piles.push(judge.next()?);
        }
        let mut my_turn = mover_wins(&piles);
        writeln!(out, "{}", if my_turn { "first" } else { "second" }).ok()?;
        out.flush().ok()?;
        let mut stones_left = piles.iter().filter(|&&a| a > 0).count();
        while stones_left > 0 {
            let (i, x) = if my_turn {
                let (i, x) = choose_move(&piles);
                writeln!(out, "{} {}", i + 1, x).ok()?;
                out.flush().ok()?;
                (i, x)
            } else {
                let i = usize::try_from(judge.next()?).ok()?.checked_sub(1)?;
                (i, judge.next()?)
            };
            let pile = piles.get_mut(i)?;
            if *pile > 0 && x == 0 {
                stones_left -= 1;
            }
            *pile = x;
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
