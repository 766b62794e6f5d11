//! Reference for `nim-count-moves`: a move on pile i wins exactly when it
//! leaves a_i xor s stones (s the nim-sum), which is possible when
//! a_i xor s < a_i; each pile gives at most one winning move.

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
        let piles: Vec<u64> = values.by_ref().take(n as usize).collect();
        let sum = piles.iter().fold(0, |acc, &a| acc ^ a);
        let count = piles.iter().filter(|&&a| a ^ sum < a).count();
        out.push_str(&count.to_string());
        out.push('\n');
    }
    io::stdout()
        .write_all(out.as_bytes())
        .expect("write stdout");
}
