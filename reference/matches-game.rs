//! Reference for `matches-game`: cases until end of input; each is won by
//! the first player exactly when the nim-sum of its piles is non-zero.
//! Cases are read as tokens, so line breaks inside or between cases and a
//! missing final newline do not matter.

use std::error::Error;
use std::io::{self, BufWriter, Read, Write};

fn main() -> Result<(), Box<dyn Error>> {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input)?;
    let mut tokens = input.split_ascii_whitespace().map(str::parse::<u64>);
    let mut out = BufWriter::new(io::stdout().lock());
    while let Some(m) = tokens.next() {
        let mut nim_sum = 0;
        for _ in 0..m? {
            nim_sum ^= tokens.next().ok_or("a case ends early")??;
        }
        let answer = if nim_sum != 0 { "Yes" } else { "No" };
        writeln!(out, "{answer}")?;
    }
    out.flush()?;
    Ok(())
}
