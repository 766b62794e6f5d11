//! Reference for `misere-nim`: while some pile holds more than one stone the
//! first player wins exactly when the nim-sum is non-zero (play as in normal
//! Nim until only one pile holds more than one stone, then leave an odd
//! number of single stones); when every pile holds one stone the first
//! player wins exactly with an even number of them.

use std::error::Error;
use std::io::{self, Read, Write};

fn main() -> Result<(), Box<dyn Error>> {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input)?;
    let mut tokens = input.split_ascii_whitespace().map(str::parse::<u64>);
    let n = tokens.next().ok_or("missing the pile count")??;
    // The nim-sum, the single stones, and the piles of more than one.
    let (mut nim_sum, mut singles, mut big) = (0u64, 0u64, 0u64);
    for _ in 0..n {
        let a = tokens.next().ok_or("missing a pile")??;
        nim_sum ^= a;
        if a == 1 {
            singles += 1;
        } else {
            big += 1;
        }
    }
    let first_wins = if big > 0 {
        nim_sum != 0
    } else {
        singles % 2 == 0
    };
    let answer = if first_wins { "X" } else { "Y" };
    writeln!(io::stdout(), "{answer}")?;
    Ok(())
}
