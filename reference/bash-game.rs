//! Reference for `bash-game`: the first player loses exactly when `n` is a
//! multiple of `m + 1` (whatever they take, the opponent completes the
//! round to `m + 1`, and takes the last stone).

use std::error::Error;
use std::io::{self, BufWriter, Read, Write};

fn main() -> Result<(), Box<dyn Error>> {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input)?;
    let mut tokens = input.split_ascii_whitespace().map(str::parse::<u64>);
    let mut out = BufWriter::new(io::stdout().lock());
    let cases = tokens.next().ok_or("missing the case count")??;
    for _ in 0..cases {
        let n = tokens.next().ok_or("missing n")??;
        let m = tokens.next().ok_or("missing m")??;
        let answer = if n % (m + 1) != 0 { "first" } else { "second" };
        writeln!(out, "{answer}")?;
    }
    out.flush()?;
    Ok(())
}
