//! Reference for `john`: misère Nim per case. With only single stones the
//! first player wins exactly when their count is even; otherwise exactly
//! when the nim-sum is non-zero.

use std::error::Error;
use std::io::{self, BufWriter, Read, Write};

fn main() -> Result<(), Box<dyn Error>> {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input)?;
    let mut tokens = input.split_ascii_whitespace().map(str::parse::<u64>);
    let mut out = BufWriter::new(io::stdout().lock());
    let cases = tokens.next().ok_or("missing the case count")??;
    for _ in 0..cases {
        let n = tokens.next().ok_or("missing a pile count")??;
        let (mut nim_sum, mut all_single) = (0, true);
        for _ in 0..n {
            let a = tokens.next().ok_or("missing a pile")??;
            nim_sum ^= a;
            all_single &= a == 1;
        }
        let first_wins = if all_single { n % 2 == 0 } else { nim_sum != 0 };
        let answer = if first_wins { "John" } else { "Brother" };
        writeln!(out, "{answer}")?;
    }
    out.flush()?;
    Ok(())
}
