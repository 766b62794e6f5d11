//! Reference for `nim`: the first player wins normal-play Nim exactly when
//! the nim-sum (XOR) of the piles is non-zero.

use std::error::Error;
use std::io::{self, Read, Write};

fn main() -> Result<(), Box<dyn Error>> {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input)?;
    let mut tokens = input.split_ascii_whitespace().map(str::parse::<u64>);
    let n = tokens.next().ok_or("missing the pile count")??;
    let mut nim_sum = 0;
    for _ in 0..n {
        nim_sum ^= tokens.next().ok_or("missing a pile")??;
    }
    let answer = if nim_sum != 0 { "Alice" } else { "Bob" };
    writeln!(io::stdout(), "{answer}")?;
    Ok(())
}
