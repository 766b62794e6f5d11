//! Reference for `new-stone-game`: the first player loses exactly when the
//! piles can be matched into pairs of equal piles (the second player then
//! copies every move on the twin pile). Otherwise the first player can always
//! reach such a position: with an odd number of piles, the largest pile
//! supplies the differences between the others; with an even number, so does
//! the difference between the largest and smallest.

use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).expect("read stdin");
    let mut values = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<u64>().expect("a number"));
    let mut out = String::new();
    while let Some(n) = values.next() {
        if n == 0 {
            break;
        }
        let mut piles: Vec<u64> = values.by_ref().take(n as usize).collect();
        piles.sort_unstable();
        let mirrored = piles.len() % 2 == 0 && piles.chunks(2).all(|c| c[0] == c[1]);
        out.push_str(if mirrored { "0\n" } else { "1\n" });
    }
    io::stdout()
        .write_all(out.as_bytes())
        .expect("write stdout");
}
