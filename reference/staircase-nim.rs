//! Reference for `staircase-nim`: sort the cells; pair the chessmen from the
//! right (the last with the one before it, and so on; an unpaired first
//! chessman pairs with the wall at cell 0). The empty cells inside each pair
//! behave as a Nim pile, the cells between pairs do not matter: Georgia wins
//! exactly when those piles have a non-zero nim-sum.

use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).expect("read stdin");
    let mut values = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<u64>().expect("a number"));
    let cases = values.next().unwrap_or(0);
    let mut out = String::new();
    for _ in 0..cases {
        let n = values.next().expect("N") as usize;
        let mut cells: Vec<u64> = values.by_ref().take(n).collect();
        cells.sort_unstable();
        let mut sum = 0;
        let mut i = n;
        while i > 0 {
            let right = cells[i - 1];
            let left = if i >= 2 { cells[i - 2] } else { 0 };
            sum ^= right - left - 1;
            i = i.saturating_sub(2);
        }
        out.push_str(if sum != 0 {
            "Georgia will win\n"
        } else {
            "Bob will win\n"
        });
    }
    io::stdout()
        .write_all(out.as_bytes())
        .expect("write stdout");
}
