//! Reference player for `nim-play`: the player to move wins exactly when the
//! nim-sum (XOR of the piles) is non-zero, so it moves first exactly then.
//! Its move leaves a pile `a_i` with `a_i XOR s` stones, which is smaller
//! for any pile holding the highest set bit of `s`, and brings the nim-sum
//! back to zero; every reply of the judge makes it non-zero again.
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

/// The winning move `(pile, stones left)`, or, from a lost position (which
/// a correct player never faces), one stone taken so the game goes on.
fn choose_move(piles: &[u64]) -> (usize, u64) {
    let s = piles.iter().fold(0, |acc, &a| acc ^ a);
    if let Some(i) = piles.iter().position(|&a| a ^ s < a) {
        return (i, piles[i] ^ s);
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
        let mut my_turn = piles.iter().fold(0, |acc, &a| acc ^ a) != 0;
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
