//! Reference for `misere-nim`: when every pile holds one stone the first
//! player wins exactly with an even number of piles; otherwise exactly when
//! the nim-sum is non-zero (play as in normal Nim until only one pile holds
//! more than one stone, then leave an odd number of single stones).

use std::error::Error;
use std::io::{self, Read, Write};

fn main() -> Result<(), Box<dyn Error>> {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input)?;
    let mut tokens = input.split_ascii_whitespace().map(str::parse::<u64>);
    let n = tokens.next().ok_or("missing the pile count")??;
    let (mut nim_sum, mut all_single) = (0, true);
    for _ in 0..n {
        let a = tokens.next().ok_or("missing a pile")??;
        nim_sum ^= a;
        all_single &= a == 1;
    }
    let first_wins = if all_single { n % 2 == 0 } else { nim_sum != 0 };
    let answer = if first_wins { "X" } else { "Y" };
    writeln!(io::stdout(), "{answer}")?;
    Ok(())
}
